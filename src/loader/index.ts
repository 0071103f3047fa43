// The package's `./loaders` (and `./loader`) entry point: the loader factories, their option and data types,
// and the error strict mode throws. Everything else in this folder is internal.
/**
 * The content loaders (`articlesLoader`, `keywordsLoader`, `digestLoader`, `liveArticlesLoader`), their option and data types, and the helpers that map articles to a theme's schema. `astro-content-publisher/loader` is the same module.
 *
 * @packageDocumentation
 * @module astro-content-publisher/loaders
 */
export { articlesLoader } from './articles/articles-loader.js';
export { keywordsLoader, digestLoader } from './data/data-loaders.js';
export {
  liveArticlesLoader,
  type LiveArticlesFilter,
  type LiveArticleEntryFilter,
  type LiveArticleData,
} from './live/live-loader.js';
export type { ArticlesLoaderOptions, DataLoaderOptions, LiveArticlesLoaderOptions } from './options/options.js';
// The nested option types, so that the reference (and a user's own typed config) can name them.
export type { BudgetOptions, ImagesOptions } from './options/options-docs.js';
export type { SanitizeOptions, Heading } from '../html/index.js';
export type { ArticleData, KeywordData, DigestData } from './entries/schemas.js';
export { StrictModeError } from './errors/warnings.js';
// The helpers of https://www.npmjs.com/package/astro-content-publisher#mapping-the-articles-to-a-themes-schema
export { articleDataSchema } from './entries/schemas.js';
export {
  readingTime,
  entryDescription,
  starterFields,
  type StarterData,
  type StarterFields,
} from './entries/theme-fields.js';
export { listCacheKey } from './entries/page-digest.js';
// Route caching of on-demand pages: the tags the live loader's cache hints carry and `watch --invalidate` sends.
export { cacheTags, tagsForChangedArticles } from './process/cache-tags.js';
