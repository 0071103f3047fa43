// Injected route for the parts of a split sitemap when the routes are prerendered (astro dev with static
// output): getStaticPaths lists the parts of the current upstream sitemap.
import type { APIRoute, GetStaticPaths } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { readRouteConfig } from '../settings/read-route-config.js';
import { handleSitemap, sitemapPartNumbers } from './route-handlers.js';

const config = readRouteConfig(rawConfig);

export const getStaticPaths: GetStaticPaths = async () =>
  (await sitemapPartNumbers(config)).map((part) => ({ params: { part: String(part) } }));

export const GET: APIRoute = (context) => handleSitemap(config, context);
