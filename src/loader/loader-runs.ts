/**
 * Which of this package's loaders ran, for the dev refresh's answer: `refreshContent({ loaders })` runs only
 * the collections whose loader has one of the names, and says nothing about which did. A project that has no
 * keywords collection must not be told that its keywords were refreshed.
 */

interface Collector {
  names: Set<string>;
}

// On globalThis: the integration (dev refresh) and the loaders (bundled by Vite with the content config) may
// load this module as separate instances in one process.
const collectors: Set<Collector> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('astro-content-publisher.loader-runs')
] ??= new Set<Collector>()) as Set<Collector>;

/** Called by each build-time loader when its `load()` starts. */
export function noteLoaderRun(name: string): void {
  for (const collector of collectors) collector.names.add(name);
}

/** Runs `run` and returns the names of this package's loaders that started meanwhile, in `order`. */
export async function loadersRunDuring(run: () => Promise<unknown>, order: readonly string[]): Promise<string[]> {
  const collector: Collector = { names: new Set() };
  collectors.add(collector);
  try {
    await run();
  } finally {
    collectors.delete(collector);
  }
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return [...collector.names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
