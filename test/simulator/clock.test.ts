/**
 * One clock per side (issue 39): a test that fakes time for the blog runs in the simulator's process, and the
 * service must not follow it. Its rate-limit reset, its `Date` header and what it publishes keep real time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admin, call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();
const FAKE = Date.UTC(2031, 0, 1);

afterEach(() => {
  vi.useRealTimers();
});

describe("the simulator's clock", () => {
  for (const [name, fake] of [
    ['vi.useFakeTimers', () => vi.useFakeTimers({ now: FAKE, toFake: ['Date'] })],
    ['vi.setSystemTime', () => vi.setSystemTime(FAKE)],
  ] as const) {
    it(`does not move when a test fakes Date with ${name}`, async () => {
      const real = Date.now();
      fake();
      expect(new Date().getUTCFullYear()).toBe(2031);
      const reply = await call(sim(), '/api/v1/me/');
      expect(Math.abs(Date.parse(reply.headers.get('date')!) - real)).toBeLessThan(5_000);
      expect(Number(reply.headers.get('x-ratelimit-reset')) * 1000 - real).toBeGreaterThan(3_590_000);
      expect(Number(reply.headers.get('x-ratelimit-reset')) * 1000 - real).toBeLessThan(3_610_000);
      const published = (await admin(sim(), 'POST', 'articles', { site: 12, title: 'Now', slug: 'now' })).json();
      expect(Math.abs(Date.parse(published.updated_at as string) - real)).toBeLessThan(5_000);
      const feed = await call(sim(), '/api/sites/12/rss.xml', { token: null });
      expect(Math.abs(Date.parse(feed.headers.get('last-modified')!) - real)).toBeLessThan(5_000);
      expect((await call(sim(), '/api/v1/me/')).json().usage.month_key).toBe(new Date(real).toISOString().slice(0, 7));
    });
  }
});
