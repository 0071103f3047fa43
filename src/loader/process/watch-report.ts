import { appendFileSync } from 'node:fs';
import { processRecord } from './process-record.js';

/**
 * Set by `content-publisher watch --run` for the command it runs: a file where the loaders of that build say what
 * they left undone. A build that kept its stored articles because the service failed, or left changed articles
 * unfetched (the hourly budget, a failing detail call), still exits 0 (stale content beats a failed deploy); the
 * watcher reads this file and keeps the change for its next poll instead of recording it as done.
 */
export const WATCH_REPORT_ENV = 'PUBLISHER_WATCH_REPORT';

/**
 * What a loader left undone: `kept`, it kept its stored content without listing (the service failed, the hourly
 * reserve); `behind`, it synced but left changed articles for later builds (its budget, a failed detail call).
 */
export type UndoneKind = 'kept' | 'behind';

/** What the loaders of this process left undone, oldest first: read by the dev refresh (`undoneSince`). */
const undoneHere = processRecord('undone', () => [] as Array<{ site: string; undone: string; kind: UndoneKind }>);

/** How many reports this process has seen: pass it to `undoneSince` after a run of the loaders. */
export function undoneMark(): number {
  return undoneHere.length;
}

/** What the loaders reported since `mark` (a refresh of `astro dev` that kept stale content says so). */
export function undoneSince(mark: number): Array<{ site: string; undone: string; kind: UndoneKind }> {
  return undoneHere.slice(mark);
}

/**
 * Tells the watcher that ran this build what `site` left undone (nothing outside `watch --run`), and the dev
 * refresh of this process.
 */
export function reportUndoneToWatch(site: string, undone: string, kind: UndoneKind): void {
  undoneHere.push({ site, undone, kind }); // a few per build or refresh that left work: kept for the process's life
  const file = globalThis.process?.env?.[WATCH_REPORT_ENV];
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ site, undone })}\n`);
  } catch {
    // The watcher sees no report and records the change: as before this file existed.
  }
}
