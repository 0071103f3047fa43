/**
 * Sliding-window rate limit per user (all of a user's tokens share it), as the API describes:
 * a request is allowed when fewer than `limit` allowed requests happened in the last `windowMs`.
 * Rejected requests are not recorded, so a client that backs off is not punished further.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the oldest counted request leaves the window. */
  reset: number;
  /** Seconds until a slot frees up (>= 1), only when not allowed. */
  retryAfter?: number;
}

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly windowMs: number) {}

  private live(key: string, nowMs: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((t) => t > nowMs - this.windowMs);
    this.hits.set(key, kept);
    return kept;
  }

  take(key: string, limit: number, nowMs: number): RateLimitDecision {
    const hits = this.live(key, nowMs);
    if (hits.length >= limit) {
      const oldest = hits[0] ?? nowMs;
      const freeAt = oldest + this.windowMs;
      return {
        allowed: false,
        limit,
        remaining: 0,
        reset: Math.ceil(freeAt / 1000),
        retryAfter: Math.max(1, Math.ceil((freeAt - nowMs) / 1000)),
      };
    }
    hits.push(nowMs);
    const oldest = hits[0] ?? nowMs;
    return { allowed: true, limit, remaining: limit - hits.length, reset: Math.ceil((oldest + this.windowMs) / 1000) };
  }

  /** Current state without counting a request (for headers on responses that do not consume). */
  peek(key: string, limit: number, nowMs: number): RateLimitDecision {
    const hits = this.live(key, nowMs);
    const oldest = hits[0] ?? nowMs;
    return {
      allowed: hits.length < limit,
      limit,
      remaining: Math.max(0, limit - hits.length),
      reset: Math.ceil((oldest + this.windowMs) / 1000),
    };
  }

  clear(): void {
    this.hits.clear();
  }
}
