/**
 * What keeps anonymous visitors of an on-demand blog from spending the owner's hourly API budget through
 * `liveArticlesLoader` (every uncached `getLiveEntry` would otherwise be one authenticated call): a small
 * time-limited cache and the decision whether a call may be sent at all. Pure apart from the clock passed in.
 */

/** A bounded map whose values are fresh for `ttlMs`, then kept as stale copies (served when a call fails). */
export class TtlCache<V> {
  readonly #items = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): { value: V; fresh: boolean } | undefined {
    const item = this.#items.get(key);
    return item && { value: item.value, fresh: this.now() - item.at < this.ttlMs };
  }

  /** Makes the value stale now (kept as the copy served when a call fails). */
  expire(key: string): void {
    const item = this.#items.get(key);
    if (item) item.at = Number.NEGATIVE_INFINITY;
  }

  /** The keys held now, oldest first. */
  keys(): string[] {
    return [...this.#items.keys()];
  }

  expireAll(): void {
    for (const item of this.#items.values()) item.at = Number.NEGATIVE_INFINITY;
  }

  set(key: string, value: V): void {
    this.#items.delete(key);
    this.#items.set(key, { value, at: this.now() });
    // Oldest first out: a flood of distinct keys cannot grow memory past the bound.
    while (this.#items.size > this.maxEntries) this.#items.delete(this.#items.keys().next().value as string);
  }
}

export interface CallState {
  /** The last X-RateLimit-Remaining seen for this key (by this loader or any loader of the process). */
  remaining: number | undefined;
  reserve: number;
  /** Until when (ms since epoch) a 429's Retry-After forbids calls. */
  blockedUntil: number;
  now: number;
}

/** Why no call may be sent now (undefined: it may). A visitor never waits: a closed gate answers at once. */
export function callRefusal(state: CallState): string | undefined {
  if (state.now < state.blockedUntil) {
    return `the service answered 429 and asked to wait ${Math.ceil((state.blockedUntil - state.now) / 1000)} s more`;
  }
  if (state.remaining !== undefined && state.remaining <= state.reserve) {
    return `the hourly rate limit has ${state.remaining} requests left, at or below the reserve (${state.reserve}) kept for builds and tools`;
  }
  return undefined;
}
