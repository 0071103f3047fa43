import type { LoaderContext } from 'astro/loaders';

/** How often the hold sets its key again: well under Astro's 500 ms save debounce. */
export const HOLD_EVERY_MS = 200;

/**
 * Astro writes its whole content store to disk 500 ms after the last change to it (a debounce: every change
 * starts the wait again), and a sync begins by changing the store itself (its version and config digests, the
 * same values every build). A warm build of this loader spends longer than that on the network (the list call,
 * the feeds, a changed article's detail), so Astro serialised the whole store in the middle of the loader's run
 * (devalue over every entry: 1.4 s at 10,000 articles here, with as much again in garbage collection), then
 * again at the end of the sync, when the loader's changes are in. While `load()` runs on a store it already
 * holds (its state is in the meta store), this sets that state again, unchanged, every 200 ms: the wait starts
 * again and the write happens once, at the end of the sync. A build killed meanwhile leaves the store of the
 * build before (what this one fetched is fetched again). A cold build, whose run is long and whose entries are
 * new, is not held: Astro's own timing keeps what it stored so far. Returns the release (also for errors).
 */
export function holdStoreWrites(meta: LoaderContext['meta'], stateKey: string): () => void {
  if (!meta.has(stateKey)) return () => undefined;
  const timer = setInterval(() => {
    const state = meta.get(stateKey);
    if (state !== undefined) meta.set(stateKey, state);
  }, HOLD_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
