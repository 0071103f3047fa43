import { describe, expect, it } from 'vitest';
import { backoffDelay, decideRetry, parseRetryAfter, type RetryInput } from '../../src/client/retry-timing.js';

const base: Omit<RetryInput, 'failure' | 'method'> = {
  backoffRetriesDone: 0,
  rateLimitRetried: false,
  retries: 2,
  maxRetryAfterMs: 10_000,
};

describe('parseRetryAfter', () => {
  it('reads delta-seconds as milliseconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter('1.5')).toBe(1500);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });
  it('returns undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
  });
});

describe('backoffDelay (full jitter)', () => {
  it('stays between 0 and the capped exponential ceiling', () => {
    expect(backoffDelay(0, () => 0.999, 300, 5000)).toBe(299);
    expect(backoffDelay(2, () => 0.999, 300, 5000)).toBe(1198);
    expect(backoffDelay(10, () => 0.999, 300, 5000)).toBe(4995);
    expect(backoffDelay(3, () => 0, 300, 5000)).toBe(0);
  });
});

describe('decideRetry', () => {
  it('never retries a POST, whatever the failure', () => {
    for (const failure of [
      { kind: 'network' as const },
      { kind: 'status' as const, status: 503 },
      { kind: 'status' as const, status: 429, retryAfterMs: 10 },
    ]) {
      expect(decideRetry({ ...base, method: 'POST', failure })).toMatchObject({ retry: false });
    }
  });
  it('429 on GET: waits Retry-After once when under the cap', () => {
    expect(
      decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status: 429, retryAfterMs: 2000 } }),
    ).toEqual({ retry: true, kind: 'rate-limit', delayMs: 2000 });
    expect(
      decideRetry({
        ...base,
        rateLimitRetried: true,
        method: 'GET',
        failure: { kind: 'status', status: 429, retryAfterMs: 2000 },
      }),
    ).toMatchObject({ retry: false });
  });
  it('429 on GET: gives up at once when Retry-After is over the cap or missing', () => {
    expect(
      decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status: 429, retryAfterMs: 10_001 } }),
    ).toMatchObject({ retry: false, reason: expect.stringContaining('maxRetryAfterMs') });
    expect(decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status: 429 } })).toMatchObject({
      retry: false,
    });
  });
  it('5xx and network failures on GET: backoff up to `retries` times', () => {
    const random = () => 0.5;
    expect(decideRetry({ ...base, method: 'GET', random, failure: { kind: 'status', status: 503 } })).toEqual({
      retry: true,
      kind: 'backoff',
      delayMs: 150,
    });
    expect(
      decideRetry({ ...base, method: 'GET', random, backoffRetriesDone: 1, failure: { kind: 'network' } }),
    ).toEqual({ retry: true, kind: 'backoff', delayMs: 300 });
    expect(decideRetry({ ...base, method: 'GET', backoffRetriesDone: 2, failure: { kind: 'network' } })).toMatchObject({
      retry: false,
    });
    expect(decideRetry({ ...base, retries: 0, method: 'GET', failure: { kind: 'status', status: 500 } })).toMatchObject(
      { retry: false },
    );
  });
  it('a 503 with Retry-After waits that long, or gives up when over the cap', () => {
    expect(
      decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status: 503, retryAfterMs: 1000 } }),
    ).toEqual({ retry: true, kind: 'backoff', delayMs: 1000 });
    expect(
      decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status: 503, retryAfterMs: 60_000 } }),
    ).toMatchObject({ retry: false });
  });
  it('does not retry 4xx, timeouts or 501', () => {
    for (const status of [400, 401, 403, 404, 402, 501]) {
      expect(decideRetry({ ...base, method: 'GET', failure: { kind: 'status', status } })).toMatchObject({
        retry: false,
      });
    }
    expect(decideRetry({ ...base, method: 'GET', failure: { kind: 'timeout' } })).toMatchObject({ retry: false });
  });
});
