// The invalidation endpoint (publisher({ invalidate })): purges the route cache and in-process copies by tag; its wiring.
export * as invalidateHandler from './invalidate-handler.js';
export * as invalidateSetup from './invalidate-setup.js';
