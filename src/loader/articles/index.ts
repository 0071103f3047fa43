// articlesLoader: the factory, one build's run through the sync steps, and what the build says (summary, notices).
export * as articlesLoader from './articles-loader.js';
export * as ciNotice from './ci-notice.js';
export * as noticeMemory from './notice-memory.js';
export * as progress from './progress.js';
export * as summary from './summary.js';
export * as syncNotices from './sync-notices.js';
export * as syncReport from './sync-report.js';
export * as syncRun from './sync-run.js';
export * as syncSettle from './sync-settle.js';
