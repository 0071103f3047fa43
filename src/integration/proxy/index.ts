// The service's sitemap and RSS feed as the blog's: filtered to the articles it has, rewritten to its URLs, customised.
export * as feedTransform from './feed-transform.js';
export * as hreflang from './hreflang.js';
export * as indexParts from './index-parts.js';
export * as rssCustomize from './rss-customize.js';
export * as rssHandlerDocs from './rss-handler-docs.js';
