// Injected route: the blog's /rss.xml, the service's feed with every URL pointing at the blog.
import type { APIRoute } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { readRouteConfig } from '../settings/read-route-config.js';
import { feedTags, handleRss } from './route-handlers.js';
import { tagRouteCache } from '../cache/route-cache-tags.js';
import { customizedRss } from '../proxy/rss-customize.js';

const config = readRouteConfig(rawConfig);

// rss.title, rss.description, rss.language: the channel as rssHandler() would write it.
const { path: _path, ...channel } = config.rss === false ? { path: '' } : config.rss;
const customized = Object.keys(channel).length > 0;

export const GET: APIRoute = async (context) => {
  tagRouteCache(context, feedTags(config, 'rss'));
  const response = await handleRss(config, context);
  return customized ? customizedRss(response, { ...channel, items: [] }, config) : response;
};
