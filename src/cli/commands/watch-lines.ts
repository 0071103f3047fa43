/**
 * The human lines of `watch` (stderr, after a `[watch HH:MM:SS]` stamp): one per event of the loop. `--json`
 * prints the events themselves instead.
 */
import { changedArticles, formatDuration, type WatchEvent } from '../../watch/index.js';
import { inCliTerms } from '../report-error.js';
import { oneLine } from '../terminal-text.js';

type UpstreamError = Extract<WatchEvent, { event: 'upstream-error' }>;

/**
 * Failures whose hint is "retry" in some form ("The service failed: retry later."): the watcher retries on its
 * own, which its line says, so their hint would repeat or contradict it. Other hints (check the site id, the
 * address, the state file) say what only the user can do, and are kept.
 */
const RETRIED_BY_WATCH = new Set(['server_error', 'cms_unavailable', 'rate_limited', 'timeout', 'network']);

/** What failed: the message without its hint (the event's `hint` is what the message ends with) and final full stop. */
function reasonOf(event: UpstreamError): string {
  return event.message
    .slice(0, event.message.length - (event.hint?.length ?? 0))
    .trimEnd()
    .replace(/\.$/, '');
}

/** `<what failed>; retrying in 8s`, then the hint when it asks for more than a retry. */
function failureText(event: UpstreamError): string {
  const advice = event.hint !== undefined && !RETRIED_BY_WATCH.has(event.code ?? '') ? `. ${oneLine(event.hint)}` : '';
  return inCliTerms(`${oneLine(reasonOf(event))}; retrying in ${formatDuration(event.retryInMs)}${advice}`);
}

/** `upstream error: <what failed>; retrying in 8s`, then the hint when it asks for more than a retry. */
export function upstreamErrorLine(event: UpstreamError): string {
  return `upstream error: ${failureText(event)}`;
}

/** Time of day as the `[watch HH:MM:SS]` stamps show it. */
export function timeOfDay(date: Date): string {
  return date.toISOString().slice(11, 19);
}

/**
 * Which failure this is, whichever feed failed first and whatever the hint says (a 429's wait changes): the
 * message without the request (`[GET] /api/sites/12/rss.xml: `) and without the hint.
 */
function failureKind(event: UpstreamError): string {
  return `${event.code ?? ''} ${reasonOf(event).replace(/^\[[A-Z]+\] \S+: /, '')}`;
}

/** How often an outage that goes on is said again, with how long it has lasted: the log is not silent for hours. */
export const STILL_FAILING_EVERY_MS = 60 * 60 * 1000;

/**
 * The human log of a watcher, outages kept short: the first failure of an outage in full, the next ones only
 * when they fail in a way not yet printed (the backoff retries on its own, and the same line every poll says
 * nothing new), a reminder once an hour while it lasts, and one line when upstream answers again. The
 * client's retry notices (up to four per poll) are left out after the first failure of an outage too.
 */
export function createWatchLog(now: () => number = Date.now): {
  /** The line for an event, or undefined when it would only repeat the outage's first failure. */
  line(event: WatchEvent): string | undefined;
  /** True during an outage, once its first failure is printed: the client's retry notices are left out. */
  inOutage(): boolean;
} {
  // The failures printed since the outage began; undefined while upstream answers.
  let printed: Set<string> | undefined;
  // When the outage began, and when a line about it was last printed.
  let since = 0;
  let lastLine = 0;
  return {
    line(event) {
      if (event.event === 'upstream-error') {
        if (event.failedPolls === 1 || !printed) {
          printed = new Set();
          since = now();
        }
        const kind = failureKind(event);
        if (printed.has(kind)) {
          if (now() - lastLine < STILL_FAILING_EVERY_MS) return undefined;
          lastLine = now();
          return `upstream still failing after ${event.failedPolls} polls (since ${timeOfDay(new Date(since))}): ${failureText(event)}`;
        }
        printed.add(kind);
        lastLine = now();
      } else if (event.event === 'upstream-recovered') printed = undefined;
      return humanLine(event);
    },
    inOutage: () => printed !== undefined,
  };
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
    case 'upstream-recovered':
      return `upstream answers again after ${event.failedPolls} failed poll${event.failedPolls === 1 ? '' : 's'} (failing since ${timeOfDay(new Date(event.since))})`;
    case 'stopped':
      return 'stopped';
  }
}
