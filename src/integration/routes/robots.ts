// Injected route (on-demand output and dev, when the blog has no robots.txt of its own): allow all, name the sitemap.
import type { APIRoute } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { readRouteConfig } from '../settings/read-route-config.js';
import { handleRobots } from './route-handlers.js';

const config = readRouteConfig(rawConfig);

export const GET: APIRoute = () => handleRobots(config);
