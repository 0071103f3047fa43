// astro dev: fresh content through refreshContent, from a POST endpoint or a poll of the public RSS feed.
export * as devHost from './dev-host.js';
export * as devPoll from './dev-poll.js';
export * as devRefresh from './dev-refresh.js';
