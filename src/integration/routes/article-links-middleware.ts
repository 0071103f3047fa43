// Injected middleware: links to the service's articles inside the blog's pages point at the blog's pages.
import type { MiddlewareHandler } from 'astro';
import rawConfig from 'virtual:astro-content-publisher/config';
import { rewriteArticleLinksResponse } from '../article-links-response.js';
import { readRouteConfig } from '../read-route-config.js';

const config = readRouteConfig(rawConfig);

// A page prerendered by a build is left to the integration's pass at astro:build:done, which reads every
// built page anyway (kept pages of an incremental build need it): rewriting it here too cost each page a
// stream transform for nothing. Under `astro dev` and on demand, the middleware is the only rewrite.
export const onRequest: MiddlewareHandler = async (context, next) =>
  !config.dev && context.isPrerendered ? next() : rewriteArticleLinksResponse(await next(), config);
