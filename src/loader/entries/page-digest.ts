import type { LoaderContext } from 'astro/loaders';
import { stableStringify } from '../state/fingerprint.js';

/**
 * The entry's `digest`: changes exactly when what an article's page shows changes (its fields and its HTML),
 * so that `cacheKey: entry.digest` lets Astro's incremental builds skip every other page. The view count is
 * left out: it moves on every read of the article, without the article changing (a page that shows it
 * should add `entry.data.viewCount` to its own cacheKey).
 */
export function pageDigest(
  ctx: Pick<LoaderContext, 'generateDigest'>,
  data: Record<string, unknown>,
  html: string,
): string {
  const { viewCount: _viewCount, ...shown } = data;
  return ctx.generateDigest(stableStringify({ data: shown, html }));
}

type Store = LoaderContext['store'];
type Entry = Parameters<Store['set']>[0];

/**
 * Writes an entry whose digest did not change but whose data did (the view count): Astro's `store.set`
 * ignores an entry with the same digest, so the old one is removed first.
 */
export function setSameDigest(store: Store, entry: Entry): void {
  store.delete(entry.id);
  store.set(entry);
}

/**
 * One cacheKey for a page that lists several entries (a list, a tag or language page): their digests, hashed.
 * A missing entry (`undefined` or `null`: the first article has no previous one in
 * `listCacheKey([entry, previous, next])`) counts as an empty place, so the key still tells which one is missing.
 */
export function listCacheKey(
  entries: ReadonlyArray<{ id: string; digest?: string | number | undefined } | undefined | null>,
): string {
  const text = stableStringify(entries.map((entry) => (entry == null ? null : [entry.id, entry.digest ?? ''])));
  return `${entries.length}:${hashText(text)}`;
}

function hashText(text: string): string {
  // FNV-1a, 52 bits: a cache key, not a security boundary; keeps this helper free of node:crypto for any runtime.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(36) + h2.toString(36);
}
