/**
 * In-process copies that an invalidation by tag must drop besides the route cache's: the live loader's answers
 * and lists, the on-demand feed routes' upstream copies. Without this, a page re-rendered after
 * `cache.invalidate({ tags })` would be rendered again from the same copy it was cached from.
 *
 * The registry lives on `globalThis` (under a registered symbol): the live loader (bundled from the user's
 * `live.config.ts`) and the injected endpoint may reach this module through two copies of the package. It holds
 * its listeners weakly: a listener is kept alive by its owner (a feed cache, a live loader) and leaves the
 * registry with it. Held strongly from `globalThis`, a listener (and what its closure holds: a live loader's
 * answers and lists) outlived its owner: the registry gained one per build in one process (a script, a test
 * run: 6 after 6 builds) and one per evaluation of `live.config.ts` in `astro dev`, and never lost any.
 */

import { processRecord } from './process-record.js';

/** Told the tags of an invalidation; may return the work it started (the live loader's new list), which is awaited. */
export type InvalidationListener = (tags: ReadonlySet<string>) => void | Promise<unknown>;

function listeners(): Set<WeakRef<InvalidationListener>> {
  return processRecord('local-invalidation', () => new Set<WeakRef<InvalidationListener>>());
}

// Each owner keeps its listeners alive (a WeakMap's value lives as long as its key), nothing else does.
const owned = new WeakMap<object, InvalidationListener[]>();

/** Calls `listener` with the tags of every later invalidation in this process, for as long as `owner` lives. */
export function onLocalInvalidation(owner: object, listener: InvalidationListener): void {
  owned.set(owner, [...(owned.get(owner) ?? []), listener]);
  const registry = listeners();
  for (const ref of registry) if (ref.deref() === undefined) registry.delete(ref);
  registry.add(new WeakRef(listener));
}

/**
 * Tells every listener of this process that these tags were invalidated; resolves when the work they started is
 * done (failed or not): the endpoint answers after it, so that what is rendered next reads the new state.
 */
export async function invalidateLocally(tags: Iterable<string>): Promise<void> {
  const set = new Set(tags);
  if (set.size === 0) return;
  const registry = listeners();
  const started: Array<Promise<unknown>> = [];
  for (const ref of [...registry]) {
    const listener = ref.deref();
    if (!listener) {
      registry.delete(ref);
      continue;
    }
    const work = listener(set);
    if (work) started.push(work);
  }
  await Promise.allSettled(started);
}
