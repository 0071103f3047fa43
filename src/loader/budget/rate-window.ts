import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RateLimitState } from '../../client/index.js';
import { readRecords, writeRecords } from '../state/cache-file.js';
import { shortHash } from '../state/fingerprint.js';
import { processRecord } from '../process/process-record.js';

/**
 * The last X-RateLimit-Remaining seen by any loader of this process, per service and key. The limit is per
 * user (all tokens) and Astro runs the loaders of one build side by side in one process: a loader that sends
 * a single request (keywords, digest) reads what the others saw, to leave the reserve alone without having
 * to spend a request to find out. Kept in memory, and in cacheDir between builds (`restoreWindow`,
 * `saveWindow`): each build is a new process, and one that knew nothing sent its list call into the reserve,
 * one request more on every build. The key is hashed (never kept as such).
 */
interface Seen {
  remaining: number;
  /** When the value stops meaning anything (ms since epoch): the window's reset, else an hour after it was seen. */
  expires: number;
  /** When it was seen (ms since epoch). */
  seenAt: number;
}

// On globalThis: the integration (dev refresh) and the loaders may load this module as separate instances.
/** The service's window slides over one hour (API.md, Limits). */
const HOUR_MS = 3_600_000;

const lastSeen = processRecord('rate-window', () => new Map<string, Seen>());

function windowKey(baseUrl: string, apiKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${shortHash(apiKey)}`;
}

/** Records what a loader's client saw (nothing when the service sent no rate-limit headers). */
export function recordRemaining(
  baseUrl: string,
  apiKey: string,
  rateLimit: RateLimitState | undefined,
  now = Date.now(),
): void {
  if (!rateLimit) return;
  // The client read X-RateLimit-Reset in whatever form it came (rate-limit.ts); a window never outlasts the hour
  // it slides over, whatever a saved or misread reset says.
  const expires = Math.min(rateLimit.reset > 0 ? rateLimit.reset * 1000 : now + HOUR_MS, now + HOUR_MS);
  lastSeen.set(windowKey(baseUrl, apiKey), { remaining: rateLimit.remaining, expires, seenAt: now });
}

/** The last remaining count seen for this service and key, while it still describes the current window. */
export function knownRemaining(baseUrl: string, apiKey: string, now = Date.now()): number | undefined {
  const seen = lastSeen.get(windowKey(baseUrl, apiKey));
  if (!seen) return undefined;
  if (now >= seen.expires) {
    lastSeen.delete(windowKey(baseUrl, apiKey));
    return undefined;
  }
  return seen.remaining;
}

/** What the loaders last saw of a service's window: the lowest count over its keys, with its reset. */
export interface KnownWindow {
  remaining: number;
  /** When that count stops meaning anything (the service's X-RateLimit-Reset), ms since epoch. */
  resetAt: number;
  /** When it was seen, ms since epoch. */
  seenAt: number;
}

function ofOrigin(key: string, origin: string): boolean {
  const prefix = origin.replace(/\/+$/, '');
  return key.startsWith(prefix) && '|/'.includes(key.charAt(prefix.length));
}

/** The lowest remaining count seen for this service (its origin) with any key: the dev refresh holds no key. */
export function lowestKnownWindow(origin: string, now = Date.now()): KnownWindow | undefined {
  let lowest: KnownWindow | undefined;
  for (const [key, seen] of lastSeen) {
    if (!ofOrigin(key, origin) || now >= seen.expires) continue;
    if (lowest === undefined || seen.remaining < lowest.remaining)
      lowest = { remaining: seen.remaining, resetAt: seen.expires, seenAt: seen.seenAt };
  }
  return lowest;
}

/**
 * Forgets what was seen of this service's window, so that the next loader asks the service again. For a
 * long-lived process (astro dev) whose memory may be wrong: the window was cleared before its reset (a plan
 * upgrade; the simulator's reset).
 */
export function forgetWindow(origin: string, now = Date.now()): void {
  for (const key of [...lastSeen.keys()]) if (ofOrigin(key, origin)) lastSeen.delete(key);
  // What cacheDir holds was seen before now: not restored (restoreWindow), or the service is never asked.
  forgotten.set(origin.replace(/\/+$/, ''), now);
}

/** When each service's window was last forgotten (forgetWindow), by origin. */
const forgotten = processRecord('rate-window-forgotten', () => new Map<string, number>());

function forgottenAt(key: string): number {
  let at = 0;
  for (const [origin, time] of forgotten) if (ofOrigin(key, origin)) at = Math.max(at, time);
  return at;
}

/**
 * Where the loaders of earlier builds (and `astro dev`) left what they saw: beside the image cache in cacheDir.
 * Its path is in a message that can fail the build: not "window" (nor "document"), which makes Astro replace
 * the error's hint with "Browser APIs are not available on the server" (generateHint in astro/core/errors).
 */
function windowFile(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'astro-content-publisher', 'rate-limit.json');
}

function isSeen(value: unknown): value is Seen {
  const seen = value as Partial<Seen> | null;
  return (
    typeof seen === 'object' &&
    seen !== null &&
    typeof seen.remaining === 'number' &&
    typeof seen.expires === 'number' &&
    typeof seen.seenAt === 'number'
  );
}

/**
 * What an earlier process saw of this key's window, while it still describes the current one, when this
 * process saw nothing later: a build that starts at the reserve then keeps its store instead of listing.
 * Returns, when it restored something, a clause for the warning that names where the count came from.
 */
export function restoreWindow(
  cacheDir: URL | undefined,
  baseUrl: string,
  apiKey: string,
  now = Date.now(),
): string | undefined {
  if (!cacheDir) return undefined;
  const key = windowKey(baseUrl, apiKey);
  const file = windowFile(cacheDir);
  const saved = readRecords(file, isSeen)[key];
  if (!saved || now >= saved.expires || saved.seenAt <= forgottenAt(key)) return undefined;
  // A file an older version wrote may hold a reset read in the wrong unit: no window outlasts the hour.
  saved.expires = Math.min(saved.expires, saved.seenAt + HOUR_MS, now + HOUR_MS);
  if (now >= saved.expires) return undefined;
  const mine = lastSeen.get(key);
  if (mine && saved.seenAt <= mine.seenAt) return undefined;
  lastSeen.set(key, saved);
  return `what an earlier build saw of this hour's rate limit, which holds until ${new Date(saved.expires).toISOString().slice(11, 16)} UTC; after a plan upgrade, delete ${file} to ask the service now`;
}

/** Keeps what this process last saw of the key's window for the next one (a file that cannot be written: not kept). */
export function saveWindow(cacheDir: URL | undefined, baseUrl: string, apiKey: string, now = Date.now()): void {
  const key = windowKey(baseUrl, apiKey);
  const seen = lastSeen.get(key);
  if (!cacheDir || !seen) return;
  const file = windowFile(cacheDir);
  const windows = Object.fromEntries(
    Object.entries(readRecords(file, isSeen)).filter(([other, value]) => other !== key && now < value.expires),
  );
  // Unwritable cacheDir: the next build learns the window from its first response, as before.
  writeRecords(file, { ...windows, [key]: seen });
}
