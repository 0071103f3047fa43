// What the image cache may delete at the end of a build: the copies that no collection's stored entries name.
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords, writeRecords } from '../state/cache-file.js';
import { readFreshness, writeFreshness } from './image-freshness.js';

/** The files each collection's entries named at the end of its last build, beside the copies (collection -> record). */
const NAMED_FILE = 'named.json';
/** A collection not built for this long (removed from the config, say) no longer keeps its files. */
const RECORD_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

export interface NamedRecord {
  /** When (ms) the collection's build recorded it. */
  at: number;
  names: string[];
}

const isNamedRecord = (value: unknown): value is NamedRecord =>
  typeof (value as NamedRecord | null)?.at === 'number' &&
  Array.isArray((value as NamedRecord).names) &&
  (value as NamedRecord).names.every((n) => typeof n === 'string');

/**
 * Which cached copies go (pure): a copy (`isCopy`) that no record names and that nothing wrote or used since
 * `since` (the build's start: another loader of this build, or another process, may be about to name it).
 */
export function copiesToRemove(
  files: ReadonlyArray<{ name: string; mtimeMs: number }>,
  records: Readonly<Record<string, NamedRecord>>,
  since: number,
  isCopy: (name: string) => boolean,
): string[] {
  const keep = new Set(Object.values(records).flatMap((r) => r.names));
  return files.filter((f) => isCopy(f.name) && !keep.has(f.name) && f.mtimeMs < since).map((f) => f.name);
}

/**
 * Records that `collection`'s entries name `named` (dropping the records of collections not built for 30 days),
 * then deletes from `dir` the copies no record names, and their freshness records. Returns what was deleted. Synchronous: it runs once, as
 * the build's image step finishes, where nothing waits on it; a file that cannot be deleted is left for the
 * next build.
 */
export function pruneCopies(
  dir: string,
  collection: string,
  named: ReadonlySet<string>,
  since: number,
  isCopy: (name: string) => boolean,
): Array<{ name: string; size: number }> {
  const now = Date.now();
  const file = join(dir, NAMED_FILE);
  const records = Object.fromEntries(
    Object.entries(readRecords(file, isNamedRecord)).filter(([, r]) => now - r.at < RECORD_MAX_AGE_MS),
  );
  records[collection] = { at: now, names: [...named].sort() };
  // Without the record another collection's build could delete this one's copies: then delete nothing.
  if (!writeRecords(file, records)) return [];
  const files: Array<{ name: string; mtimeMs: number; size: number }> = [];
  for (const name of safeList(dir)) {
    if (!isCopy(name)) continue;
    try {
      const { mtimeMs, size } = statSync(join(dir, name));
      files.push({ name, mtimeMs, size });
    } catch {
      // Gone meanwhile (another build pruned it).
    }
  }
  const removed: Array<{ name: string; size: number }> = [];
  const sizes = new Map(files.map((f) => [f.name, f.size]));
  const twin = earlierTwin(dir, files, new Set(Object.values(records).flatMap((r) => r.names)));
  for (const name of copiesToRemove(files, records, since, isCopy)) {
    if (twin(name)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push({ name, size: sizes.get(name) ?? 0 });
    } catch {
      // Left for the next build.
    }
  }
  // And what the freshness records say of them: those files are no longer asked about.
  const gone = new Set(removed.map((r) => r.name));
  const freshness = readFreshness(dir);
  for (const [hash, record] of freshness) if (gone.has(record.name)) freshness.delete(hash);
  if (removed.length) writeFreshness(dir, freshness);
  return removed;
}

/**
 * Whether an unnamed copy has the bytes of a named one and sorts before it. Vite writes equal bytes once, named
 * after the source that sorts first, and a page an incremental build keeps may name that file after the
 * unnamed copy; the end-of-build asset pass (integration/build/kept-assets.ts) then copies it from this folder. Only
 * files of equal size and extension are read.
 */
function earlierTwin(
  dir: string,
  files: ReadonlyArray<{ name: string; size: number }>,
  named: ReadonlySet<string>,
): (name: string) => boolean {
  const key = (f: { name: string; size: number }) => `${f.size}${f.name.slice(f.name.lastIndexOf('.'))}`;
  const namedBySize = new Map<string, string[]>();
  for (const f of files) if (named.has(f.name)) namedBySize.set(key(f), [...(namedBySize.get(key(f)) ?? []), f.name]);
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name));
    } catch {
      return undefined;
    }
  };
  return (name) => {
    const file = files.find((f) => f.name === name);
    const later = file ? (namedBySize.get(key(file)) ?? []).filter((n) => n > name) : [];
    if (later.length === 0) return false;
    const bytes = read(name);
    return bytes !== undefined && later.some((n) => read(n)?.equals(bytes));
  };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
