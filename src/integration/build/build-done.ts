import type { AstroIntegrationLogger, HookParameters } from 'astro';
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { publishedCollections } from '../../loader/process/published-articles.js';
import type { AssetLocation, EmittedAsset } from './asset-refs.js';
import { settleBuiltFeeds } from './built-feeds.js';
import { rewriteBuiltArticleLinks } from './built-links.js';
import {
  articleRoutesProblem,
  missingArticlePages,
  sharedSlugProblem,
  siteIdMismatch,
  unbuiltArticlePages,
  unservedArticlesProblem,
} from '../blog/conflicts.js';
import { keepNamedAssets } from './kept-assets.js';
import { movedRedirects, writeMovedRedirects } from './moved-redirects.js';
import { addVercelRedirects, VERCEL_ADAPTER } from './moved-vercel.js';
import { articlesOfSite, endpointHtmlPages, outputFilesOf, servedPagesOf } from '../blog/known-articles.js';
import { takeStaleNotes } from '../cache/last-good.js';
import { lastGoodDir, pruneLastGood } from '../cache/last-good-files.js';
import { reportUndoneToWatch } from '../../loader/process/watch-report.js';
import { splitNoindex } from '../blog/noindex.js';
import { builtFileAt, builtIndexListsOurs, checkBuiltSitemapLinks, settleBuiltRobotsTxt } from '../blog/own-files.js';
import type { ResolvedOptions } from '../options/resolve-options.js';
import type { PageRouteFacts } from '../blog/route-facts.js';
import { blogUrl, pathIn, type RouteConfig } from '../settings/route-config.js';
import { sitemapAliasPath } from '../blog/sitemap-links.js';
import { writeStaticSitemap } from './static-sitemap.js';

/** What the integration's earlier hooks learned about this build, read when it is done. */
export interface BuildFacts extends PageRouteFacts {
  resolved: ResolvedOptions | undefined;
  isBuild: boolean;
  staticOutput: boolean;
  /** The sitemap is written here (a static build), not served by a route. */
  sitemapAtBuildDone: boolean;
  /** A route of the blog's own serves the sitemap's path. */
  ownSitemapRoute: boolean;
  /** A route of the blog's own serves `/sitemap-index.xml` (sitemap-links.ts): no copy of ours is written there. */
  ownSitemapAliasRoute: boolean;
  /** Another sitemap integration (`@astrojs/sitemap`) is in `integrations`: its index may list ours. */
  otherSitemapIntegration: boolean;
  /** Our output files as an earlier build left them (own-files.ts earlierOutputs). */
  leftover: (path: string) => boolean;
  cacheDir: URL | undefined;
  publicDir: URL | undefined;
  /** The project's root (where @astrojs/vercel writes `.vercel/output/`). */
  root: URL | undefined;
  /** What keepNamedAssets needs: where the assets are served, and the files the bundler wrote in this build. */
  assets: { folder: string; location: AssetLocation; imagesDir: string; astroAssetsDir: string } | undefined;
  emitted: EmittedAsset[];
  /** The prerendered routes that serve the service's feed (built-feeds.ts). */
  feedRoutes: string[];
  /** Some route serves the articles' pages (routeServesArticles). */
  articleRouteFound: boolean;
  /** The routes' configuration for the pages given (the integration's routeConfig). */
  routeConfig: (pages: Iterable<string>) => RouteConfig;
  /** Astro's `build.format` and the adapter's name (none: static hosting), for the renamed articles' redirects. */
  buildFormat: 'directory' | 'file' | 'preserve';
  adapter: string | undefined;
  /** Logs a warning once per integration instance. */
  warnOnce: (logger: { warn: (message: string) => void }, message: string | undefined) => void;
}

type BuildDone = HookParameters<'astro:build:done'>;

/**
 * Copies the asset files that built pages name and the output lacks (kept-assets.ts), and says what was
 * copied or is missing.
 */
