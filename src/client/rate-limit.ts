/** The `X-RateLimit-*` headers, as last seen on an authenticated response. */
export interface RateLimitState {
  /** Hourly limit of the user (all tokens together). */
  limit: number;
  /** Requests left in the sliding window. */
  remaining: number;
  /**
   * When the window resets, in epoch seconds; `0` when the service sent no `X-RateLimit-Reset`. A service
   * that sends seconds from now instead (any value under 10^9, a date in 2001) is converted with this
   * machine's clock when the response arrives.
   */
  reset: number;
}

/** Below this, `X-RateLimit-Reset` is a delay in seconds, not a date (10^9 s after 1970 is in 2001). */
const EPOCH_FLOOR = 1_000_000_000;

function readInt(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  return Number.parseInt(raw, 10);
}

/** `X-RateLimit-Reset` as epoch seconds, whether the service sent a date or seconds from now. */
export function readReset(headers: Headers, now: number = Date.now()): number | undefined {
  const raw = readInt(headers, 'x-ratelimit-reset');
  if (raw === undefined || raw < 0) return undefined;
  return raw < EPOCH_FLOOR ? Math.floor(now / 1000) + raw : raw;
}

/** Undefined unless limit and remaining are both present: a half-read state would mislead a budget. */
export function readRateLimit(headers: Headers, now: number = Date.now()): RateLimitState | undefined {
  const limit = readInt(headers, 'x-ratelimit-limit');
  const remaining = readInt(headers, 'x-ratelimit-remaining');
  if (limit === undefined || remaining === undefined) return undefined;
  return { limit, remaining, reset: readReset(headers, now) ?? 0 };
}
