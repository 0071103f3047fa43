/**
 * Which of this package's loaders ran, for the dev refresh's answer: `refreshContent({ loaders })` runs only
 * the collections whose loader has one of the names, and says nothing about which did. A project that has no
 * keywords collection must not be told that its keywords were refreshed.
 */

import { processRecord } from './process-record.js';

interface Collector {
  names: Set<string>;
}

// On globalThis: the integration (dev refresh) and the loaders (bundled by Vite with the content config) may
// load this module as separate instances in one process.
const collectors = processRecord('loader-runs', () => new Set<Collector>());

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

// The configs of the projects that `astro sync` loads, as the integration saw them in astro:config:done: the
// loaders' context carries the same object. A set per config, not a flag per process: a script or a test may
// run `sync()` and then `build()` in one process, with or without the integration.
const syncing = processRecord('syncing', () => new WeakSet<object>());

// The command Astro runs in this process, as the integration last saw it (the content config is evaluated after).
const COMMAND = Symbol.for('astro-content-publisher.command');

/** Called by the integration with the command Astro runs (`dev`, `build`, `preview`, `sync`) and its final config. */
export function noteAstroCommand(command: string, config: object): void {
  if (command === 'sync') syncing.add(config);
  else syncing.delete(config);
  (globalThis as Record<symbol, unknown>)[COMMAND] = command;
}

/** The settings `withSyncPlaceholders` gives a loader (and the integration, `syncEnv`) that lacks them. */
export const SYNC_PLACEHOLDERS = {
  siteId: 1,
  baseUrl: 'https://service.invalid',
  apiKey: 'btb_astro_sync_sends_no_request',
} as const;

/**
 * Under `astro sync` (and `astro check`), the credentials a loader or the integration lacks are filled with
 * placeholders that are never sent: those commands send no request (`keptForSync`), and a CI lint job or a
 * fork's pull request has no secrets. Every other option is still checked. Outside sync, `raw` as it is.
 */
export function withSyncPlaceholders<T extends { siteId?: unknown; baseUrl?: unknown; apiKey?: unknown }>(raw: T): T {
  if ((globalThis as Record<symbol, unknown>)[COMMAND] !== 'sync') return raw;
  const out: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(SYNC_PLACEHOLDERS))
    if (out[key] === undefined || out[key] === '') out[key] = value;
  return out as T;
}

/**
 * Under `astro sync` (and `astro check`, which syncs first) a loader keeps what its store holds and sends no
 * request: those commands need the collections' types, which come from the schemas, and the build that follows
 * fetches what changed (a `check && build` script would otherwise spend every request twice). Known only with
 * the integration; logs why and returns true when the loader should stop there.
 */
export function keptForSync(
  ctx: { config?: object; logger: { info(message: string): void } },
  stored: number,
): boolean {
  if (!ctx.config || !syncing.has(ctx.config)) return false;
  ctx.logger.info(
    `astro sync: kept the ${stored} stored entr${stored === 1 ? 'y' : 'ies'}, no request (types come from the schema; the build fetches what changed).`,
  );
  return true;
}
