// content-publisher watch: polls the public feed, detects changed articles, runs a build or calls a hook, with backoff.
export { parseDuration, formatDuration, MAX_TIMER_MS } from './duration.js';
export { nextDelay, MAX_BACKOFF_MS } from './backoff.js';
export {
  changedArticles,
  detectRssChanges,
  detectSitemapChanges,
  describeChange,
  toItemRecord,
  type Change,
} from './detect.js';
export {
  loadState,
  saveState,
  defaultStatePath,
  StateFileError,
  watchStateSchema,
  type WatchState,
  type FeedItemRecord,
} from './state.js';
export { pollFeeds, applyObservation, observationDiffers, type FeedFetcher, type Observation } from './poll.js';
export {
  runTrigger,
  stopRunningCommands,
  describeTrigger,
  describeHookUrl,
  type TriggerSpec,
  type TriggerSetting,
  type TriggerResult,
} from './trigger.js';
export { invalidationTags, changedSlugs } from './invalidate-request.js';
export { runWatch, detectChanges, type WatchRunOptions, type WatchEvent, type OnceOutcome } from './watcher.js';
export {
  watchOptionsSchema,
  triggerSchema,
  resolveWatchOptions,
  type WatchOptions,
  type WatchOptionsInput,
} from './options.js';
