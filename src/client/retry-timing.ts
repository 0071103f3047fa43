/**
 * Retry timing as pure functions (no I/O, no clock unless passed in), so every rule is unit-tested.
 *
 * Policy:
 * - Only GET is retried. POSTs are never retried automatically: generate consumes quota and runs
 *   60 to 120 s, and a retried audit or snapshot costs another request of the hourly budget.
 * - 429 on GET: wait `Retry-After` and retry once, if that wait is within `maxRetryAfterMs`;
 *   otherwise fail at once (waiting minutes inside a build helps nobody).
 * - 5xx and network failures on GET: up to `retries` retries, capped exponential backoff with full jitter.
 * - Timeouts are not retried: the caller already waited the whole `timeoutMs`.
 * - A body over the size cap is not retried: the next answer would be as big.
 * - Anything else (4xx, malformed bodies) is not retried: repeating it gives the same answer.
 */

/** Statuses worth repeating: transient server-side failures (502 is the site's CMS being unreachable). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

export const BACKOFF_BASE_MS = 300;
export const BACKOFF_MAX_MS = 5_000;

/**
 * Reads `Retry-After` as milliseconds: delta-seconds (`"120"`) or an HTTP date.
 * Returns undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names a month; this keeps Date.parse from reading "-3" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Full-jitter backoff: a random wait between 0 and min(max, base * 2^attempt).
 * `attempt` is 0 for the first retry.
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs: number = BACKOFF_BASE_MS,
  maxMs: number = BACKOFF_MAX_MS,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

export type Failure =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'network' }
  | { kind: 'timeout' }
  /** The body was over the size cap: asking again brings the same body. */
  | { kind: 'too-large' }
  /** A redirect to another origin (or too many): asking again brings the same redirect. */
  | { kind: 'redirect' };

export interface RetryInput {
  method: string;
  failure: Failure;
  /** Backoff retries (5xx/network) already done for this call. */
  backoffRetriesDone: number;
  /** Whether this call already retried once after a 429. */
  rateLimitRetried: boolean;
  /** Maximum backoff retries (the `retries` option). */
  retries: number;
  /** Longest `Retry-After` wait honoured (the `maxRetryAfterMs` option). */
  maxRetryAfterMs: number;
  random?: () => number;
}

export type RetryDecision =
  { retry: false; reason: string } | { retry: true; kind: 'rate-limit' | 'backoff'; delayMs: number };

export function decideRetry(input: RetryInput): RetryDecision {
  const { failure } = input;
  if (input.method !== 'GET')
    return { retry: false, reason: `${input.method} requests are never retried automatically` };
  if (failure.kind === 'timeout') return { retry: false, reason: 'timeouts are not retried' };
  if (failure.kind === 'too-large') return { retry: false, reason: 'a body over the size cap is not retried' };
  if (failure.kind === 'redirect') return { retry: false, reason: 'a refused redirect is not retried' };

  if (failure.kind === 'status' && failure.status === 429) {
    if (input.rateLimitRetried) return { retry: false, reason: 'already retried once after a 429' };
    if (failure.retryAfterMs === undefined) return { retry: false, reason: 'the 429 gave no Retry-After' };
    // 0 means "never retry a 429": a Retry-After of 0 or of a past date (read as 0) must not slip under it.
    if (input.maxRetryAfterMs === 0) return { retry: false, reason: 'maxRetryAfterMs is 0: a 429 is never retried' };
    if (failure.retryAfterMs > input.maxRetryAfterMs) {
      return {
        retry: false,
        reason: `Retry-After ${failure.retryAfterMs} ms is over maxRetryAfterMs ${input.maxRetryAfterMs} ms`,
      };
    }
    return { retry: true, kind: 'rate-limit', delayMs: failure.retryAfterMs };
  }

  if (failure.kind === 'status' && !RETRYABLE_STATUSES.has(failure.status)) {
    return { retry: false, reason: `status ${failure.status} is not retryable` };
  }
  if (input.backoffRetriesDone >= input.retries)
    return { retry: false, reason: `gave up after ${input.retries} retries` };

  // A 503 may say when to come back; honour it when it is within the cap, else give up now.
  if (failure.kind === 'status' && failure.retryAfterMs !== undefined) {
    if (failure.retryAfterMs > input.maxRetryAfterMs) {
      return {
        retry: false,
        reason: `Retry-After ${failure.retryAfterMs} ms is over maxRetryAfterMs ${input.maxRetryAfterMs} ms`,
      };
    }
    return { retry: true, kind: 'backoff', delayMs: failure.retryAfterMs };
  }
  return { retry: true, kind: 'backoff', delayMs: backoffDelay(input.backoffRetriesDone, input.random) };
}
