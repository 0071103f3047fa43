// Injected middleware: links to the service's articles inside the blog's pages point at the blog's pages.
import type { MiddlewareHandler } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { rewriteArticleLinksResponse } from '../article-links-response.js';
import { readRouteConfig } from '../read-route-config.js';

const config = readRouteConfig(rawConfig);

export const onRequest: MiddlewareHandler = async (_context, next) => rewriteArticleLinksResponse(await next(), config);
