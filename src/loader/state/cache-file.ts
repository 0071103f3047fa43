import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The small JSON files the loaders keep in Astro's cacheDir (the shared revalidation log, the last rate window,
 * the image copies' freshness): one object of records by key, read whole and written whole.
 */

/** The records of `file` that `isRecord` accepts; a missing, unreadable or malformed file has none. */
export function readRecords<T>(file: string, isRecord: (value: unknown) => value is T): Record<string, T> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, value]) => isRecord(value))) as Record<string, T>;
  } catch {
    return {};
  }
}

/**
 * Writes `records` to `file`, whole or not at all (a half-written file would read as none): false when the
 * folder cannot be written, which each caller treats as nothing kept.
 */
export function writeRecords(file: string, records: Record<string, unknown>): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(records));
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}
