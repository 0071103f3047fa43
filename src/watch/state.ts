/**
 * The watcher's memory between polls and between runs: the feeds' validators (for conditional requests),
 * what the feeds held at the last successful trigger, and when that was. It is written atomically (temp
 * file + rename, so a crash leaves the old file or the new one, never half of one) and only after a
 * trigger succeeded (or when the first baseline is recorded): a failed trigger or a crash never loses a
 * change, and a restart never triggers twice for the same change.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { feedValidatorsSchema } from '../client/public-feed.js';

export const feedItemRecordSchema = z.object({
  guid: z.string(),
  pubDate: z.string().optional(),
  /** sha256 of what a reader sees of the item (title, link, description, content). */
  digest: z.string(),
  title: z.string().optional(),
});
export type FeedItemRecord = z.infer<typeof feedItemRecordSchema>;

const validatorsShape = feedValidatorsSchema.shape;

export const watchStateSchema = z.object({
  version: z.literal(1),
  site: z.number().int(),
  baseUrl: z.string(),
  rss: z.object({ ...validatorsShape, items: z.array(feedItemRecordSchema) }),
  /** Sitemap `loc` -> `lastmod` (`''` when the entry has none). */
  sitemap: z.object({ ...validatorsShape, entries: z.record(z.string(), z.string()) }),
  lastTrigger: z.object({ at: z.string(), changes: z.number().int() }).optional(),
  savedAt: z.string(),
});
export type WatchState = z.infer<typeof watchStateSchema>;

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

/** The default state file: one per site, in the working directory (what a CI cache step keeps). */
export function defaultStatePath(site: number): string {
  return resolve(`.content-publisher-watch-${site}.json`);
}

/** Reads the state; `undefined` when the file does not exist yet (first run). */
export async function loadState(
  file: string,
  expected: { site: number; baseUrl: string },
): Promise<WatchState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`Cannot read the watch state file ${file}: ${(error as Error).message}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = watchStateSchema.safeParse(json);
  // A corrupt file is an error, not a silent new baseline: a new baseline would swallow pending changes.
  if (!parsed.success) {
    throw new StateFileError(
      `The watch state file ${file} is not valid. Delete it to record a new baseline (the next run will not trigger).`,
    );
  }
  const state = parsed.data;
  if (state.site !== expected.site || state.baseUrl !== expected.baseUrl) {
    throw new StateFileError(
      `The watch state file ${file} belongs to site ${state.site} at ${state.baseUrl}, not site ${expected.site} at ${expected.baseUrl}. Use --state <another file> per site.`,
    );
  }
  return state;
}

/** Writes the state atomically: a temp file in the same directory, then a rename over the old one. */
export async function saveState(file: string, state: WatchState): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
