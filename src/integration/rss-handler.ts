// `astro-content-publisher/rss`: the RSS route as a handler for an endpoint of the blog's own, for blogs
// used to @astrojs/rss. With publisher({ rss: false }) the integration injects no route; this one serves
// the service's feed (only the articles the blog has, every URL on the blog) with the blog's changes.
//
//   // src/pages/rss.xml.ts
//   import { rssHandler } from 'astro-content-publisher/rss';
//   export const GET = rssHandler({ title: 'My blog', language: 'en' });

import type { APIRoute } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { knownArticlesOf } from './known-articles.js';
import { readRouteConfig } from './read-route-config.js';
import { handleRss } from './route-handlers.js';
import { customizeRss, rssHandlerOptionsSchema, type RssHandlerOptions } from './rss-customize.js';

export { rssHandlerOptionsSchema, type RssHandlerOptions, type ExtraRssItem, type RssItemView } from './rss-customize.js';

/**
 * An Astro `GET` handler serving the service's feed for the blog. Options are checked when the module
 * loads (a bad option fails the build naming it); the upstream fetch, cache and failure handling are
 * those of the injected route.
 */
export function rssHandler(options: RssHandlerOptions = {}): APIRoute {
  const parsed = rssHandlerOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`[astro-content-publisher] rssHandler(): ${issue?.message ?? 'invalid options'} (see the README section "RSS handler").`);
  }
  const config = readRouteConfig(rawConfig);
  return async (context) => {
    // The feed's own URL (atom:link rel="self") is this endpoint's path on the blog.
    const routeConfig = { ...config, rss: { path: context.url.pathname.slice(new URL(config.blogSite).pathname.length - 1) } };
    const response = await handleRss(routeConfig, context);
    if (response.status !== 200) return response;
    const xml = customizeRss(await response.text(), parsed.data, {
      blogSite: config.blogSite,
      articlePattern: config.articlePattern,
      trailingSlash: config.trailingSlash,
      languages: knownArticlesOf(routeConfig)?.languages ?? {},
    });
    return new Response(xml, { status: 200, headers: response.headers });
  };
}
