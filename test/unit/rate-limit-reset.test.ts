import { describe, expect, it } from 'vitest';
import { readRateLimit } from '../../src/client/rate-limit.js';
import { knownRemaining, recordRemaining } from '../../src/loader/budget/rate-window.js';

// API.md: "X-RateLimit-Reset: integer reset time; the sample looks like epoch seconds". Services send epoch
// seconds, epoch milliseconds, seconds from now or an HTTP date, or nothing: every form gives the same instant,
// and no form makes a window last longer than the hour the service's sliding window can last.
const now = Date.parse('2026-12-01T12:00:00Z');
const inTenMinutes = now + 600_000;
const headers = (reset: string | undefined) =>
  new Headers({
    'x-ratelimit-limit': '30',
    'x-ratelimit-remaining': '2',
    ...(reset === undefined ? {} : { 'x-ratelimit-reset': reset }),
  });

describe('X-RateLimit-Reset in every form a service may send', () => {
  it.each([
    ['epoch seconds', String(inTenMinutes / 1000), 'epoch-seconds'],
    ['epoch milliseconds', String(inTenMinutes), 'epoch-milliseconds'],
    ['seconds from now', '600', 'seconds-from-now'],
    ['an HTTP date', new Date(inTenMinutes).toUTCString(), 'http-date'],
  ])('%s: the window resets in ten minutes', (_name, value, form) => {
    const state = readRateLimit(headers(value), now);
    expect(state?.reset).toBe(inTenMinutes / 1000);
    expect(state?.resetForm).toBe(form);
  });

  it('absent: unknown (0), and the form says so', () => {
    const state = readRateLimit(headers(undefined), now);
    expect(state?.reset).toBe(0);
    expect(state?.resetForm).toBe('absent');
  });

  it.each([
    ['epoch milliseconds far ahead', String(now + 10 * 86_400_000)],
    ['epoch seconds a year ahead', String(now / 1000 + 365 * 86_400)],
    ['an HTTP date next year', new Date(now + 365 * 86_400_000).toUTCString()],
  ])('%s: never more than one hour from now (the window slides over one hour)', (_name, value) => {
    expect(readRateLimit(headers(value), now)?.reset).toBe(now / 1000 + 3600);
  });

  it('a window recorded from a reset in epoch milliseconds is forgotten within the hour', () => {
    const base = 'http://reset-ms.invalid';
    recordRemaining(base, 'btb_key', readRateLimit(headers(String(now + 3_600_000 * 24 * 365 * 1000)), now), now);
    expect(knownRemaining(base, 'btb_key', now)).toBe(2);
    expect(knownRemaining(base, 'btb_key', now + 3_600_001)).toBeUndefined();
  });
});