async function keepAssets(facts: BuildFacts, dir: URL, logger: AstroIntegrationLogger): Promise<void> {
  const { assets } = facts;
  if (!assets) return;
  const { copied, missing } = await keepNamedAssets(
    dir,
    assets.folder,
    assets.location,
    facts.emitted,
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

/**
 * Writes the static sitemap (the service's articles that have pages, and the blog's own pages that do not ask
 * to stay out) at `sitemapPath`, unless a sitemap of the blog's own is there. Returns whether a kept copy was used.
 */
async function writeSitemap(
  facts: BuildFacts & { resolved: ResolvedOptions },
  sitemapPath: string,
  config: RouteConfig,
  dir: URL,
  logger: AstroIntegrationLogger,
  articlesKnown: boolean,
): Promise<{ usedCopy: boolean; alias?: string | undefined }> {
  const { resolved, warnOnce } = facts;
  // Never two sitemaps at one path: a sitemap of the blog's own (a route, public/) stays as it is.
  if (facts.ownSitemapRoute || (existsSync(pathIn(dir, sitemapPath)) && !facts.leftover(sitemapPath))) {
    // A route of the blog's own was already named in astro:routes:resolved; a public/ file was not.
    if (!facts.ownSitemapRoute)
      warnOnce(
        logger,
        `[astro-content-publisher] The build already has ${sitemapPath} (from a route or public/ of the blog's own): this integration does not overwrite it, so the service's articles are not in the blog's sitemap. Remove yours, or move ours: publisher({ sitemap: { path: "/sitemap-articles.xml" } }).`,
      );
    return { usedCopy: false };
  }
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
  let usedCopy = false;
  const { files: written, leftOut } = await writeStaticSitemap(
    listed,
    listed.localPages,
    dir,
    facts.leftover,
    facts.cacheDir && {
      dir: lastGoodDir(facts.cacheDir),
      warn: (message) => {
        usedCopy = true;
        logger.warn(message);
        reportUndoneToWatch(`site ${config.siteId}`, 'the sitemap was written from a kept copy', 'kept');
      },
    },
  );
  const alias = await writeSitemapAlias(facts, sitemapPath, dir);
  // The blog's own pages and its posts under the article pattern; the files by their URL (under the base).
  const local = listed.localPages.length + (listed.localArticlePages?.length ?? 0);
  logger.info(
    `Wrote ${written.map((path) => blogUrl(config, path)).join(', ')} (${local} local pages merged)${alias ? `, and the same at ${blogUrl(config, alias)}, the name themes link to` : ''}.`,
  );
  // Without any article route, articleRoutesProblem already said why.
  if (!articlesKnown && facts.articleRouteFound) warnOnce(logger, unservedArticlesProblem(leftOut, resolved.route));
  if (noindex[0])
    logger.info(
      `Left ${noindex.length} page(s) of the blog's own out of ${sitemapPath}: they carry <meta name="robots" content="noindex"> (first: ${noindex[0]}).`,
    );
  return { usedCopy, alias };
}

/**
 * Our sitemap (the file at `sitemapPath`: a sitemap or, split, the index of its parts) copied to
 * `/sitemap-index.xml`, the name themes written for @astrojs/sitemap link to, unless the blog has a file of its
 * own there (a route, `public/`, another sitemap integration). Returns the alias's path when written.
 */
async function writeSitemapAlias(facts: BuildFacts, sitemapPath: string, dir: URL): Promise<string | undefined> {
  const alias = sitemapAliasPath(sitemapPath);
  if (alias === undefined || facts.otherSitemapIntegration || facts.ownSitemapAliasRoute) return undefined;
  const target = pathIn(dir, alias);
  if (existsSync(target) && !facts.leftover(alias)) return undefined;
  await copyFile(pathIn(dir, sitemapPath), target);
  return alias;
}

/**
 * astro:build:done: the assets built pages name, the article links and feeds settled against the pages this
 * build wrote, the static sitemap and robots.txt, the warnings about articles without pages, and the pruning
 * of outage copies no build needs any more.
 */
export async function finishBuild(
  facts: BuildFacts,
  { pages, dir, assets: outputs, logger }: BuildDone,
): Promise<void> {
  const { resolved, warnOnce } = facts;
  // The prerendered feed built from an earlier build's copy (the service was down): said once, here.
  const staleNotes = takeStaleNotes();
  for (const message of staleNotes) logger.warn(message);
  // `watch --run` keeps the change for its next run: the feed shows what it showed before (found by a trial).
  if (staleNotes.length && resolved)
    reportUndoneToWatch(`site ${resolved.route.siteId}`, 'the RSS feed was written from a kept copy', 'kept');
  // The outage copies of documents no build fetched for a month (a sitemap part whose URL changed), once
  // everything was read; not after a build that used a copy (the service is down: keep what is left).
  let usedCopy = staleNotes.length > 0;
  const pruneCopies = () => {
    if (facts.cacheDir && !usedCopy) pruneLastGood(lastGoodDir(facts.cacheDir));
  };
  await keepAssets(facts, dir, logger);
  if (!resolved || !facts.isBuild) return;
  const { route } = resolved;
  const paths = pages.map((page) => page.pathname);
  // Static output: only the pages this build wrote are linked to and listed (the blog's actual pages
  // decide which articles the sitemap lists), those of its endpoints too; on demand, the routes answer too.
  const built = facts.staticOutput ? [...paths, ...endpointHtmlPages(outputs, dir, facts.endpointRoutes)] : paths;
  const config: RouteConfig = {
    ...facts.routeConfig(paths),
    ...(facts.staticOutput
      ? {
          builtPages: built,
          onDemandPages: facts.onDemandPages,
          fallbackPages: facts.fallbackPages,
          writtenFiles: outputFilesOf(outputs, dir),
        }
      : {}),
  };
  const { rewritten: fixed, removed } = rewriteBuiltArticleLinks(dir, config, facts.publicDir, facts.cacheDir);
  const [first] = removed;
  if (first)
    logger.info(
      `Removed ${removed.length} page(s) at article paths that an earlier build left in the output and this build did not build (an article no longer on the blog, or a page its route no longer makes; first: /${first}).`,
    );
  if (fixed > 0)
    logger.info(
      `Pointed the article links of ${fixed} built page(s) at the blog's pages of the articles it has (and back at the service for those it no longer has).`,
    );
  // After the links pass, which removes the pages an earlier build left at article paths (a redirect page too).
  const servedNow = facts.staticOutput ? servedPagesOf(config) : undefined;
  if (servedNow) {
    const redirects = movedRedirects(config, servedNow);
    const moved = writeMovedRedirects(dir, redirects, {
      blogSite: route.blogSite,
      format: facts.buildFormat,
      adapter: facts.adapter,
    });
    const vercel =
      facts.adapter === VERCEL_ADAPTER && facts.root !== undefined && addVercelRedirects(facts.root, redirects);
    const hostRules = [
      moved.hostFile ? '301 lines in _redirects' : '',
      vercel ? '301 routes in .vercel/output/config.json' : '',
    ]
      .filter(Boolean)
      .join(', ');
    if (redirects[0])
      logger.info(
        `Redirected ${redirects.length} old URL(s) of renamed articles to their new ones (first: ${redirects[0].from} -> ${redirects[0].to}): ${moved.pages} redirect page(s)${hostRules ? `, and ${hostRules}` : ''}.`,
      );
  }
  const articles = articlesOfSite(publishedCollections(), route.siteId);
  warnOnce(logger, siteIdMismatch(publishedCollections(), route.siteId));
  // A static build with loaders names the pages it missed (missingArticlePages, below) instead.
  if (!facts.articleRouteFound && route.blogSite !== '' && !(articles && facts.staticOutput))
    warnOnce(logger, articleRoutesProblem(route));
  // The pages that answer: in static output those written and those of on-demand routes.
  const served = servedPagesOf(config) ?? paths;
  // Without a `site` the blog has no URLs to compare (and no sitemap or feed of its own pages).
  const unbuilt = articles && route.blogSite !== '' ? unbuiltArticlePages(articles, served, route) : undefined;
  // As in the sitemap: only where the loaders say what the blog has (without them every article counts as
  // had), and only when an article has no page (else the feeds name none that is missing).
  if (facts.staticOutput && (articles === undefined || (unbuilt && unbuilt.missing.length > 0))) {
    for (const { feed, dropped } of settleBuiltFeeds(outputs, facts.feedRoutes, config, dir))
      logger.info(
        `Settled ${feed} against the pages this build wrote (it renders before they are known): ${dropped} item(s) left out, links to articles without a page sent to the service.`,
      );
  }
  if (!facts.sitemapAtBuildDone || route.sitemap === false) return pruneCopies();
  const sitemapPath = route.sitemap.path;
  const written = await writeSitemap({ ...facts, resolved }, sitemapPath, config, dir, logger, articles !== undefined);
  if (written.usedCopy) usedCopy = true;
  if (articles) {
    warnOnce(logger, missingArticlePages(articles, served, route, { unbuilt, routes: facts.parameterRoutes }));
    warnOnce(logger, sharedSlugProblem(articles, route));
  }
  const sitemapUrl = blogUrl(route, sitemapPath);
  const aliasUrl = written.alias === undefined ? undefined : blogUrl(route, written.alias);
  const indexListsOurs = builtIndexListsOurs(dir, route.blogSite, sitemapUrl, facts.otherSitemapIntegration);
  const listsOurs = (url: string) => url === aliasUrl || indexListsOurs(url);
  const servedFile = builtFileAt(dir, route.blogSite, facts.otherSitemapIntegration);
  const htmlFiles = config.writtenFiles ?? outputFilesOf(outputs, dir);
  warnOnce(
    logger,
    await checkBuiltSitemapLinks(dir, htmlFiles, route.blogSite, {
      sitemapUrl,
      leadsToOurs: listsOurs,
      served: servedFile,
    }),
  );
  const robots = await settleBuiltRobotsTxt(dir, sitemapUrl, resolved.options.robotsTxt, listsOurs, servedFile);
  if (robots.written) {
    const at = blogUrl(route, 'robots.txt');
    // Under a base the file is not at the domain's root, the only place crawlers read it.
    const root = new URL('/robots.txt', at).href;
    logger.info(
      at === root
        ? `Wrote robots.txt naming ${sitemapUrl}.`
        : `Wrote ${at} naming ${sitemapUrl}; crawlers read only ${root}: add the Sitemap line to the robots.txt served there.`,
    );
  }
  warnOnce(logger, robots.warning);
  pruneCopies();
}
