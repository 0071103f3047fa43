/**
 * In-process copies that an invalidation by tag must drop besides the route cache's: the live loader's answers
 * and lists, the on-demand feed routes' upstream copies. Without this, a page re-rendered after
 * `cache.invalidate({ tags })` would be rendered again from the same copy it was cached from.
 *
 * The registry lives on `globalThis` (under a registered symbol): the live loader (bundled from the user's
 * `live.config.ts`) and the injected endpoint may reach this module through two copies of the package.
 */

import { processRecord } from './process-record.js';

export type InvalidationListener = (tags: ReadonlySet<string>) => void;

function listeners(): Set<InvalidationListener> {
  return processRecord('local-invalidation', () => new Set<InvalidationListener>());
}

/** Calls `listener` with the tags of every later invalidation in this process; returns the unsubscribe. */
export function onLocalInvalidation(listener: InvalidationListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/**
 * Like `onLocalInvalidation`, for an object that should not be kept alive by the registry (a feed cache of one
 * build): the listener is dropped once the object was garbage-collected.
 */
export function onLocalInvalidationWeak<T extends object>(
  target: T,
  listener: (target: T, tags: ReadonlySet<string>) => void,
): void {
  const ref = new WeakRef(target);
  const off = onLocalInvalidation((tags) => {
    const alive = ref.deref();
    if (alive) listener(alive, tags);
    else off();
  });
}

/** Tells every listener of this process that these tags were invalidated. */
export function invalidateLocally(tags: Iterable<string>): void {
  const set = new Set(tags);
  if (set.size === 0) return;
  for (const listener of [...listeners()]) listener(set);
}
