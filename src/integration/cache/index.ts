// Copies of upstream documents: the on-demand routes' cache (max-age, invalidation), the last good copy a build falls back on.
export * as feedBuildError from './feed-build-error.js';
export * as feedCache from './feed-cache.js';
export * as lastGood from './last-good.js';
export * as lastGoodFiles from './last-good-files.js';
export * as routeCacheTags from './route-cache-tags.js';
