/** How the service wrote `X-RateLimit-Reset` (API.md: "the sample looks like epoch seconds"; nothing more). */
export type ResetForm = 'epoch-seconds' | 'epoch-milliseconds' | 'seconds-from-now' | 'http-date' | 'absent';

/** The `X-RateLimit-*` headers, as last seen on an authenticated response. */
export interface RateLimitState {
  /** Hourly limit of the user (all tokens together). */
  limit: number;
  /** Requests left in the sliding window. */
  remaining: number;
  /**
   * When the window resets, in epoch seconds, never more than one hour after the response (the window slides
   * over one hour); `0` when the service sent no readable `X-RateLimit-Reset`.
   */
  reset: number;
  /** How the service wrote the reset: anything but epoch seconds is worth saying once. */
  resetForm: ResetForm;
}

/** The service's window slides over one hour (API.md, Limits): no reset lies further ahead than that. */
const WINDOW_MS = 3_600_000;
/** Below this, an integer reset is a delay in seconds, not a date (10^9 s after 1970 is in 2001). */
const EPOCH_SECONDS_FLOOR = 1_000_000_000;
/** From here on, an integer reset is epoch milliseconds (10^11 s after 1970 is in the year 5138; 10^11 ms is 1973). */
const EPOCH_MILLISECONDS_FLOOR = 100_000_000_000;

function readInt(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\s*-?\d+\s*$/.test(raw)) return undefined;
  return Number.parseInt(raw, 10);
}

/** The reset as an instant (ms since epoch) and the form it came in, before any bound. */
function resetInstant(headers: Headers, now: number): { at: number; form: ResetForm } | undefined {
  const raw = headers.get('x-ratelimit-reset');
  if (raw === null) return undefined;
  const value = readInt(headers, 'x-ratelimit-reset');
  if (value === undefined) {
    const date = Date.parse(raw);
    return Number.isFinite(date) ? { at: date, form: 'http-date' } : undefined;
  }
  if (value < 0) return undefined;
  if (value < EPOCH_SECONDS_FLOOR) return { at: now + value * 1000, form: 'seconds-from-now' };
  if (value < EPOCH_MILLISECONDS_FLOOR) return { at: value * 1000, form: 'epoch-seconds' };
  return { at: value, form: 'epoch-milliseconds' };
}

/**
 * `X-RateLimit-Reset` as epoch seconds, whatever form the service sent it in, and never later than one hour
 * from `now`: a reset read in the wrong unit must not keep a window spent for longer than it can last.
 */
export function readReset(headers: Headers, now: number = Date.now()): number | undefined {
  const instant = resetInstant(headers, now);
  return instant === undefined ? undefined : Math.floor(Math.min(instant.at, now + WINDOW_MS) / 1000);
}

/** Undefined unless limit and remaining are both present: a half-read state would mislead a budget. */
export function readRateLimit(headers: Headers, now: number = Date.now()): RateLimitState | undefined {
  const limit = readInt(headers, 'x-ratelimit-limit');
  const remaining = readInt(headers, 'x-ratelimit-remaining');
  if (limit === undefined || remaining === undefined) return undefined;
  return {
    limit,
    remaining,
    reset: readReset(headers, now) ?? 0,
    resetForm: resetInstant(headers, now)?.form ?? 'absent',
  };
}
