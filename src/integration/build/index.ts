// The end-of-build passes (astro:build:done): the static sitemap and feeds, the assets pages name, links back, redirect pages.
export * as assetRefs from './asset-refs.js';
export * as buildDone from './build-done.js';
export * as builtFeeds from './built-feeds.js';
export * as builtLinks from './built-links.js';
export * as incrementalHint from './incremental-hint.js';
export * as keptAssets from './kept-assets.js';
export * as movedRedirects from './moved-redirects.js';
export * as movedVercel from './moved-vercel.js';
export * as staticSitemap from './static-sitemap.js';
