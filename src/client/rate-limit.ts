/** The `X-RateLimit-*` headers, as last seen on an authenticated response. */
export interface RateLimitState {
  /** Hourly limit of the user (all tokens together). */
  limit: number;
  /** Requests left in the sliding window. */
  remaining: number;
  /** Reset time as the service sends it (epoch seconds). */
  reset: number;
}

function readInt(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  return Number.parseInt(raw, 10);
}

/** Undefined unless limit and remaining are both present: a half-read state would mislead a budget. */
export function readRateLimit(headers: Headers): RateLimitState | undefined {
  const limit = readInt(headers, 'x-ratelimit-limit');
  const remaining = readInt(headers, 'x-ratelimit-remaining');
  if (limit === undefined || remaining === undefined) return undefined;
  return { limit, remaining, reset: readInt(headers, 'x-ratelimit-reset') ?? 0 };
}
