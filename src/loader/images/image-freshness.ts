// How long an image copy may be used without asking its host again (RFC 9111), and the records of it the
// image cache keeps beside its copies between builds.
import { join } from 'node:path';
import { readRecords, writeRecords } from '../state/cache-file.js';

/** What the cache knows of each URL's copy, beside the copies (url hash -> record). */
const FRESHNESS_FILE = 'freshness.json';

/** How long a copy may be used without asking the image's host again, and how to ask (RFC 9111). */
export interface Freshness {
  /** The file this record is about. */
  name: string;
  /** Until when (ms) the copy is fresh. */
  until: number;
  /** When (ms) the host was last asked about it: the copies asked about longest ago go first. */
  checked?: number;
  etag?: string;
  lastModified?: string;
}

/**
 * Until when a response may be used without asking again, from its Cache-Control (`no-cache`/`no-store`: not
 * at all; `max-age`, less its `Age`), else its Expires, else a tenth of the time since its Last-Modified (the
 * usual heuristic), else not at all: a host that says nothing is asked again on every build.
 */
export function freshUntil(headers: Headers, now: number): number {
  const cacheControl = (headers.get('cache-control') ?? '').toLowerCase();
  if (/(?:^|,)\s*no-(?:cache|store)\b/.test(cacheControl)) return now;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/.exec(cacheControl);
  if (maxAge) return now + Math.max(0, Number(maxAge[1]) - (Number(headers.get('age')) || 0)) * 1000;
  const expires = Date.parse(headers.get('expires') ?? '');
  if (!Number.isNaN(expires)) return now + Math.max(0, expires - (Date.parse(headers.get('date') ?? '') || now));
  const lastModified = Date.parse(headers.get('last-modified') ?? '');
  if (!Number.isNaN(lastModified) && lastModified < now) return now + (now - lastModified) / 10;
  return now;
}

/**
 * The record of a copy of file `name` after its host answered with `headers` at `now`. Each validator of the
 * previous record of the same file stays unless the answer brings its own (a 304 need not repeat them).
 */
export function freshnessRecord(name: string, headers: Headers, now: number, previous?: Freshness): Freshness {
  const etag = headers.get('etag') || (previous?.name === name ? previous.etag : undefined);
  const lastModified = headers.get('last-modified') || (previous?.name === name ? previous.lastModified : undefined);
  return {
    name,
    until: freshUntil(headers, now),
    checked: now,
    ...(etag ? { etag } : {}),
    ...(lastModified ? { lastModified } : {}),
  };
}

const isFreshness = (value: unknown): value is Freshness =>
  typeof (value as Freshness | null)?.name === 'string' && typeof (value as Freshness).until === 'number';

/** The records kept in the cache directory `dir` (none when the file is missing or unreadable). */
export function readFreshness(dir: string): Map<string, Freshness> {
  return new Map(Object.entries(readRecords(join(dir, FRESHNESS_FILE), isFreshness)));
}

/** Writes the records into `dir`; false when they could not be written. */
export function writeFreshness(dir: string, records: ReadonlyMap<string, Freshness>): boolean {
  return writeRecords(join(dir, FRESHNESS_FILE), Object.fromEntries(records));
}
