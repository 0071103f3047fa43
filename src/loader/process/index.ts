// What the loaders share with the integration and its routes in one process: published articles, origins, runs, cache tags.
export * as cacheTags from './cache-tags.js';
export * as liveArticlesSeen from './live-articles-seen.js';
export * as loaderRuns from './loader-runs.js';
export * as localInvalidation from './local-invalidation.js';
export * as names from './names.js';
export * as processRecord from './process-record.js';
export * as publishedArticles from './published-articles.js';
export * as serviceOrigins from './service-origins.js';
export * as watchReport from './watch-report.js';
