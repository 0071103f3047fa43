/**
 * The request arithmetic of one build, pure. The list call is always sent (membership needs it) and counts;
 * after it, `X-RateLimit-Remaining` tells what the hour still allows. A build never sends more than
 * `min(budget.maxRequests, requests so far + remaining - reserve)`.
 */
export interface BudgetInput {
  maxRequests: number;
  reserve: number;
  /** Authenticated requests this build has already sent (the list call and its retries). */
  spent: number;
  /** X-RateLimit-Remaining after those requests, when the service sent it. */
  remaining: number | undefined;
  /**
   * Loaders of the same service and key still waiting for their turn in this build (ledger.ts): one request
   * is kept for each that sends one (keywords, digest), and the rest of the window above the reserve is shared
   * evenly with the articles loaders, so each gets its list call and some detail calls (a second language's
   * collection was left empty when the first one's cold build took the whole window).
   */
  waiting?: { shares: number; singles: number };
}

/** How many more authenticated requests (detail calls) this build may send. */
export function detailSlots({ maxRequests, reserve, spent, remaining, waiting }: BudgetInput): number {
  const byConfig = maxRequests - spent;
  const byWindow =
    remaining === undefined
      ? Number.POSITIVE_INFINITY
      : Math.floor((remaining - reserve - (waiting?.singles ?? 0)) / (1 + (waiting?.shares ?? 0)));
  return Math.max(0, Math.min(byConfig, byWindow));
}

/** Retries of the list call that still fit in the budget (each retry is a request). */
export function listRetries(maxRequests: number, clientDefault = 2): number {
  return Math.max(0, Math.min(clientDefault, maxRequests - 1));
}

/** The share of the hourly window that revalidations (re-fetching what no signal says changed) may use. */
export const REVALIDATE_SHARE = 0.1;

/**
 * Revalidations this build may send: at most REVALIDATE_SHARE of the hourly limit per sliding hour, counting
 * those of earlier builds (`recent`, ms since epoch). A 1,000-article site on a 30-an-hour plan revalidates
 * 3 an hour instead of spending every build down to the reserve.
 */
export function revalidationSlots(limit: number, recent: readonly number[], now: number): number {
  const perHour = Math.max(1, Math.floor(limit * REVALIDATE_SHARE));
  const inWindow = recent.filter((t) => now - t < 3_600_000).length;
  return Math.max(0, perHour - inWindow);
}
