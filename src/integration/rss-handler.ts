// `astro-content-publisher/rss`: the RSS route as a handler for an endpoint of the blog's own, for blogs
// used to @astrojs/rss. With publisher({ rss: false }) the integration injects no route; this one serves
// the service's feed (only the articles the blog has, every URL on the blog) with the blog's changes.
//
//   // src/pages/rss.xml.ts
//   import { rssHandler } from 'astro-content-publisher/rss';
//   export const GET = rssHandler({ title: 'My blog', language: 'en' });
/**
 * `rssHandler()`: the feed route as a handler for an endpoint of the blog's own (with `publisher({ rss: false })`).
 *
 * @packageDocumentation
 * @module astro-content-publisher/rss
 */

import type { APIRoute } from 'astro';
import { formatIssue } from '../options/issues.js';
import { readRouteConfig } from './settings/read-route-config.js';
import type { RouteConfig } from './settings/route-config.js';
import { handleRss } from './routes/route-handlers.js';
import { customizedRss, rssHandlerOptionsSchema, type RssHandlerOptions } from './proxy/rss-customize.js';

export type { RssHandlerOptions, ExtraRssItem, RssItemView } from './proxy/rss-customize.js';

// Imported when the handler first answers, not when this module loads: the virtual module exists only in
// Astro's Vite build, and the module must stay importable elsewhere (type checks, the exports test).
let routeConfig: Promise<RouteConfig> | undefined;
const loadRouteConfig = () =>
  (routeConfig ??= import('virtual:astro-content-publisher/config').then((m) => readRouteConfig(m.default)));

/**
 * An Astro `GET` handler serving the service's feed for the blog. Options are checked when the module
 * loads (a bad option fails the build naming it); the upstream fetch, cache and failure handling are
 * those of the injected route.
 */
export function rssHandler(options: RssHandlerOptions = {}): APIRoute {
  const parsed = rssHandlerOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const problem = formatIssue(parsed.error.issues[0]!, options, {
      call: 'rssHandler()',
      docs: 'rss-handler-astro-content-publisherrss',
    });
    throw new TypeError(`${problem.message} ${problem.hint}`);
  }
  return async (context) => {
    const config = await loadRouteConfig();
    // The feed's own URL (atom:link rel="self") is this endpoint's path on the blog.
    const endpointConfig = {
      ...config,
      rss: { path: context.url.pathname.slice(new URL(config.blogSite).pathname.length - 1) },
    };
    return customizedRss(await handleRss(endpointConfig, context), parsed.data, endpointConfig);
  };
}
