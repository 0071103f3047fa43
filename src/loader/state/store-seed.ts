import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { parse } from 'devalue';
import { shortHash } from './fingerprint.js';

/**
 * `astro dev` and `astro build` keep separate data stores: dev in `<root>/.astro/`, builds in `cacheDir`
 * (by default `node_modules/.astro/`). Without this, the first `astro dev` after a build fetched every
 * article again (and showed none with a small budget left), and the first build after a dev session did the
 * same. So a loader whose collection is empty in its own store starts from the other command's copy of the
 * same collection: its entries as they were stored, and its `meta` (the sync state, the image index), then
 * syncs as usual (one list call when nothing changed). Images need nothing: their cache is in cacheDir for
 * both commands.
 *
 * The other store is read in Astro's own format (devalue, one file or the chunked directory of
 * `experimental.collectionStorage`), and only when it was written by this version of Astro (Astro itself
 * drops a store of another version) for the same service and site: `astro dev` against the simulator must
 * never hand its articles to a production build.
 */

/** The collection meta key naming where the collection's content came from (a hash of service and site). */
const SOURCE_KEY = 'astro-content-publisher:source';

/**
 * Where a loader's content comes from: the service's address, the site and the loader's key (its filters: a
 * collection whose `language` changed must not start from the other language's entries), hashed: no URL kept
 * as such.
 */
export function contentSource(baseUrl: string, siteId: number, key = ''): string {
  return shortHash(`${baseUrl.replace(/\/+$/, '')}|${siteId}|${key}`);
}

const ASTRO_VERSION: string | undefined = (() => {
  try {
    return (createRequire(import.meta.url)('astro/package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
})();

type Collection = Map<string, unknown>;

/**
 * Where an empty collection may start from, in order: this command's own store file, which still holds what the
 * last run stored when Astro has just cleared the store in memory (after a change of the Astro or content
 * config: a new image setting, a schema edit) and not yet written it; then the other command's store (dev reads
 * the builds', in cacheDir; a build reads dev's).
 */
function seedDirs(ctx: LoaderContext): Array<{ dir: URL; by: string }> {
  const { config } = ctx;
  if (!config?.root || !config.cacheDir) return [];
  const builds = new URL('./', config.cacheDir);
  const dev = new URL('.astro/', config.root);
  // Astro gives loaders a watcher only under `astro dev`.
  return ctx.watcher
    ? [
        { dir: dev, by: 'the last astro dev' },
        { dir: builds, by: 'astro build' },
      ]
    : [
        { dir: builds, by: 'the last build' },
        { dir: dev, by: 'astro dev' },
      ];
}

function isCollection(value: unknown): value is Collection {
  return value instanceof Map;
}

/** The named collections of a store directory, or undefined when it has no store or cannot be read. */
async function readCollections(dir: URL, names: string[]): Promise<Map<string, Collection> | undefined> {
  const chunked = new URL('data-store/manifest.json', dir);
  if (existsSync(chunked)) {
    const manifest = JSON.parse(await readFile(chunked, 'utf8')) as Record<string, unknown>;
    const collections = new Map<string, Collection>();
    for (const name of names) {
      const files = manifest[name];
      if (!Array.isArray(files)) continue;
      const entries: Collection = new Map();
      for (const file of files) {
        if (typeof file !== 'string' || file.includes('/') || file.includes('\\')) return undefined;
        for (const line of (await readFile(new URL(`data-store/${file}`, dir), 'utf8')).split('\n')) {
          if (line === '') continue;
          const record = parse(line) as unknown;
          if (!Array.isArray(record) || typeof record[0] !== 'string') return undefined;
          entries.set(record[0], record[1]);
        }
      }
      collections.set(name, entries);
    }
    return collections;
  }
  const single = new URL('data-store.json', dir);
  if (!existsSync(single)) return undefined;
  const all = parse(await readFile(single, 'utf8')) as unknown;
  if (!(all instanceof Map)) return undefined;
  return new Map(
    names.filter((name) => isCollection(all.get(name))).map((name) => [name, all.get(name) as Collection]),
  );
}

/** An entry as Astro stored it, passed back to `store.set` as it is (its data was parsed when it was stored). */
function isStoredEntry(id: string, value: unknown): value is Parameters<LoaderContext['store']['set']>[0] {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as { id?: unknown; data?: unknown };
  return entry.id === id && typeof entry.data === 'object' && entry.data !== null;
}

/**
 * Fills an empty collection from the other command's store. Returns how many entries were copied (0: the
 * collection held something already, or there was nothing usable to copy). Never throws: an unreadable store
 * is a store that is not there, and the loader then syncs as on a first build.
 */
export async function seedFromOtherStore(
  ctx: LoaderContext,
  source: string,
): Promise<{ entries: number; from?: string; by?: string }> {
  if (ctx.store.keys().length > 0) return { entries: 0 };
  for (const { dir, by } of seedDirs(ctx)) {
    const seeded = await seedFrom(ctx, source, dir);
    if (seeded.entries > 0) return { ...seeded, by };
  }
  return { entries: 0 };
}

/** `seedFromOtherStore` from one store directory. */
async function seedFrom(ctx: LoaderContext, source: string, dir: URL): Promise<{ entries: number; from?: string }> {
  const metaName = `meta:${ctx.collection}`;
  let other: Map<string, Collection> | undefined;
  try {
    other = await readCollections(dir, [ctx.collection, metaName, 'meta::meta']);
  } catch (error) {
    ctx.logger.debug(
      `Could not read the store at ${fileURLToPath(dir)}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { entries: 0 };
  }
  if (!other || other.get('meta::meta')?.get('astro-version') !== ASTRO_VERSION) return { entries: 0 };
  if (other.get(metaName)?.get(SOURCE_KEY) !== source) return { entries: 0 };
  const entries = [...(other.get(ctx.collection) ?? new Map<string, unknown>())].filter(([id, value]) =>
    isStoredEntry(id, value),
  );
  if (entries.length === 0) return { entries: 0 };
  for (const [, entry] of entries) ctx.store.set(entry as Parameters<LoaderContext['store']['set']>[0]);
  for (const [key, value] of other.get(metaName) ?? []) if (typeof value === 'string') ctx.meta.set(key, value);
  return { entries: entries.length, from: fileURLToPath(dir) };
}

/**
 * `seedFromOtherStore`, with one log line when it copied something; then the collection is marked as coming
 * from `source`, for the other command to check.
 */
export async function startFromOtherStore(ctx: LoaderContext, source: string): Promise<number> {
  const seeded = await seedFromOtherStore(ctx, source);
  ctx.meta.set(SOURCE_KEY, source);
  if (seeded.entries === 0) return 0;
  ctx.logger.info(
    `Started from the ${seeded.entries} entr${seeded.entries === 1 ? 'y' : 'ies'} that ${seeded.by} stored (${seeded.from}); syncing from there.`,
  );
  return seeded.entries;
}
