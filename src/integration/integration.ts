import type { AstroIntegration } from 'astro';
import { setupDevRefresh } from './dev-refresh.js';
import { selectLocalPages, staticPagePathnames } from './local-pages.js';
import type { PublisherOptions } from './options.js';
import { resolveOptions, type ResolvedOptions } from './resolve-options.js';
import { sitemapPartPattern, type RouteConfig } from './route-config.js';
import { writeStaticSitemap } from './static-sitemap.js';
import { routeConfigPlugin } from './virtual-module.js';

export const INTEGRATION_NAME = 'astro-content-publisher';

// Resolved from this compiled file, so the entrypoints are found in the installed package's dist/.
const ROUTES = {
  sitemap: new URL('./routes/sitemap.js', import.meta.url),
  sitemapPart: new URL('./routes/sitemap-part.js', import.meta.url),
  rss: new URL('./routes/rss.js', import.meta.url),
};

/**
 * The Astro integration: `/sitemap.xml` and `/rss.xml` on the blog's domain from the service's public
 * feeds (no API key), and a content refresh while `astro dev` runs.
 *
 * - Static output: the RSS route is prerendered; the sitemap is written when the build is done, with the
 *   blog's own pages merged. A broken upstream fails the build.
 * - On demand (`prerender: false` or `output: 'server'`): both routes answer per request through an
 *   in-memory cache (max one hour, conditional revalidation, stale-if-error, 502 when nothing is cached).
 */
export function publisher(options?: PublisherOptions): AstroIntegration {
  let resolved: ResolvedOptions | undefined;
  let sitemapAtBuildDone = false;
  let pathnames: string[] = [];

  const routeConfig = (pages: Iterable<string>): RouteConfig => {
    if (!resolved) throw new Error('[astro-content-publisher] The integration was used before astro:config:setup.');
    const { route, options: opts } = resolved;
    const sitemap = opts.sitemap;
    const localPages =
      sitemap !== false && sitemap.includeLocalPages
        ? selectLocalPages(pages, { blogSite: route.blogSite, articlePattern: route.articlePattern, trailingSlash: route.trailingSlash, filter: sitemap.filter })
        : [];
    return { ...route, localPages };
  };

  return {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': ({ config, command, injectRoute, updateConfig }) => {
        const trailingSlash = config.build.format === 'file' ? 'never' : config.trailingSlash;
        resolved = resolveOptions(options, { site: config.site, base: config.base, output: config.output, trailingSlash });
        const { prerender, route } = resolved;
        resolved.route.dev = command === 'dev';
        // A static build writes the sitemap in astro:build:done (when every page is known), so the route
        // is only injected where it answers requests: dev and on-demand output.
        sitemapAtBuildDone = command === 'build' && prerender && route.sitemap !== false;
        if (route.sitemap !== false && !sitemapAtBuildDone) {
          injectRoute({ pattern: route.sitemap.path, entrypoint: ROUTES.sitemap, prerender });
          injectRoute({ pattern: sitemapPartPattern(route.sitemap.path), entrypoint: prerender ? ROUTES.sitemapPart : ROUTES.sitemap, prerender });
        }
        if (route.rss !== false) injectRoute({ pattern: route.rss.path, entrypoint: ROUTES.rss, prerender });
        updateConfig({
          vite: {
            plugins: [routeConfigPlugin(() => routeConfig(pathnames))],
            // The route entrypoints import the virtual module, so Vite must bundle them, not externalise them.
            ssr: { noExternal: [INTEGRATION_NAME] },
          },
        });
      },
      'astro:routes:resolved': ({ routes }) => {
        // For routes that answer on demand: the static pages are all that is known before the build.
        pathnames = staticPagePathnames(routes);
      },
      'astro:server:setup': ({ server, refreshContent, logger }) => {
        const devRefresh = resolved?.options.devRefresh;
        if (!resolved || devRefresh === false || devRefresh === undefined || !refreshContent) return;
        setupDevRefresh({
          server,
          refreshContent,
          logger,
          endpoint: devRefresh.endpoint,
          pollIntervalMs: devRefresh.pollIntervalMs,
          loaders: devRefresh.loaders,
          rssUrl: resolved.route.rssUrl,
          timeoutMs: resolved.route.timeoutMs,
        });
      },
      'astro:build:done': async ({ pages, dir, logger }) => {
        if (!sitemapAtBuildDone) return;
        const config = routeConfig(pages.map((page) => page.pathname));
        const written = await writeStaticSitemap(config, config.localPages, dir);
        logger.info(`Wrote ${written.join(', ')} (${config.localPages.length} local pages merged).`);
      },
    },
  };
}
