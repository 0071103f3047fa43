export { articlesLoader } from './articles-loader.js';
export { keywordsLoader, digestLoader } from './data-loaders.js';
export { liveArticlesLoader, type LiveArticlesFilter, type LiveArticleEntryFilter } from './live-loader.js';
export {
  articlesLoaderOptionsSchema,
  dataLoaderOptionsSchema,
  ARTICLES_LOADER_DEFAULTS,
  type ArticlesLoaderOptions,
  type DataLoaderOptions,
  type ResolvedArticlesLoaderOptions,
} from './options.js';
export { articleDataSchema, keywordDataSchema, digestDataSchema, type ArticleData, type KeywordData, type DigestData } from './schemas.js';
export { planSync, MASS_REMOVAL_SHARE, type SyncPlan, type PlanInput, type PlannedFetch, type FetchReason } from './sync-plan.js';
export { detailSlots } from './budget.js';
export { summaryLine, type SyncOutcome } from './summary.js';
export { StrictModeError } from './warnings.js';
export { listCacheKey } from './page-digest.js';
