/**
 * The one line a build logs, e.g.
 * `1000 articles: 12 new, 3 changed, 2 removed, 983 unchanged, 7 pending; 16 requests, 38 left this hour`.
 */
export interface SyncOutcome {
  /** Entries in the store after the build. */
  total: number;
  added: number;
  changed: number;
  removed: number;
  /** In the store and not touched by this build (pending ones excluded). */
  unchanged: number;
  /** Needed a fetch that did not fit in the budget (or failed): they come on a later build. */
  pending: number;
  /** Authenticated requests this build sent. */
  requests: number;
  /** Of those, details sent a second time after a connection broke before any answer. */
  resent?: number;
  /** X-RateLimit-Remaining after the last request, when the service said. */
  remaining: number | undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summaryLine(o: SyncOutcome): string {
  const left = o.remaining === undefined ? 'rate limit unknown' : `${o.remaining} left this hour`;
  // A detail call is one request; one whose connection broke before any answer is sent once more (sync-apply.ts).
  const resent = o.resent ? ` (${plural(o.resent, 'detail')} sent again after a dropped connection)` : '';
  return (
    `${plural(o.total, 'article')}: ${o.added} new, ${o.changed} changed, ${o.removed} removed, ` +
    `${o.unchanged} unchanged, ${o.pending} pending; ${plural(o.requests, 'request')}${resent}, ${left}`
  );
}

/**
 * Step 6 of a build: the outcome from what the plan decided and what happened. Failed fetches of new or
 * changed articles count as pending (they come again); a failed revalidation does not (nothing said it changed).
 * An entry stored incomplete (sync-run: built from the feed, its detail in another language) is new or changed
 * and pending at once.
 */
export function summarise(input: {
  plan: {
    fetch: ReadonlyArray<{ slug: string; reason: string }>;
    pending: ReadonlyArray<{ slug: string }>;
    remove: readonly string[];
  };
  failures: ReadonlyArray<{ slug: string }>;
  added: number;
  changed: number;
  has: (id: string) => boolean;
  /** Ids added or changed by this build (a pending one among them is not also taken off `unchanged`). */
  touched?: ReadonlySet<string>;
  total: number;
  requests: number;
  resent?: number;
  remaining: number | undefined;
}): SyncOutcome {
  const reasons = new Map(input.plan.fetch.map((f) => [f.slug, f.reason]));
  // A failed revalidation or confirmation is not pending: nothing said the article changed.
  const failed = input.failures
    .filter((f) => !['revalidate', 'confirm'].includes(reasons.get(f.slug) ?? ''))
    .map((f) => f.slug);
  const pending = new Set([...input.plan.pending.map((p) => p.slug), ...failed]);
  const pendingStored = [...pending].filter((slug) => input.has(slug) && !input.touched?.has(slug)).length;
  return {
    total: input.total,
    added: input.added,
    changed: input.changed,
    removed: input.plan.remove.length,
    unchanged: input.total - input.added - input.changed - pendingStored,
    pending: pending.size,
    requests: input.requests,
    ...(input.resent ? { resent: input.resent } : {}),
    remaining: input.remaining,
  };
}
