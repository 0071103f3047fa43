// keywordsLoader and digestLoader: the SEO data collections, at most one request per build, within the same budget.
export * as dataLoaders from './data-loaders.js';
