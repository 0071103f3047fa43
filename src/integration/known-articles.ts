import { pageKey, unpublishedKey, type ArticleLinkContext } from '../html/article-links.js';
import { publishedCollections, type PublishedCollection } from '../loader/published-articles.js';
import type { KnownArticles } from './feed-filter.js';
import type { RouteConfig } from './route-config.js';

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
  return {
    slugs: [...slugs].sort(),
    origins: [...origins].sort(),
    languages,
    ...(unpublished.length > 0 ? { unpublished } : {}),
  };
}

/**
 * What the routes treat as the blog's articles. A build reads the record bundled into the routes' config;
 * `astro dev` reads the loaders' live record, since a content refresh changes the collections while the
 * server (and so the bundled config) stays.
 */
export function knownArticlesOf(config: RouteConfig, extraOrigins: readonly string[] = []): KnownArticles | undefined {
  const articles = config.dev
    ? (articlesOfSite(publishedCollections(), config.siteId) ?? config.articles)
    : config.articles;
  if (articles === undefined) return undefined;
  return {
    slugs: new Set(articles.slugs),
    origins: [...new Set([config.serviceOrigin, ...articles.origins, ...extraOrigins])],
    languages: articles.languages,
    pages: config.builtPages === undefined ? undefined : new Set(config.builtPages.map(pageKey)),
    ...(articles.unpublished ? { unpublished: new Set(articles.unpublished) } : {}),
  };
}

/**
 * The one mapping context of service article links (in-article links, the sitemap, the feed) for the
 * blog: undefined when the project has no articles loader for the site.
 */
export function articleLinkContextOf(
  config: RouteConfig,
  extraOrigins: readonly string[] = [],
): (ArticleLinkContext & { known: ReadonlySet<string> }) | undefined {
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
