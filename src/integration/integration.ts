import type { AstroConfig, AstroIntegration } from 'astro';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cacheTags } from '../loader/cache-tags.js';
import { noteAstroCommand, SYNC_PLACEHOLDERS } from '../loader/loader-runs.js';
import { clearPublishedArticles, publishedCollections } from '../loader/published-articles.js';
import { setupDevRefresh } from './dev-refresh.js';
import { loadPublisherEnvFiles } from './env-files.js';
import { serviceImagePatterns } from './image-hosts.js';
import { publisherEnvSchema } from './env-schema.js';
import {
  integrationConflicts,
  articleRoutesProblem,
  missingArticlePages,
  routeIsArticlePage,
  routeServesArticles,
  unservedArticlesProblem,
  routeConflicts,
  sharedSlugProblem,
  siteIdMismatch,
  unbuiltArticlePages,
} from './conflicts.js';
import { injectInvalidateRoute, invalidateWithoutProvider } from './invalidate-setup.js';
import { articlesOfSite, endpointHtmlPages, outputFilesOf, servedPagesOf } from './known-articles.js';
import {
  checkBuiltSitemapLink,
  checkPublicRobotsTxt,
  earlierOutputs,
  hasOwnRobotsTxt,
  hasOwnRouteFile,
  projectDependencies,
  settleBuiltRobotsTxt,
} from './own-files.js';
import { selectLocalArticlePages, selectLocalPages, staticPagePathnames } from './local-pages.js';
import type { PublisherOptions } from './options.js';
import { resolveOptions, type AstroConfigView, type ResolvedOptions } from './resolve-options.js';
import { blogUrl, pathIn, sitemapPartPattern, type RouteConfig } from './route-config.js';
import { sitemapFilesIn, writeStaticSitemap } from './static-sitemap.js';
import { takeStaleNotes } from './last-good.js';
import { lastGoodDir, pruneLastGood } from './last-good-files.js';
import { splitNoindex } from './noindex.js';
import { feedRoutesOf, settleBuiltFeeds } from './built-feeds.js';
import { rewriteBuiltArticleLinks } from './built-links.js';
import { assetLocation, type AssetLocation, type EmittedAsset } from './asset-refs.js';
import { dataStoreFilePlugin, prerendersInNode, storeFileOf } from './data-store-file.js';
import { emittedAssetsPlugin } from './emitted-assets.js';
import { keepNamedAssets } from './kept-assets.js';
import { imageCacheDir } from '../loader/image-cache.js';
import { noExternalPlugin } from './no-external-plugin.js';
import { routeConfigPlugin } from './virtual-module.js';

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
  // Our output files as an earlier build left them, read at astro:build:start (own-files.ts).
  let leftover: (path: string) => boolean = () => false;
  let pathnames: string[] = [];
  let usesAstroRss = false;
  let ownSitemapRoute = false;
  let astroCommand = '';
  // The prerendered routes that serve the service's feed (built-feeds.ts).
  let feedRoutes: string[] = [];
  // Static output: the patterns of the page routes that render on demand (they serve pages the build did not write).
  let onDemandPages: string[] = [];
  // A build whose routes include none at articlePattern (see routeServesArticles).
  let noArticleRoute = false;
  let articleRouteFound = true;
  // A build's page routes (RouteConfig.pageRoutes); on-demand ones (onDemandPages) for static output.
  let pageRoutes: string[] | undefined;
  // The patterns of the blog's prerendered endpoints: the HTML pages they write are pages it serves.
  let endpointRoutes = new Set<string>();
  // Static output: the i18n fallback routes of prerendered routes (RouteConfig.fallbackPages).
  let fallbackPages: string[] = [];
  // The blog's page routes with a parameter (`/blog/[slug]`): named when the articles' pages were not found.
  let parameterRoutes: string[] = [];
  // What keepNamedAssets needs: the files the bundler wrote in this build, and where the assets are served.
  const emitted: EmittedAsset[] = [];
  let assets: { folder: string; location: AssetLocation; imagesDir: string; astroAssetsDir: string } | undefined;
  // One warning per conflict, although Astro resolves the routes again on every change under `astro dev`.
  const warned = new Set<string>();
  const warnOnce = (logger: { warn: (message: string) => void }, message: string | undefined) => {
    if (message === undefined || warned.has(message)) return;
    warned.add(message);
    // Astro's logger already labels the line with the integration's name.
    logger.warn(message.replace(/^\[astro-content-publisher\] /, ''));
  };

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
      ...(pageRoutes ? { pageRoutes } : {}),
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
        const sitemap = resolved?.route.sitemap;
        if (dirs && sitemapAtBuildDone && sitemap)
          leftover = earlierOutputs(dirs.outDir, dirs.publicDir, sitemapFilesIn(dirs.outDir, sitemap.path));
      },
      'astro:routes:resolved': ({ routes, logger }) => {
        // For routes that answer on demand: the static pages are all that is known before the build.
        pathnames = staticPagePathnames(routes);
        if (!resolved) return;
        const ours = resolved.route.sitemap;
        ownSitemapRoute = ours !== false && routes.some((r) => r.origin === 'project' && r.pattern === ours.path);
        for (const message of routeConflicts(routes, resolved.route, usesAstroRss)) warnOnce(logger, message);
        const rss = resolved.route.rss;
        if (staticOutput && dirs) feedRoutes = feedRoutesOf(routes, rss === false ? undefined : rss.path, dirs.root);
        articleRouteFound = routeServesArticles(routes, resolved.route);
        // Only for routes that answer on demand: a static build knows the pages it wrote (and settles its
        // prerendered feed by them at the end), which no shape of a route can tell better.
        noArticleRoute = isBuild && !staticOutput && resolved.route.blogSite !== '' && !articleRouteFound;
        const blogPages = routes.filter((r) => r.type === 'page' && r.origin !== 'internal');
        const layout = resolved.route;
        // An endpoint that renders articles' HTML serves them too (routeIsArticlePage).
        const articleEndpoints = routes.filter((r) => r.type === 'endpoint' && routeIsArticlePage(r, layout));
        pageRoutes = isBuild ? [...blogPages, ...articleEndpoints].map((r) => r.patternRegex.source) : undefined;
        parameterRoutes = blogPages.filter((r) => r.origin === 'project' && r.params.length > 0).map((r) => r.pattern);
        // A catch-all at the root (`[...path]`) renders whatever it is asked: it serves no page known to exist.
        const catchAll = (r: (typeof routes)[number]) => r.segments[0]?.length === 1 && r.segments[0][0]!.spread;
        onDemandPages = [...blogPages, ...articleEndpoints]
          .filter((r) => !r.isPrerendered && !catchAll(r))
          .map((r) => r.patternRegex.source);
        fallbackPages = routes
          .filter((r) => r.isPrerendered)
          .flatMap((r) => r.fallbackRoutes.map((f) => f.patternRegex.source));
        endpointRoutes = new Set(
          routes
            .filter((r) => r.type === 'endpoint' && r.isPrerendered && r.origin !== 'internal')
            .map((r) => r.pattern),
        );
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
      'astro:build:done': async ({ pages, dir, assets: outputs, logger }) => {
        // The prerendered feed built from an earlier build's copy (the service was down): said once, here.
        const staleNotes = takeStaleNotes();
        for (const message of staleNotes) logger.warn(message);
        // The outage copies of documents no build fetched for a month (a sitemap part whose URL changed), once
        // everything was read; not after a build that used a copy (the service is down: keep what is left).
        let usedCopy = staleNotes.length > 0;
        const pruneCopies = () => {
          if (dirs && !usedCopy) pruneLastGood(lastGoodDir(dirs.cacheDir));
        };
        if (assets) {
          const { copied, missing } = await keepNamedAssets(
            dir,
            assets.folder,
            assets.location,
            emitted,
            assets.imagesDir,
            assets.astroAssetsDir,
          );
          const first = copied[0];
          if (first)
            logger.info(
              `Wrote ${copied.length} asset file(s) that built pages name and the output lacked: Vite wrote their bytes under another name, or Astro deleted an image's original as unused (a page that names the original, as an og:image does, or a page kept from an earlier build). First: ${assets.folder}/${first.to}, named by /${first.page}.`,
            );
          const lost = missing[0];
          if (lost)
            logger.warn(
              `${missing.length} asset file(s) that built pages name are not in the output (first: ${assets.folder}/${lost.name}, named by ${lost.page}), and no file holds their bytes: they answer 404 until those pages are rendered again. Run \`astro build --force\` once to render every page (it also empties the content store: the loaders start again from the store of \`astro dev\` when there is one, else fetch every article).`,
            );
        }
        if (!resolved || !isBuild) return;
        const paths = pages.map((page) => page.pathname);
        // Static output: only the pages this build wrote are linked to and listed (the blog's actual pages
        // decide which articles the sitemap lists), those of its endpoints too; on demand, the routes answer too.
        const built = staticOutput ? [...paths, ...endpointHtmlPages(outputs, dir, endpointRoutes)] : paths;
        const config = {
          ...routeConfig(paths),
          ...(staticOutput
            ? { builtPages: built, onDemandPages, fallbackPages, writtenFiles: outputFilesOf(outputs, dir) }
            : {}),
        };
        const { rewritten: fixed, removed } = rewriteBuiltArticleLinks(dir, config, dirs?.publicDir, dirs?.cacheDir);
        const [first] = removed;
        if (first)
          logger.info(
            `Removed ${removed.length} article page(s) that an earlier build left in the output and this build did not build (their articles are no longer on the blog; first: /${first}).`,
          );
        if (fixed > 0)
          logger.info(
            `Pointed the article links of ${fixed} built page(s) at the blog's pages of the articles it has (and back at the service for those it no longer has).`,
          );
        const articles = articlesOfSite(publishedCollections(), resolved.route.siteId);
        warnOnce(logger, siteIdMismatch(publishedCollections(), resolved.route.siteId));
        // A static build with loaders names the pages it missed (missingArticlePages, below) instead.
        if (!articleRouteFound && resolved.route.blogSite !== '' && !(articles && staticOutput))
          warnOnce(logger, articleRoutesProblem(resolved.route));
        // The pages that answer: in static output those written and those of on-demand routes.
        const served = servedPagesOf(config) ?? paths;
        // Without a `site` the blog has no URLs to compare (and no sitemap or feed of its own pages).
        const unbuilt =
          articles && resolved.route.blogSite !== ''
            ? unbuiltArticlePages(articles, served, resolved.route)
            : undefined;
        // As in the sitemap: only where the loaders say what the blog has (without them every article counts as
        // had), and only when an article has no page (else the feeds name none that is missing).
        if (staticOutput && (articles === undefined || (unbuilt && unbuilt.missing.length > 0))) {
          for (const { feed, dropped } of settleBuiltFeeds(outputs, feedRoutes, config, dir))
            logger.info(
              `Settled ${feed} against the pages this build wrote (it renders before they are known): ${dropped} item(s) left out, links to articles without a page sent to the service.`,
            );
        }
        if (!sitemapAtBuildDone || resolved.route.sitemap === false) return pruneCopies();
        const sitemapPath = resolved.route.sitemap.path;
        const sitemapUrl = blogUrl(resolved.route, sitemapPath);
        // Never two sitemaps at one path: a sitemap of the blog's own (a route, public/) stays as it is.
        if (ownSitemapRoute || (existsSync(pathIn(dir, sitemapPath)) && !leftover(sitemapPath))) {
          // A route of the blog's own was already named in astro:routes:resolved; a public/ file was not.
          if (!ownSitemapRoute)
            warnOnce(
              logger,
              `[astro-content-publisher] The build already has ${sitemapPath} (from a route or public/ of the blog's own): this integration does not overwrite it, so the service's articles are not in the blog's sitemap. Remove yours, or move ours: publisher({ sitemap: { path: "/sitemap-articles.xml" } }).`,
            );
        } else {
          // The blog's own pages that ask not to be indexed stay out (not the customPages named in the options).
          const custom = new Set(resolved.options.sitemap === false ? [] : resolved.options.sitemap.customPages);
          const { noindex } = splitNoindex(
            dir,
            resolved.route.blogSite,
            [...config.localPages, ...(config.localArticlePages ?? []).map((page) => page.url)].filter(
              (url) => !custom.has(url),
            ),
          );
          const left = new Set(noindex);
          const listed = {
            ...config,
            localPages: config.localPages.filter((url) => !left.has(url)),
            localArticlePages: config.localArticlePages?.filter((page) => !left.has(page.url)),
          };
          const { files: written, leftOut } = await writeStaticSitemap(
            listed,
            listed.localPages,
            dir,
            leftover,
            dirs && {
              dir: lastGoodDir(dirs.cacheDir),
              warn: (message) => {
                usedCopy = true;
                logger.warn(message);
              },
            },
          );
          logger.info(`Wrote ${written.join(', ')} (${listed.localPages.length} local pages merged).`);
          // Without any article route, articleRoutesProblem already said why.
          if (!articles && articleRouteFound) warnOnce(logger, unservedArticlesProblem(leftOut, resolved.route));
          if (noindex[0])
            logger.info(
              `Left ${noindex.length} page(s) of the blog's own out of ${sitemapPath}: they carry <meta name="robots" content="noindex"> (first: ${noindex[0]}).`,
            );
        }
        if (articles)
          warnOnce(logger, missingArticlePages(articles, served, resolved.route, { unbuilt, routes: parameterRoutes }));
        if (articles) warnOnce(logger, sharedSlugProblem(articles, resolved.route));
        warnOnce(logger, await checkBuiltSitemapLink(dir, resolved.route.blogSite, sitemapUrl));
        const robots = await settleBuiltRobotsTxt(dir, sitemapUrl, resolved.options.robotsTxt);
        if (robots.written) logger.info(`Wrote robots.txt naming ${sitemapUrl}.`);
        warnOnce(logger, robots.warning);
        pruneCopies();
      },
    },
  };
}
