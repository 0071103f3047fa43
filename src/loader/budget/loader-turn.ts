import type { LoaderContext } from 'astro/loaders';
import { keptForSync, noteLoaderRun } from '../process/loader-runs.js';
import { contentSource, startFromOtherStore } from '../state/store-seed.js';
import { takeTurn, type TurnNeed } from './ledger.js';

/** Which loader runs, where its log lines go, and what its store and budget are keyed by. */
export interface LoaderTurn {
  /** The loader's name, recorded as run this build. */
  name: string;
  /** The log label, forked from Astro's logger: keeps sites and filters apart when a project has several. */
  label: string;
  baseUrl: string;
  apiKey: string;
  siteId: number;
  /** The loader's key in its store's meta. */
  key: string;
  need: TurnNeed;
}

/**
 * A build's run of a loader that syncs from the service, as every such loader takes it: recorded as run, kept
 * as it is when the command only generates types (keptForSync), seeded from the other command's store when
 * empty (store-seed.ts, while the loader already waits in line, so the seeding belongs to its build's round),
 * then `sync` in the key's turn (ledger.ts) with the labelled context and the number of entries seeded. Undefined
 * when the store was kept.
 */
export function loaderTurn(
  context: LoaderContext,
  turn: LoaderTurn,
  sync: (labelled: LoaderContext, seeded: number) => Promise<void>,
): Promise<void> | undefined {
  noteLoaderRun(turn.name);
  const labelled = { ...context, logger: context.logger.fork(turn.label) };
  if (keptForSync(labelled, context.store.keys().length)) return undefined;
  const seeded = startFromOtherStore(labelled, contentSource(turn.baseUrl, turn.siteId, turn.key));
  return takeTurn(turn.baseUrl, turn.apiKey, async () => sync(labelled, await seeded), turn.need, seeded);
}
