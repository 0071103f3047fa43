import {
  DEFAULT_MAX_RSS_BYTES,
  DEFAULT_MAX_XML_BYTES,
  makeArticleUrlMapper,
  parseRssFeed,
  parseSitemapEntries,
  rewriteRss,
  rewriteSitemap,
} from '../feeds/index.js';
import { articleLinkTarget, serviceArticleSlug } from '../html/article-links.js';
import { filterRssArticles, filterSitemapArticles, type KnownArticles } from './feed-filter.js';
import { knownArticlesOf } from './known-articles.js';
import { blogUrl, sitemapPartPath, type RouteConfig } from './route-config.js';

export const SITEMAP_MAX_BYTES = DEFAULT_MAX_XML_BYTES;
export const RSS_MAX_BYTES = DEFAULT_MAX_RSS_BYTES;

/** What the sitemap route serves: one urlset, or an index and its parts (part n at index n - 1). */
export type SitemapFiles = { kind: 'urlset'; xml: string } | { kind: 'index'; xml: string; parts: string[] };

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origins that count as "the service's domain": the service's own origin plus the origins its feed
 * uses for article URLs (the site's domain in the service, which the routes do not otherwise know).
 * Every `<loc>` of the service's sitemap and every item link of its feed is one of the site's articles,
 * so their origins are safe to treat as upstream.
 */
function upstreamOrigins(config: RouteConfig, urls: Iterable<string | undefined>): string[] {
  const origins = new Set<string>([config.serviceOrigin]);
  for (const url of urls) {
    const origin = originOf(url);
    if (origin !== undefined && origin !== 'null') origins.add(origin);
  }
  return [...origins];
}

/**
 * A service article URL goes where the blog's pages send it (src/html/article-links.ts, the mapping the
 * in-article links use): the blog's page when the blog has the article, else the service's public URL.
 * Any other service URL keeps the feeds' mapping (same path on the blog's origin).
 */
function mapper(config: RouteConfig, origins: string[], known: KnownArticles | undefined): (upstream: string) => string {
  const other = makeArticleUrlMapper({ blogSite: config.blogSite, articlePattern: config.articlePattern, upstreamOrigins: origins });
  const ctx = { blogSite: config.blogSite, articlePattern: config.articlePattern, trailingSlash: config.trailingSlash, serviceOrigins: origins, known: known?.slugs };
  return (upstream) => {
    const url = URL.canParse(upstream.trim()) ? new URL(upstream.trim()) : undefined;
    if (url === undefined || serviceArticleSlug(url, origins) === undefined) return other(upstream);
    return articleLinkTarget(upstream, ctx) ?? upstream;
  };
}

/** The origins of the feed plus those the loaders saw, and what the blog has (undefined: no loader). */
function knownFor(config: RouteConfig, origins: string[]): { origins: string[]; known: KnownArticles | undefined } {
  const known = knownArticlesOf(config, origins);
  return { origins: known ? [...known.origins] : origins, known };
}

/** The service's sitemap rewritten for the blog, merged with the blog's own pages, split when too big. */
export function buildSitemap(body: string, config: RouteConfig, localPages: readonly string[]): SitemapFiles {
  if (config.sitemap === false) throw new TypeError('[astro-content-publisher] buildSitemap() called with the sitemap disabled.');
  const { path, maxUrlsPerFile } = config.sitemap;
  const url = config.sitemapUrl;
  const entries = parseSitemapEntries(body, { url, maxBytes: SITEMAP_MAX_BYTES });
  const { origins, known } = knownFor(config, upstreamOrigins(config, entries.map((entry) => entry.loc)));
  const source = known ? filterSitemapArticles(body, { url, maxBytes: SITEMAP_MAX_BYTES }, known).xml : body;
  // The blog's own pages under the article pattern, unless they are the page of a listed service article.
  const listed = new Set<string>();
  for (const entry of entries) {
    const slug = URL.canParse(entry.loc) ? serviceArticleSlug(new URL(entry.loc), origins) : undefined;
    if (slug !== undefined && (known === undefined || known.slugs.has(slug))) listed.add(slug);
  }
  const localArticles = (config.localArticlePages ?? []).filter((page) => !listed.has(page.slug)).map((page) => page.url);
  return rewriteSitemap(source, {
    url,
    upstreamOrigins: origins,
    mapUrl: mapper(config, origins, known),
    maxBytes: SITEMAP_MAX_BYTES,
    extraUrls: [...localPages, ...localArticles].map((loc) => ({ loc })),
    maxUrlsPerFile,
    partUrl: (n) => blogUrl(config, sitemapPartPath(path, n + 1)),
  });
}

/** The service's RSS feed with every service URL pointing at the blog. */
export function buildRss(body: string, config: RouteConfig): string {
  if (config.rss === false) throw new TypeError('[astro-content-publisher] buildRss() called with the RSS route disabled.');
  const url = config.rssUrl;
  const feed = parseRssFeed(body, { url, maxBytes: RSS_MAX_BYTES });
  const { origins, known } = knownFor(config, upstreamOrigins(config, [feed.link, ...feed.items.map((item) => item.link)]));
  const source = known ? filterRssArticles(body, { url, maxBytes: RSS_MAX_BYTES }, known).xml : body;
  return rewriteRss(source, { url, upstreamOrigins: origins, mapUrl: mapper(config, origins, known), maxBytes: RSS_MAX_BYTES, selfUrl: blogUrl(config, config.rss.path) });
}
