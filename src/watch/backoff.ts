/**
 * Delay before the next poll. Upstream errors and failed triggers back off exponentially from the
 * interval (the service caches feeds for an hour: hammering it during an outage helps nobody), capped so
 * a long outage is still noticed to be over within reasonable time.
 */
export const MAX_BACKOFF_MS = 30 * 60_000;

/** `failures` consecutive failures so far (0 = healthy). */
export function nextDelay(intervalMs: number, failures: number): number {
  if (failures <= 0) return intervalMs;
  const cap = Math.max(intervalMs, Math.min(MAX_BACKOFF_MS, intervalMs * 64));
  return Math.min(cap, intervalMs * 2 ** Math.min(failures, 16));
}
