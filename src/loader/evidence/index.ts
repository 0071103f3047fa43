// What the service's signals (the list, the sitemap, the feed) prove about an article and what they do not: pure.
export * as changeSignals from './change-signals.js';
export * as evidence from './evidence.js';
export * as listEvidence from './list-evidence.js';
