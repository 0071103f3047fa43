// The sync steps of one articlesLoader build: the list, the free signals, the plan (pure), the detail calls, the writes.
export * as detailExchange from './detail-exchange.js';
export * as detailGate from './detail-gate.js';
export * as feedSignals from './feed-signals.js';
export * as storeEntry from './store-entry.js';
export * as syncApply from './sync-apply.js';
export * as syncList from './sync-list.js';
export * as syncPlan from './sync-plan.js';
export * as syncReconcile from './sync-reconcile.js';
export * as syncRemovals from './sync-removals.js';
export * as syncSignals from './sync-signals.js';
export * as unanswered from './unanswered.js';
