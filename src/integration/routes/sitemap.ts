// Injected route: the blog's /sitemap.xml (and, on demand, its parts /sitemap-<n>.xml). Resolved from the
// installed package's dist/ by the integration, bundled by Astro with the virtual config module.
import type { APIRoute } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { readRouteConfig } from '../settings/read-route-config.js';
import { feedTags, handleSitemap } from './route-handlers.js';
import { tagRouteCache } from '../cache/route-cache-tags.js';

const config = readRouteConfig(rawConfig);

export const GET: APIRoute = (context) => {
  tagRouteCache(context, feedTags(config, 'sitemap'));
  return handleSitemap(config, context);
};
