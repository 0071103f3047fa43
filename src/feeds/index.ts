// The XML of an upstream sitemap or RSS feed: read within bounds, then written with the blog's URLs (string-level, pure).
export { XmlSafetyError, isXmlSafetyError, type XmlSafetyReason } from './errors.js';
export { DEFAULT_MAX_XML_BYTES, DEFAULT_MAX_RSS_BYTES } from './safe-xml.js';
export { parseSitemapEntries, SITEMAP_NS, type SitemapEntry, type ParseFeedOptions } from './sitemap-parse.js';
export { parseRssFeed, type RssFeed, type RssItem } from './rss-parse.js';
export { slugFromArticleUrl, makeArticleUrlMapper, type ArticleUrlMapperOptions } from './article-url.js';
export { rewriteSitemap, type RewriteSitemapOptions } from './sitemap-rewrite.js';
export { rewriteRss, type RewriteRssOptions } from './rss-rewrite.js';
export type { RewriteOptions } from './rewrite-options.js';
export type { SitemapOutput } from './sitemap-split.js';
