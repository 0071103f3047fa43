import { appendFileSync } from 'node:fs';

/**
 * Set by `content-publisher watch --run` for the command it runs: a file where the loaders of that build say what
 * they left undone. A build that kept its stored articles because the service failed, or left changed articles
 * unfetched (the hourly budget, a failing detail call), still exits 0 (stale content beats a failed deploy); the
 * watcher reads this file and keeps the change for its next poll instead of recording it as done.
 */
export const WATCH_REPORT_ENV = 'PUBLISHER_WATCH_REPORT';

/** Tells the watcher that ran this build what `site` left undone (nothing outside `watch --run`). */
export function reportUndoneToWatch(site: string, undone: string): void {
  const file = globalThis.process?.env?.[WATCH_REPORT_ENV];
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify({ site, undone })}\n`);
  } catch {
    // The watcher sees no report and records the change: as before this file existed.
  }
}
