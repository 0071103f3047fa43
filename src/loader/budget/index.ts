// The request budget: what one build may send, one ledger per API key across the loaders, the rate window, the clients.
export * as budget from './budget.js';
export * as clients from './clients.js';
export * as ledger from './ledger.js';
export * as loaderTurn from './loader-turn.js';
export * as rateWindow from './rate-window.js';
export * as revalidationLog from './revalidation-log.js';
