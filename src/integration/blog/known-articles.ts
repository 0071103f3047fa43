import {
  blogPageKey,
  pageKey,
  unpublishedKey,
  type ArticleLinkContext,
  type PageSet,
} from '../../html/article-links.js';
import { publishedCollections, type PublishedCollection } from '../../loader/process/published-articles.js';
import { serviceOriginsSeen } from '../../loader/process/service-origins.js';
import type { KnownArticles } from './feed-filter.js';
import type { RouteConfig } from '../settings/route-config.js';

/**
 * The union of the articles collections of one site (several loaders: one per language, say), or
 * undefined when none of them is for this site.
 */
export function articlesOfSite(collections: readonly PublishedCollection[], siteId: number): RouteConfig['articles'] {
  const mine = collections.filter((c) => c.siteId === siteId);
  if (mine.length === 0) return undefined;
  const slugs = new Set(mine.flatMap((c) => c.slugs));
  const origins = new Set(mine.flatMap((c) => c.origins));
  // One slug may be in several collections, one per language (a service with the same slug per language).
  const languages: Record<string, string[]> = {};
  for (const collection of mine)
    for (const [slug, language] of Object.entries(collection.languages)) {
      const list = (languages[slug] ??= []);
      if (!list.includes(language)) list.push(language);
    }
  for (const list of Object.values(languages)) list.sort();
  const unpublished = [
    ...new Set(mine.flatMap((c) => (c.unpublished ?? []).map((slug) => unpublishedKey(c.language ?? '', slug)))),
  ].sort();
  const moved: Record<string, string> = {};
  for (const collection of mine)
    for (const [from, to] of Object.entries(collection.moved ?? {}))
      moved[unpublishedKey(collection.language ?? '', from)] = to;
  return {
    slugs: [...slugs].sort(),
    origins: [...origins].sort(),
    languages,
    ...(unpublished.length > 0 ? { unpublished } : {}),
    ...(Object.keys(moved).length > 0 ? { moved } : {}),
  };
}

const NO_PAGES: PageSet = { has: () => false };

/**
 * The pages a static build serves (see `pageKey`): those it wrote, and any path an on-demand page route
 * matches (`RouteConfig.onDemandPages`). On demand, none when the build found no route for articles at all
 * (`noArticleRoute`); else undefined (unknown, under `astro dev` too).
 */
export function servedPagesOf(
  config: Pick<RouteConfig, 'builtPages' | 'onDemandPages' | 'noArticleRoute'>,
): PageSet | undefined {
  if (config.builtPages === undefined) return config.noArticleRoute ? NO_PAGES : undefined;
  const built = writtenPagesOf(config.builtPages);
  const routes = (config.onDemandPages ?? []).map((source) => new RegExp(source));
  if (routes.length === 0) return built;
  return { has: (key) => built.has(key) || routeMatches(routes, key), written: (key) => built.has(key) };
}

// One set per list of built pages: build:done asks for it once per sitemap part, feed and pass.
const writtenSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The `pageKey`s of the pages a static build wrote (`RouteConfig.builtPages`). */
export function writtenPagesOf(builtPages: readonly string[]): ReadonlySet<string> {
  let set = writtenSets.get(builtPages);
  if (set === undefined) {
    set = new Set(builtPages.map(pageKey));
    writtenSets.set(builtPages, set);
  }
  return set;
}

/** The files of `astro:build:done`'s `assets` (route pattern -> files) below the output, as paths (`blog/x/index.html`). */
export function outputFilesOf(
  outputs: ReadonlyMap<string, readonly URL[]>,
  dir: URL,
  routes?: ReadonlySet<string>,
): string[] {
  const root = dir.href.endsWith('/') ? dir.href : `${dir.href}/`;
  const files: string[] = [];
  for (const [pattern, urls] of outputs) {
    if (routes && !routes.has(pattern)) continue;
    for (const url of urls) if (url.href.startsWith(root)) files.push(decodeURIComponent(url.href.slice(root.length)));
  }
  return files;
}

/**
 * The HTML files a static build's prerendered endpoints wrote (`src/pages/blog/[slug].html.ts`), as paths below
 * the output (`blog/one.html`), from `astro:build:done`'s `assets` (route pattern -> files written). Astro's
 * list of built pages holds the pages of page routes only; an endpoint's HTML page answers all the same.
 */
