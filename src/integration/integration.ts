import type { AstroConfig, AstroIntegration } from 'astro';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheTags } from '../loader/process/cache-tags.js';
import { noteAstroCommand, SYNC_PLACEHOLDERS } from '../loader/process/loader-runs.js';
import { clearPublishedArticles, publishedCollections } from '../loader/process/published-articles.js';
import { setupDevRefresh } from './dev/dev-refresh.js';
import { loadPublisherEnvFiles } from './options/env-files.js';
import { serviceImagePatterns } from './options/image-hosts.js';
import { publisherEnvSchema } from './options/env-schema.js';
import { integrationConflicts, routeServesArticles, routeConflicts, SITEMAP_INTEGRATIONS } from './blog/conflicts.js';
import { injectInvalidateRoute, invalidateWithoutProvider } from './invalidate/invalidate-setup.js';
import { articlesOfSite } from './blog/known-articles.js';
import {
  checkPublicRobotsTxt,
  earlierOutputs,
  hasOwnRobotsTxt,
  hasOwnRouteFile,
  projectDependencies,
} from './blog/own-files.js';
import { selectLocalArticlePages, selectLocalPages, staticPagePathnames } from './blog/local-pages.js';
import type { PublisherOptions } from './options/options.js';
import { resolveOptions, type AstroConfigView, type ResolvedOptions } from './options/resolve-options.js';
import { blogUrl, pathIn, sitemapPartPattern, type RouteConfig } from './settings/route-config.js';
import { SITEMAP_ALIAS_PATH, sitemapAliasPath } from './blog/sitemap-links.js';
import { sitemapFilesIn } from './build/static-sitemap.js';
import { takeStaleNotes } from './cache/last-good.js';
import { lastGoodDir } from './cache/last-good-files.js';
import { feedRoutesOf } from './build/built-feeds.js';
import { assetLocation, type AssetLocation, type EmittedAsset } from './build/asset-refs.js';
import { dataStoreFilePlugin, prerendersInNode, storeFileOf } from './vite/data-store-file.js';
import { emittedAssetsPlugin } from './vite/emitted-assets.js';
import { imageCacheDir } from '../loader/images/image-cache.js';
import { noExternalPlugin } from './vite/no-external-plugin.js';
import { routeConfigPlugin } from './vite/virtual-module.js';
import { finishBuild } from './build/build-done.js';
import { incrementalHints } from './vite/incremental-modules.js';
import { pageRouteFacts, type PageRouteFacts } from './blog/route-facts.js';
import { withoutPrefix } from '../options/prefix.js';

export const INTEGRATION_NAME = 'astro-content-publisher';

// Resolved from this compiled file, so the entrypoints are found in the installed package's dist/.
const ROUTES = {
  sitemap: new URL('./routes/sitemap.js', import.meta.url),
  sitemapPart: new URL('./routes/sitemap-part.js', import.meta.url),
  rss: new URL('./routes/rss.js', import.meta.url),
  articleLinks: new URL('./routes/article-links-middleware.js', import.meta.url),
  robots: new URL('./routes/robots.js', import.meta.url),
};

/**
 * `astro sync` (and `astro check`) send no request: a CI lint job or a fork's pull request without the service's
 * settings gets placeholders for the site and the service address, never used (see withSyncPlaceholders).
 */
function syncEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    PUBLISHER_SITE_ID: env.PUBLISHER_SITE_ID?.trim() || String(SYNC_PLACEHOLDERS.siteId),
    PUBLISHER_BASE_URL: env.PUBLISHER_BASE_URL?.trim() || SYNC_PLACEHOLDERS.baseUrl,
  };
}

/** What of the Astro config makes the blog's URLs (a `build.format: 'file'` site has no trailing slash). */
function blogLayoutOf(config: AstroConfig): Pick<AstroConfigView, 'site' | 'base' | 'trailingSlash'> {
  return {
    site: config.site,
    base: config.base,
    trailingSlash: config.build.format === 'file' ? 'never' : config.trailingSlash,
  };
}

