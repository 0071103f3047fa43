import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOutage, staleMessage } from './last-good.js';

// The files of last-good.ts's copies: used at build time only, in Node (the feed route loads this module only
// when a static build gave it a directory).

/** Where the copies live, beside the loaders' other files in cacheDir. */
export function lastGoodDir(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'astro-content-publisher', 'feeds');
}

function fileOf(dir: string, url: string): string {
  return join(dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.xml`);
}

/** Keeps `body` as the last good copy of `url` (written whole, then renamed: a killed build leaves the old one). */
export function keepLastGood(dir: string, url: string, body: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const file = fileOf(dir, url);
    writeFileSync(`${file}.tmp`, body, 'utf8');
    renameSync(`${file}.tmp`, file);
  } catch {
    // Without a copy the next build fails on an outage, as it did before: never wrong.
  }
}

/** The last good copy of `url` and when it was kept, if a build kept one. */
export function readLastGood(dir: string, url: string): { body: string; keptAt: Date } | undefined {
  const file = fileOf(dir, url);
  try {
    return { body: readFileSync(file, 'utf8'), keptAt: statSync(file).mtime };
  } catch {
    return undefined;
  }
}

/**
 * The copy of `url` an earlier build kept, when `error` is an outage (last-good.ts) and there is one, with the
 * notice that says so (the failure and the copy's date); undefined otherwise, and the failure stands.
 */
export function copyOnOutage(dir: string, url: string, error: unknown): { body: string; notice: string } | undefined {
  if (!isOutage(error)) return undefined;
  const copy = readLastGood(dir, url);
  return copy && { body: copy.body, notice: staleMessage(error, copy.keptAt) };
}

/**
 * The body of `url` from `fetchBody`, or on an outage the copy an earlier build kept (`onStale` told the
 * failure and the copy's age); without a copy the failure is thrown. The caller keeps a fresh body with
 * `keepLastGood` once it was used: a body that failed to parse is never kept.
 */
export async function bodyOrLastGood(
  dir: string | undefined,
  url: string,
  fetchBody: () => Promise<string>,
  onStale: (message: string) => void,
): Promise<{ body: string; fresh: boolean }> {
  try {
    return { body: await fetchBody(), fresh: true };
  } catch (error) {
    const copy = dir === undefined ? undefined : copyOnOutage(dir, url, error);
    if (copy === undefined) throw error;
    onStale(copy.notice);
    return { body: copy.body, fresh: false };
  }
}

/** How long a copy that no build kept again stays: a month of builds that did not need it. */
export const LAST_GOOD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Removes the copies no build kept for `maxAgeMs` (of documents no longer fetched: a sitemap part whose URL
 * changed, a feed turned off) and the temporary files a killed build left. Returns how many were removed.
 */
export function pruneLastGood(dir: string, now = Date.now(), maxAgeMs = LAST_GOOD_MAX_AGE_MS): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^[0-9a-f]{32}\.xml(?:\.tmp)?$/.test(name)) continue;
    const file = join(dir, name);
    try {
      const age = now - statSync(file).mtimeMs;
      if (age > (name.endsWith('.tmp') ? 60 * 60 * 1000 : maxAgeMs)) {
        rmSync(file, { force: true });
        removed += 1;
      }
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
  return removed;
}