export function endpointHtmlPages(
  outputs: ReadonlyMap<string, readonly URL[]>,
  dir: URL,
  endpointRoutes: ReadonlySet<string>,
): string[] {
  return outputFilesOf(outputs, dir, endpointRoutes).filter((file) => file.endsWith('.html'));
}

/**
 * Whether a route regex (without the base) matches a page key: with or without the trailing slash, or as an
 * HTML file (an article endpoint's `/blog/[slug].html`; the key has no `.html`).
 */
export function routeMatches(routes: readonly RegExp[], key: string): boolean {
  return routes.some((route) => route.test(`/${key}`) || route.test(`/${key}/`) || route.test(`/${key}.html`));
}

/**
 * Whether the blog serves the page at one of its absolute URLs, where the build said: in a static build, a page
 * it wrote or an on-demand route matches (servedPagesOf); else one of its page routes matches (`pageRoutes`).
 * A URL outside `site` and `base` is not the blog's. Undefined where nothing is known (`astro dev`).
 */
export function blogPageServedOf(
  config: Pick<RouteConfig, 'blogSite' | 'builtPages' | 'onDemandPages' | 'pageRoutes'>,
): ((url: URL) => boolean) | undefined {
  if (config.blogSite === '') return undefined;
  const site = new URL(config.blogSite);
  const onSite = (url: URL) => url.origin === site.origin && url.pathname.startsWith(site.pathname);
  const pages = config.builtPages === undefined ? undefined : servedPagesOf(config);
  if (pages) return (url) => onSite(url) && pages.has(blogPageKey(url, config.blogSite));
  if (config.pageRoutes === undefined) return undefined;
  const routes = config.pageRoutes.map((source) => new RegExp(source));
  return (url) => onSite(url) && routeMatches(routes, blogPageKey(url, config.blogSite));
}

/**
 * What the routes treat as the blog's articles. A build reads the record bundled into the routes' config;
 * `astro dev` reads the loaders' live record, since a content refresh changes the collections while the
 * server (and so the bundled config) stays. Without an articles loader, every article counts as had: in a
 * static build only the pages it serves then decide (undefined elsewhere: nothing is left out).
 */
export function knownArticlesOf(config: RouteConfig, extraOrigins: readonly string[] = []): KnownArticles | undefined {
  const articles = config.dev
    ? (articlesOfSite(publishedCollections(), config.siteId) ?? config.articles)
    : config.articles;
  const pages = servedPagesOf(config);
  if (articles === undefined) {
    const seen = serviceOriginsSeen(config.siteId);
    return pages && { origins: [...new Set([config.serviceOrigin, ...seen, ...extraOrigins])], pages };
  }
  return {
    slugs: new Set(articles.slugs),
    origins: [...new Set([config.serviceOrigin, ...articles.origins, ...extraOrigins])],
    languages: articles.languages,
    pages,
    ...(articles.unpublished ? { unpublished: new Set(articles.unpublished) } : {}),
    ...(articles.moved ? { moved: new Map(Object.entries(articles.moved)) } : {}),
  };
}

/**
 * The one mapping context of service article links (in-article links, the sitemap, the feed) for the
 * blog: undefined when the project has no articles loader for the site and its served pages are unknown.
 */
export function articleLinkContextOf(
  config: RouteConfig,
  extraOrigins: readonly string[] = [],
): ArticleLinkContext | undefined {
  const known = knownArticlesOf(config, extraOrigins);
  if (known === undefined) return undefined;
  return {
    blogSite: config.blogSite,
    articlePattern: config.articlePattern,
    trailingSlash: config.trailingSlash,
    serviceOrigins: known.origins,
    known: known.slugs,
    languages: known.languages,
    pages: known.pages,
    ...(known.unpublished ? { unpublished: known.unpublished } : {}),
    ...(known.moved ? { moved: known.moved } : {}),
  };
}

/**
 * Under `astro dev`, a key that changes when the loaders' record does, so the routes' cached output (built
 * with the record of its time) is not served after a content refresh. Empty for a build (the record is
 * fixed in the bundle).
 */
export function knownArticlesKey(config: RouteConfig): string {
  if (!config.dev) return '';
  const articles = articlesOfSite(publishedCollections(), config.siteId);
  if (articles === undefined) return '';
  let hash = 0;
  // The languages count too: a slug that arrives in a second language changes what the routes list.
  for (const slug of articles.slugs) {
    const text = `${slug}\u0000${(articles.languages?.[slug] ?? []).join(',')}\u0001`;
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  }
  return ` (${articles.slugs.length} articles, ${hash})`;
}
