import { knownRemaining } from './rate-window.js';
import { shortHash } from './fingerprint.js';

/**
 * One budget per API key across every loader of a build. The hourly limit is per user, and Astro runs the
 * loaders of a build side by side in one process, in any order: each loader alone would plan with the
 * remaining count it saw, and together they would spend it several times over. So the loaders that use the
 * same service and key take turns for their authenticated requests: each starts from what the previous one
 * left (rate-window.ts), never goes below its reserve, and the public feeds it reads are part of its turn.
 * Kept in memory only, per process; the key is hashed.
 */
const turns = new Map<string, Promise<unknown>>();

function ledgerKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${shortHash(apiKey)}`;
}

/** Runs `spend` when the loaders before it on this service and key have finished theirs. */
export function takeTurn<T>(baseUrl: string, apiKey: string, spend: () => Promise<T>): Promise<T> {
  const key = ledgerKey(baseUrl, apiKey);
  const before = turns.get(key) ?? Promise.resolve();
  const mine = before.then(spend, spend);
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
 * Requests a loader may still send before its first one, from what the loaders before it saw: undefined when
 * nothing is known yet (the first loader of the build learns it from its first response).
 */
export function availableBeforeStart(baseUrl: string, apiKey: string, reserve: number): number | undefined {
  const remaining = knownRemaining(baseUrl, apiKey);
  return remaining === undefined ? undefined : Math.max(0, remaining - reserve);
}
