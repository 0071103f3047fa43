import { knownRemaining } from './rate-window.js';
import { shortHash } from '../state/fingerprint.js';

/**
 * One budget per API key across every loader of a build. The hourly limit is per user, and Astro runs the
 * loaders of a build side by side in one process, in any order: each loader alone would plan with the
 * remaining count it saw, and together they would spend it several times over. So the loaders that use the
 * same service and key take turns for their authenticated requests: each starts from what the previous one
 * left (rate-window.ts), never goes below its reserve, and the public feeds it reads are part of its turn.
 * Kept in memory only, per process; the key is hashed.
 */
const turns = new Map<string, Promise<unknown>>();
/**
 * What a turn may spend: `one` request (the data loaders), or a `share` of what the window has left (an articles
 * loader, whose cold build could take it all).
 */
export type TurnNeed = 'one' | 'share';
/** Turns queued or running per key (the running one included), by need. */
const queued = new Map<string, Record<TurnNeed, number>>();
/** When the turns running per key began: the first turn queued while none was (one build's loaders, one refresh). */
const rounds = new Map<string, number>();

function ledgerKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${shortHash(apiKey)}`;
}

/**
 * Runs `spend` when the loaders before it on this service and key have finished theirs and `ready` (the loader's
 * own preparation, such as seeding its store) has settled. Call it before anything is awaited in the loader: the
 * loader joins the queue, and the round, at once, so a loader still preparing is counted by those ahead of it
 * (`waitingBehind`) and belongs to their round (`roundStartedAt`) however long its preparation takes.
 */
export function takeTurn<T>(
  baseUrl: string,
  apiKey: string,
  spend: () => Promise<T>,
  need: TurnNeed = 'share',
  ready: Promise<unknown> = Promise.resolve(),
): Promise<T> {
  const key = ledgerKey(baseUrl, apiKey);
  const before = Promise.allSettled([turns.get(key), ready]);
  const counts = queued.get(key) ?? { one: 0, share: 0 };
  if (!queued.has(key)) rounds.set(key, Date.now());
  counts[need] += 1;
  queued.set(key, counts);
  const done = () => {
    counts[need] -= 1;
    if (counts.one + counts.share === 0 && queued.get(key) === counts) queued.delete(key);
  };
  const mine = before.then(spend, spend).finally(done);
  // The chain only orders turns: a failed turn must not fail the next loader.
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(key, settled);
  void settled.then(() => {
    if (turns.get(key) === settled) turns.delete(key);
  });
  return mine;
}

/**
 * When the round of turns on this service and key began (called during a turn): the loaders of one build queue
 * together; a later refresh starts a new round. Undefined outside any turn.
 */
export function roundStartedAt(baseUrl: string, apiKey: string): number | undefined {
  const key = ledgerKey(baseUrl, apiKey);
  return queued.has(key) ? rounds.get(key) : undefined;
}

/**
 * The loaders of this service and key waiting behind the articles loader whose turn it is (called during its
 * turn): how many take a share, how many one request each.
 */
export function waitingBehind(baseUrl: string, apiKey: string): { shares: number; singles: number } {
  const counts = queued.get(ledgerKey(baseUrl, apiKey));
  return { shares: Math.max(0, (counts?.share ?? 1) - 1), singles: counts?.one ?? 0 };
}

/**
 * Requests a loader may still send before its first one, from what the loaders before it saw: undefined when
 * nothing is known yet (the first loader of the build learns it from its first response).
 */
export function availableBeforeStart(baseUrl: string, apiKey: string, reserve: number): number | undefined {
  const remaining = knownRemaining(baseUrl, apiKey);
  return remaining === undefined ? undefined : Math.max(0, remaining - reserve);
}
