// Injected middleware: links to the service's articles inside the blog's pages point at the blog's pages, and a page
// rendered from a copy the live loader kept while the service failed is not cached for long.
import type { APIContext, MiddlewareHandler } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { STALE_MAX_AGE_SECONDS, STALE_TAG } from '../../loader/process/cache-tags.js';
import { rewriteArticleLinksResponse } from '../links/article-links-response.js';
import { readRouteConfig } from '../settings/read-route-config.js';
import { movedLocation } from '../links/moved-route.js';

const config = readRouteConfig(rawConfig);

/**
 * A page whose cache hints carry `STALE_TAG` (liveArticlesLoader served a kept copy: the service failed) is cached
 * for at most STALE_MAX_AGE_SECONDS instead of its route's maxAge: an invalidation during an outage would
 * otherwise put the old page (an unpublished article, too) back in the route cache for the whole maxAge, and
 * nothing would ask again once the service is back.
 */
function capStaleCache(context: APIContext): void {
  const cache = context.cache as APIContext['cache'] | undefined;
  if (cache === undefined || !cache.tags.includes(STALE_TAG)) return;
  cache.set({ maxAge: Math.min(cache.options.maxAge ?? STALE_MAX_AGE_SECONDS, STALE_MAX_AGE_SECONDS), swr: 0 });
}

// A page prerendered by a build is left to the integration's pass at astro:build:done, which reads every
// built page anyway (kept pages of an incremental build need it): rewriting it here too cost each page a
// stream transform for nothing. Under `astro dev` and on demand, the middleware is the only rewrite.
export const onRequest: MiddlewareHandler = async (context, next) => {
  if (!config.dev && context.isPrerendered) return next();
  // A renamed article's old URL: a permanent redirect to the new one (a static build writes redirect pages instead).
  const moved = movedLocation(context.url, config);
  if (moved !== undefined) return new Response(null, { status: 301, headers: { location: moved } });
  const response = await next();
  capStaleCache(context);
  return rewriteArticleLinksResponse(response, config);
};
