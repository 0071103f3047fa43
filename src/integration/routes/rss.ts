// Injected route: the blog's /rss.xml, the service's feed with every URL pointing at the blog.
import type { APIRoute } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { readRouteConfig } from '../read-route-config.js';
import { feedTags, handleRss } from '../route-handlers.js';
import { tagRouteCache } from '../route-cache-tags.js';

const config = readRouteConfig(rawConfig);

export const GET: APIRoute = (context) => {
  tagRouteCache(context, feedTags(config, 'rss'));
  return handleRss(config, context);
};
