// liveArticlesLoader: entries per request on an on-demand blog, the guard of the owner's budget, its warnings.
export * as liveGuard from './live-guard.js';
export * as liveLoader from './live-loader.js';
export * as liveWarning from './live-warning.js';
