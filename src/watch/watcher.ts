/**
 * The watch loop: poll, detect, debounce, trigger, commit. Decisions live in detect.ts and backoff.ts;
 * this file only sequences I/O. Events are reported through a callback so the CLI decides how to print
 * them (human lines on stderr, or JSON).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { nextDelay } from './backoff.js';
import { describeChange, detectRssChanges, detectSitemapChanges, suspectLoss, type Change } from './detect.js';
import { applyObservation, observationDiffers, pollFeeds, type FeedFetcher, type Observation } from './poll.js';
import { loadState, saveState, type WatchState } from './state.js';
import { resolveWatchOptions, type WatchOptionsInput } from './options.js';
import { describeTrigger, runTrigger } from './trigger.js';

/** The data options (validated by `watchOptionsSchema`) plus the I/O the loop needs. */
export type WatchRunOptions = WatchOptionsInput & {
  /** The public feeds: a client's `rss()`/`sitemap()` (no API key needed). */
  fetcher: FeedFetcher;
  /** Aborted on SIGINT/SIGTERM: the loop stops after the running poll or trigger. */
  signal: AbortSignal;
  report: (event: WatchEvent) => void;
};

export type WatchEvent =
  | { event: 'baseline'; items: number; urls: number }
  | { event: 'unchanged'; notModified: { rss: boolean; sitemap: boolean } }
  | { event: 'changes'; changes: Change[]; summary: string[] }
  | { event: 'debounce'; waitMs: number }
  | { event: 'triggered'; changes: number; detail: string }
  | { event: 'trigger-failed'; changes: number; detail: string; retryInMs: number }
  | {
      event: 'upstream-error';
      /** The whole message, hint included. */
      message: string;
      /** The error's code (`server_error`, `network`, `bad_response`...), when it has one. */
      code?: string;
      /** What to do, as the message ends with it, when the error carries one. */
      hint?: string;
      retryInMs: number;
      /** Polls failed in a row so far, this one included (1: the first failure of an outage). */
      failedPolls: number;
    }
  /** The feeds answered (plausibly) again after `failedPolls` failed polls, the first at `since` (ISO time). */
  | { event: 'upstream-recovered'; failedPolls: number; since: string }
  | { event: 'stopped' };

/** How a `--once` run ended (the CLI maps it to an exit code). */
export type OnceOutcome =
  | { outcome: 'triggered'; changes: Change[] }
  | { outcome: 'unchanged' }
  | { outcome: 'baseline'; triggered: boolean }
  | { outcome: 'trigger-failed'; changes: Change[]; detail: string };

export function detectChanges(state: WatchState, observation: Observation): Change[] {
  return [
    ...(observation.rss.notModified ? [] : detectRssChanges(state.rss.items, observation.rss.data)),
    ...(observation.sitemap.notModified ? [] : detectSitemapChanges(state.sitemap.entries, observation.sitemap.data)),
  ];
}

/** An upstream answer that looks like an accident: nothing is triggered and the state is kept. */
export class SuspectFeedError extends Error {
  override readonly name = 'SuspectFeedError';
  /** Mapped like a malformed response (exit code 12 in the CLI). */
  readonly code = 'bad_response';
  /** What to do if the loss is real; the message ends with it. */
  readonly hint: string;

  constructor(problem: string, hint: string) {
    super(`${problem} ${hint}`);
    this.hint = hint;
  }
}

/** An upstream failure as an event: its message, and its code and hint when it has them (client errors do). */
function failureOf(error: unknown): { message: string; code?: string; hint?: string } {
  const message = error instanceof Error ? error.message : String(error);
  const { code, hint } = (error ?? {}) as { code?: unknown; hint?: unknown };
  return {
    message,
    ...(typeof code === 'string' && { code }),
    ...(typeof hint === 'string' && hint !== '' && message.endsWith(hint) && { hint }),
  };
}

/** Throws when a feed lost more than half of its entries at once (see `suspectLoss`). */
function assertPlausible(site: number, statePath: string, state: WatchState, observation: Observation): void {
  const problems = [
    observation.rss.notModified
      ? undefined
      : suspectLoss('RSS feed', state.rss.items.length, observation.rss.data.length),
    observation.sitemap.notModified
      ? undefined
      : suspectLoss('sitemap', Object.keys(state.sitemap.entries).length, Object.keys(observation.sitemap.data).length),
  ].filter((problem): problem is string => problem !== undefined);
  if (problems.length === 0) return;
  throw new SuspectFeedError(
    `For site ${site}, ${problems.join(' and ')}: losing more than half at once looks like an upstream accident, so nothing was triggered and the state was kept.`,
    `If those articles really were unpublished, delete the state file ${statePath} and run once with --trigger-on-first-run (the build then removes them; set articlesLoader({ allowMassRemoval: true }) for that build, or its guard keeps them too).`,
  );
}

async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // Aborted: the caller checks `signal.aborted`.
  }
}

