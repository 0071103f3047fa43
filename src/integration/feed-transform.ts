import {
  DEFAULT_MAX_RSS_BYTES,
  DEFAULT_MAX_XML_BYTES,
  makeArticleUrlMapper,
  parseRssFeed,
  parseSitemapEntries,
  rewriteRss,
  rewriteSitemap,
} from '../feeds/index.js';
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

function mapper(config: RouteConfig, origins: string[]): (upstream: string) => string {
  return makeArticleUrlMapper({ blogSite: config.blogSite, articlePattern: config.articlePattern, upstreamOrigins: origins });
}

/** The service's sitemap rewritten for the blog, merged with the blog's own pages, split when too big. */
export function buildSitemap(body: string, config: RouteConfig, localPages: readonly string[]): SitemapFiles {
  if (config.sitemap === false) throw new TypeError('[astro-content-publisher] buildSitemap() called with the sitemap disabled.');
  const { path, maxUrlsPerFile } = config.sitemap;
  const url = config.sitemapUrl;
  const entries = parseSitemapEntries(body, { url, maxBytes: SITEMAP_MAX_BYTES });
  const origins = upstreamOrigins(config, entries.map((entry) => entry.loc));
  return rewriteSitemap(body, {
    url,
    upstreamOrigins: origins,
    mapUrl: mapper(config, origins),
    maxBytes: SITEMAP_MAX_BYTES,
    extraUrls: localPages.map((loc) => ({ loc })),
    maxUrlsPerFile,
    partUrl: (n) => blogUrl(config, sitemapPartPath(path, n + 1)),
  });
}

/** The service's RSS feed with every service URL pointing at the blog. */
export function buildRss(body: string, config: RouteConfig): string {
  if (config.rss === false) throw new TypeError('[astro-content-publisher] buildRss() called with the RSS route disabled.');
  const url = config.rssUrl;
  const feed = parseRssFeed(body, { url, maxBytes: RSS_MAX_BYTES });
  const origins = upstreamOrigins(config, [feed.link, ...feed.items.map((item) => item.link)]);
  return rewriteRss(body, { url, upstreamOrigins: origins, mapUrl: mapper(config, origins), maxBytes: RSS_MAX_BYTES, selfUrl: blogUrl(config, config.rss.path) });
}