/**
 * The Astro integration: `/sitemap.xml` and `/rss.xml` on the blog's domain from the service's public
 * feeds (no API key), and a content refresh while `astro dev` runs.
 *
 * - Static output: the RSS route is prerendered; the sitemap is written when the build is done, with the
 *   blog's own pages merged. A broken upstream fails the build, unless it is an outage and an earlier build
 *   kept a copy of that feed in cacheDir: then the copy is used, with a warning.
 * - On demand (`prerender: false` or `output: 'server'`): both routes answer per request through an
 *   in-memory cache (max one hour, conditional revalidation, stale-if-error, 502 when nothing is cached).
 */
export function publisher(options?: PublisherOptions): AstroIntegration {
  let resolved: ResolvedOptions | undefined;
  let resolveEnv: NodeJS.ProcessEnv = process.env;
  let sitemapAtBuildDone = false;
  let staticOutput = false;
  let isBuild = false;
  // The store file the prerender bundle reads, where it reads one (data-store-file.ts).
  let storeFile: URL | undefined;
  let dirs: { root: URL; outDir: URL; publicDir: URL; cacheDir: URL } | undefined;
  // For the renamed articles' redirects in a static build (moved-redirects.ts).
  let buildFormat: 'directory' | 'file' | 'preserve' = 'directory';
  let adapter: string | undefined;
  // Our output files as an earlier build left them, read at astro:build:start (own-files.ts).
  let leftover: (path: string) => boolean = () => false;
  let pathnames: string[] = [];
  let usesAstroRss = false;
  let ownSitemapRoute = false;
  let ownSitemapAliasRoute = false;
  let otherSitemapIntegration = false;
  let astroCommand = '';
  // The prerendered routes that serve the service's feed (built-feeds.ts).
  let feedRoutes: string[] = [];
  // A build whose routes include none at articlePattern (see routeServesArticles).
  let noArticleRoute = false;
  let articleRouteFound = true;
  // What the blog's page routes say about the pages it serves (route-facts.ts).
  let pageFacts: PageRouteFacts = {
    pageRoutes: undefined,
    parameterRoutes: [],
    onDemandPages: [],
    fallbackPages: [],
    endpointRoutes: new Set(),
  };
  // What keepNamedAssets needs: the files the bundler wrote in this build, and where the assets are served.
  const emitted: EmittedAsset[] = [];
  let assets: { folder: string; location: AssetLocation; imagesDir: string; astroAssetsDir: string } | undefined;
  // One warning per conflict, although Astro resolves the routes again on every change under `astro dev`.
  const warned = new Set<string>();
  const warnOnce = (logger: { warn: (message: string) => void }, message: string | undefined) => {
    if (message === undefined || warned.has(message)) return;
    warned.add(message);
    // Astro's logger already labels the line with the integration's name.
    logger.warn(withoutPrefix(message));
  };

  // Why an incremental build restored no page (incremental-hint.ts).
  const incremental = incrementalHints();
  const routeConfig = (pages: Iterable<string>): RouteConfig => {
    if (!resolved) throw new Error('[astro-content-publisher] The integration was used before astro:config:setup.');
    const { route, options: opts } = resolved;
    const sitemap = opts.sitemap;
    const include = sitemap !== false && sitemap.includeLocalPages;
    const pageOptions = {
      blogSite: route.blogSite,
      articlePattern: route.articlePattern,
      trailingSlash: route.trailingSlash,
      filter: sitemap === false ? undefined : sitemap.filter,
    };
    const pageList = [...pages];
    const localPages = include ? selectLocalPages(pageList, pageOptions) : [];
    const localArticlePages = include ? selectLocalArticlePages(pageList, pageOptions) : [];
    const customPages = sitemap === false ? [] : sitemap.customPages;
    // Read when the routes are bundled (or the static sitemap written): the loaders have run by then.
    return {
      ...route,
      localPages: [...localPages, ...customPages],
      localArticlePages,
      articles: articlesOfSite(publishedCollections(), route.siteId),
      ...(noArticleRoute ? { noArticleRoute: true as const } : {}),
      ...(pageFacts.pageRoutes ? { pageRoutes: pageFacts.pageRoutes } : {}),
      // Where the prerendered feed keeps its copy (also with output 'server' and prerendered feeds).
      ...(isBuild && resolved.prerender && dirs ? { lastGoodDir: lastGoodDir(dirs.cacheDir) } : {}),
    };
  };

  return {
    name: INTEGRATION_NAME,
    hooks: {
      'astro:config:setup': ({ config, command, injectRoute, updateConfig, addMiddleware }) => {
        astroCommand = command;
        // `astro preview` serves what a build wrote (an adapter's server reads its settings from the build): it
        // never calls the service, so it needs none of the service's settings.
        if (command === 'preview') return;
        // Only the loaders of this build say what the blog has (a previous build in this process does not).
        clearPublishedArticles();
        takeStaleNotes();
        emitted.length = 0;
        leftover = () => false;
        if (config.vite?.envDir !== false)
          loadPublisherEnvFiles(config.vite?.envDir ?? config.root, command === 'dev' ? 'development' : 'production');
        // `site`, `base` and `trailingSlash` are read again in astro:config:done: a theme's integration may set
        // them after this setup (AstroWind sets them from its own config file).
        resolveEnv = command === 'sync' ? syncEnv(process.env) : process.env;
        resolved = resolveOptions(
          options,
          { ...blogLayoutOf(config), output: config.output, siteLater: true },
          resolveEnv,
        );
        const { prerender, route } = resolved;
        resolved.route.dev = command === 'dev';
        // A static build writes the sitemap in astro:build:done (when every page is known), so the route
        // is only injected where it answers requests: dev and on-demand output.
        sitemapAtBuildDone = command === 'build' && prerender && route.sitemap !== false;
        isBuild = command === 'build';
        staticOutput = isBuild && config.output === 'static';
        // A route file of the blog's own at our path keeps it (warned about in astro:routes:resolved).
        const pagesDir = new URL('pages/', config.srcDir);
        if (route.sitemap !== false && !sitemapAtBuildDone && !hasOwnRouteFile(pagesDir, route.sitemap.path)) {
          injectRoute({ pattern: route.sitemap.path, entrypoint: ROUTES.sitemap, prerender });
          injectRoute({
            pattern: sitemapPartPattern(route.sitemap.path),
            entrypoint: prerender ? ROUTES.sitemapPart : ROUTES.sitemap,
            prerender,
          });
          // The same sitemap under the name themes link to, unless the blog has its own there.
          const alias = sitemapAliasPath(route.sitemap.path);
          const otherSitemap = config.integrations.some((i) => SITEMAP_INTEGRATIONS.has(i.name));
          if (
            alias !== undefined &&
            !otherSitemap &&
            !hasOwnRouteFile(pagesDir, alias) &&
            !existsSync(pathIn(config.publicDir, alias))
          )
            injectRoute({ pattern: alias, entrypoint: ROUTES.sitemap, prerender });
        }
        if (route.rss !== false && !hasOwnRouteFile(pagesDir, route.rss.path))
          injectRoute({ pattern: route.rss.path, entrypoint: ROUTES.rss, prerender });
        // Links (nothing to point them at without `site`) and the cache of pages from the live loader's kept copies.
        addMiddleware({ entrypoint: ROUTES.articleLinks, order: 'post' });
        injectInvalidateRoute(resolved.options.invalidate, config, injectRoute);
        usesAstroRss = projectDependencies(config.root).includes('@astrojs/rss');
        if (route.sitemap !== false && !sitemapAtBuildDone) {
          // On demand (and in dev) the blog's robots.txt is known only from its sources. In dev it is served
          // as a static build writes it.
          if (resolved.options.robotsTxt && !hasOwnRobotsTxt(config.publicDir, pagesDir)) {
            injectRoute({ pattern: '/robots.txt', entrypoint: ROUTES.robots, prerender });
          }
        }
        const imagePatterns = serviceImagePatterns(
          route.serviceOrigin,
          resolved.options.allowServiceImages,
          config.image ?? {},
        );
        updateConfig({
          env: { schema: publisherEnvSchema(config.env?.schema) },
          // Astro merges arrays: the user's own patterns are kept, the service's origin is added.
          ...(imagePatterns.length ? { image: { remotePatterns: imagePatterns } } : {}),
          vite: {
            plugins: [
              routeConfigPlugin(() => routeConfig(pathnames)),
              noExternalPlugin(INTEGRATION_NAME),
              emittedAssetsPlugin(() => assets?.folder ?? config.build.assets, emitted),
              dataStoreFilePlugin(() => storeFile),
              incremental.plugin,
            ],
            // The route entrypoints import the virtual module, so Vite must bundle them, not externalise them.
            ssr: { noExternal: [INTEGRATION_NAME] },
          },
        });
      },
      'astro:config:done': ({ config, logger }) => {
        noteAstroCommand(astroCommand, config);
        if (resolved) {
          // The final `site`, `base` and `trailingSlash` (fails here when there is still no `site`).
          const final = resolveOptions(options, { ...blogLayoutOf(config), output: config.output }, resolveEnv);
          resolved = { ...final, route: { ...final.route, dev: resolved.route.dev } };
          const { route } = resolved;
          if (route.sitemap !== false) {
            const sitemapUrl = blogUrl(route, route.sitemap.path);
            otherSitemapIntegration = config.integrations.some((i) => SITEMAP_INTEGRATIONS.has(i.name));
            for (const message of integrationConflicts(
              config.integrations.map((i) => i.name),
              route,
              sitemapUrl,
            ))
              warnOnce(logger, message);
            if (!sitemapAtBuildDone) warnOnce(logger, checkPublicRobotsTxt(config.publicDir, sitemapUrl));
          }
          warnOnce(logger, invalidateWithoutProvider(resolved.options.invalidate, config));
        }
        storeFile = isBuild && prerendersInNode(config.adapter?.name) ? storeFileOf(config) : undefined;
        dirs = { root: config.root, outDir: config.outDir, publicDir: config.publicDir, cacheDir: config.cacheDir };
        buildFormat = config.build.format;
        adapter = config.adapter?.name;
        incremental.configure(config, isBuild);
        if (isBuild)
          assets = {
            folder: config.build.assets,
            location: assetLocation(config),
            imagesDir: imageCacheDir(config.cacheDir),
            // Astro's own cache of generated images (astro/dist/assets/build/generate.js): one file per output name.
            astroAssetsDir: fileURLToPath(new URL('assets/', config.cacheDir)),
          };
      },
      'astro:build:start': () => {
        incremental.start();
        const sitemap = resolved?.route.sitemap;
        if (dirs && sitemapAtBuildDone && sitemap)
          leftover = earlierOutputs(dirs.outDir, dirs.publicDir, [
            ...sitemapFilesIn(dirs.outDir, sitemap.path),
            ...[sitemapAliasPath(sitemap.path) ?? []].flat(),
          ]);
      },
      'astro:routes:resolved': ({ routes, logger }) => {
        // For routes that answer on demand: the static pages are all that is known before the build.
        pathnames = staticPagePathnames(routes);
        if (!resolved) return;
        const ours = resolved.route.sitemap;
        ownSitemapRoute = ours !== false && routes.some((r) => r.origin === 'project' && r.pattern === ours.path);
        ownSitemapAliasRoute = routes.some((r) => r.origin === 'project' && r.pattern === SITEMAP_ALIAS_PATH);
        for (const message of routeConflicts(routes, resolved.route, usesAstroRss)) warnOnce(logger, message);
        const rss = resolved.route.rss;
        if (staticOutput && dirs) feedRoutes = feedRoutesOf(routes, rss === false ? undefined : rss.path, dirs.root);
        articleRouteFound = routeServesArticles(routes, resolved.route);
        // Only for routes that answer on demand: a static build knows the pages it wrote (and settles its
        // prerendered feed by them at the end), which no shape of a route can tell better.
        noArticleRoute = isBuild && !staticOutput && resolved.route.blogSite !== '' && !articleRouteFound;
        pageFacts = pageRouteFacts(routes, resolved.route, isBuild);
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
          minIntervalMs: devRefresh.minIntervalMs,
          token: devRefresh.token,
          reserve: devRefresh.reserve,
          serviceOrigin: resolved.route.serviceOrigin,
          feedTags: [cacheTags.sitemap(resolved.route.siteId), cacheTags.rss(resolved.route.siteId)],
        });
      },
      'astro:build:done': async (done) => {
        incremental.finish(done.logger);
        await finishBuild(
          {
            resolved,
            isBuild,
            staticOutput,
            sitemapAtBuildDone,
            ownSitemapRoute,
            ownSitemapAliasRoute,
            otherSitemapIntegration,
            leftover,
            cacheDir: dirs?.cacheDir,
            publicDir: dirs?.publicDir,
            root: dirs?.root,
            assets,
            emitted,
            feedRoutes,
            ...pageFacts,
            articleRouteFound,
            routeConfig,
            buildFormat,
            adapter,
            warnOnce,
          },
          done,
        );
      },
    },
  };
}
