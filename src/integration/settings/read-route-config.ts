import type { RouteConfig } from './route-config.js';

/**
 * The routes' settings come from the integration through a virtual module; when it is missing (a route
 * file imported without the integration) say so rather than fail later on an undefined field.
 */
export function readRouteConfig(value: unknown): RouteConfig {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { sitemapUrl?: unknown }).sitemapUrl !== 'string'
  ) {
    throw new Error(
      '[astro-content-publisher] The sitemap/RSS route has no configuration. Add the integration to astro.config.mjs: integrations: [publisher({ siteId })].',
    );
  }
  return value as RouteConfig;
}
