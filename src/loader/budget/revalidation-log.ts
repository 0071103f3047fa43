import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecords, writeRecords } from '../state/cache-file.js';
import { shortHash } from '../state/fingerprint.js';

/**
 * When the loaders on one service and key revalidated (or retried a detail that answered another language) in
 * the last hour: they spend one share of the hourly window between them (budget.ts revalidationSlots), not one
 * each (a blog with one loader per language spent four shares). Kept beside the image cache in Astro's
 * cacheDir, read and written by each loader on its turn (the loaders of a key take turns, ledger.ts), by builds
 * and by `astro dev` alike: the window is the key's, whoever spends it. The key is hashed.
 */
const HOUR_MS = 3_600_000;

function logFile(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'astro-content-publisher', 'revalidations.json');
}

function keyOf(baseUrl: string, apiKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${shortHash(apiKey)}`;
}

const isTimes = (value: unknown): value is number[] => Array.isArray(value);

/**
 * The key's revalidation times of the last hour (ms since epoch), or undefined where there is no log to read
 * (no cacheDir, or none written yet): the loader then counts its own, kept in its state.
 */
export function sharedRevalidations(
  cacheDir: URL | undefined,
  baseUrl: string,
  apiKey: string,
  now: number,
): number[] | undefined {
  if (!cacheDir) return undefined;
  const times = readRecords(logFile(cacheDir), isTimes)[keyOf(baseUrl, apiKey)];
  if (!Array.isArray(times)) return undefined;
  return times.filter((t) => typeof t === 'number' && now - t < HOUR_MS);
}

/** Writes the key's revalidation times (the last hour's); a log that cannot be written is a log not shared. */
export function recordRevalidations(
  cacheDir: URL | undefined,
  baseUrl: string,
  apiKey: string,
  times: readonly number[],
  now: number,
): void {
  if (!cacheDir) return;
  const file = logFile(cacheDir);
  const log = readRecords(file, isTimes);
  for (const [key, list] of Object.entries(log)) {
    const kept = list.filter((t) => now - t < HOUR_MS);
    if (kept.length) log[key] = kept;
    else delete log[key];
  }
  log[keyOf(baseUrl, apiKey)] = times.filter((t) => now - t < HOUR_MS);
  // Unwritten, each loader still counts its own (its state): the shares are not pooled until it can be written.
  writeRecords(file, log);
}