/** Runs the watcher. In `once` mode it returns the outcome and lets upstream errors propagate. */
export async function runWatch(input: WatchRunOptions): Promise<OnceOutcome | undefined> {
  const { fetcher, report, signal, ...data } = input;
  const options = resolveWatchOptions(data);
  const { siteId: site, baseUrl } = options;
  const stamp = () => ({ site, baseUrl, now: new Date() });
  let state = await loadState(options.statePath, { site, baseUrl });

  const fire = async (changes: Change[]) =>
    runTrigger(options.trigger, { site, changes, stdoutToStderr: options.stdoutToStderr });

  let failures = 0;
  // Polls failed in a row: reported with each failure, and once more when the feeds answer again.
  let outage: { failedPolls: number; since: Date } | undefined;
  const answered = () => {
    if (!outage) return;
    report({ event: 'upstream-recovered', failedPolls: outage.failedPolls, since: outage.since.toISOString() });
    outage = undefined;
  };
  while (!signal.aborted) {
    try {
      if (!state) {
        // First run: record what the feeds hold now. Triggering is opt-in: a cron job's first run should
        // establish the baseline without a build.
        const observation = await pollFeeds(fetcher, site, undefined);
        answered();
        const baseline = applyObservation(undefined, observation, stamp());
        report({
          event: 'baseline',
          items: baseline.rss.items.length,
          urls: Object.keys(baseline.sitemap.entries).length,
        });
        if (options.triggerOnFirstRun) {
          const result = await fire([]);
          if (!result.ok) {
            failures += 1;
            const retryInMs = nextDelay(options.intervalMs, failures);
            report({
              event: 'trigger-failed',
              changes: 0,
              detail: `${describeTrigger(options.trigger)} failed: ${result.detail}`,
              retryInMs: options.once ? 0 : retryInMs,
            });
            if (options.once) {
              // The next run (with the flag or not) triggers: a state that knew no article sees every one as new
              // (found by a trial: a run without the flag recorded the baseline, and the build never came).
              await saveState(options.statePath, {
                ...baseline,
                rss: { items: [] },
                sitemap: { entries: {} },
              });
              return { outcome: 'trigger-failed', changes: [], detail: result.detail };
            }
            await pause(retryInMs, signal);
            continue;
          }
          report({ event: 'triggered', changes: 0, detail: result.detail });
          state = applyObservation(undefined, observation, { ...stamp(), triggered: { changes: 0 } });
        } else {
          state = baseline;
        }
        await saveState(options.statePath, state);
        failures = 0;
        if (options.once) return { outcome: 'baseline', triggered: options.triggerOnFirstRun };
      } else {
        let observation = await pollFeeds(fetcher, site, state);
        assertPlausible(site, options.statePath, state, observation);
        answered();
        let changes = detectChanges(state, observation);
        if (changes.length > 0 && options.debounceMs > 0 && !options.once) {
          // A burst (several articles published within minutes) becomes one trigger: wait, then poll again
          // against the same committed state so the trigger covers everything that arrived meanwhile.
          report({ event: 'debounce', waitMs: options.debounceMs });
          await pause(options.debounceMs, signal);
          if (signal.aborted) break;
          observation = await pollFeeds(fetcher, site, state);
          assertPlausible(site, options.statePath, state, observation);
          changes = detectChanges(state, observation);
        }
        if (changes.length === 0) {
          report({
            event: 'unchanged',
            notModified: { rss: observation.rss.notModified, sitemap: observation.sitemap.notModified },
          });
          // New validators or aged-out items only: safe to remember, nothing to build.
          if (observationDiffers(state, observation)) {
            state = applyObservation(state, observation, stamp());
            await saveState(options.statePath, state);
          }
          failures = 0;
          if (options.once) return { outcome: 'unchanged' };
        } else {
          report({ event: 'changes', changes, summary: changes.map(describeChange) });
          const result = await fire(changes);
          if (result.ok) {
            state = applyObservation(state, observation, { ...stamp(), triggered: { changes: changes.length } });
            await saveState(options.statePath, state);
            failures = 0;
            report({ event: 'triggered', changes: changes.length, detail: result.detail });
            if (options.once) return { outcome: 'triggered', changes };
          } else {
            // Not committed: the next poll sees the same changes again and retries.
            failures += 1;
            const retryInMs = nextDelay(options.intervalMs, failures);
            report({
              event: 'trigger-failed',
              changes: changes.length,
              detail: `${describeTrigger(options.trigger)} failed: ${result.detail}`,
              retryInMs: options.once ? 0 : retryInMs,
            });
            if (options.once) return { outcome: 'trigger-failed', changes, detail: result.detail };
            await pause(retryInMs, signal);
            continue;
          }
        }
      }
    } catch (error) {
      if (options.once) throw error;
      failures += 1;
      const retryInMs = nextDelay(options.intervalMs, failures);
      outage = { failedPolls: (outage?.failedPolls ?? 0) + 1, since: outage?.since ?? new Date() };
      report({ event: 'upstream-error', ...failureOf(error), retryInMs, failedPolls: outage.failedPolls });
      await pause(retryInMs, signal);
      continue;
    }
    await pause(options.intervalMs, signal);
  }
  report({ event: 'stopped' });
  return undefined;
}
