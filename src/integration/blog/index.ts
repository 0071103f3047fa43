// What the blog has of its own: its routes, files and pages, the articles its collections hold, the conflicts with ours.
export * as conflicts from './conflicts.js';
export * as feedFilter from './feed-filter.js';
export * as knownArticles from './known-articles.js';
export * as localPages from './local-pages.js';
export * as noindex from './noindex.js';
export * as ownFiles from './own-files.js';
export * as routeFacts from './route-facts.js';
export * as sitemapLinks from './sitemap-links.js';
