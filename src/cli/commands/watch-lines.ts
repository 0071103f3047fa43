/**
 * The human lines of `watch` (stderr, after a `[watch HH:MM:SS]` stamp): one per event of the loop. `--json`
 * prints the events themselves instead.
 */
import { changedArticles, formatDuration, type WatchEvent } from '../../watch/index.js';
import { oneLine } from '../terminal-text.js';

type UpstreamError = Extract<WatchEvent, { event: 'upstream-error' }>;

/**
 * Failures whose hint is "retry" in some form ("The service failed: retry later."): the watcher retries on its
 * own, which its line says, so their hint would repeat or contradict it. Other hints (check the site id, the
 * address, the state file) say what only the user can do, and are kept.
 */
const RETRIED_BY_WATCH = new Set(['server_error', 'cms_unavailable', 'rate_limited', 'timeout', 'network']);

/** `upstream error: <what failed>; retrying in 8s`, then the hint when it asks for more than a retry. */
export function upstreamErrorLine(event: UpstreamError): string {
  const hint = event.hint !== undefined && event.message.endsWith(event.hint) ? event.hint : undefined;
  const reason = (hint === undefined ? event.message : event.message.slice(0, -hint.length)).trimEnd();
  const advice = hint !== undefined && !RETRIED_BY_WATCH.has(event.code ?? '') ? `. ${oneLine(hint)}` : '';
  return `upstream error: ${oneLine(reason.replace(/\.$/, ''))}; retrying in ${formatDuration(event.retryInMs)}${advice}`;
}

export function humanLine(event: WatchEvent): string {
  switch (event.event) {
    case 'baseline':
      return `baseline recorded: ${event.items} feed items, ${event.urls} sitemap URLs`;
    case 'unchanged':
      return `no change${event.notModified.rss && event.notModified.sitemap ? ' (304 Not Modified)' : ''}`;
    case 'changes':
      return `${event.changes.length} change(s) to ${changedArticles(event.changes)} article(s):\n${event.summary.map((line) => `  - ${oneLine(line)}`).join('\n')}`;
    case 'debounce':
      return `waiting ${formatDuration(event.waitMs)} for more changes before triggering`;
    case 'triggered':
      return `triggered (${oneLine(event.detail)})`;
    case 'trigger-failed':
      return `trigger failed: ${oneLine(event.detail)}; the changes are kept and retried ${event.retryInMs > 0 ? `in ${formatDuration(event.retryInMs)}` : 'on the next run'}`;
    case 'upstream-error':
      return upstreamErrorLine(event);
    case 'stopped':
      return 'stopped';
  }
}
