import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/simulator/rate-limit.js';
import { admin, call, start, type Simulator } from './helpers.js';

describe('SlidingWindowLimiter (pure)', () => {
  it('slides: a slot frees when the oldest request leaves the window, not at a fixed boundary', () => {
    const limiter = new SlidingWindowLimiter(1000);
    expect(limiter.take('u', 2, 0).remaining).toBe(1);
    expect(limiter.take('u', 2, 600).remaining).toBe(0);
    const blocked = limiter.take('u', 2, 900);
    expect(blocked).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
    expect(limiter.take('u', 2, 1001)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('u', 2, 1500).allowed).toBe(false);
    expect(limiter.take('u', 2, 1601).allowed).toBe(true);
  });

  it('Retry-After is the time until the oldest request leaves, in whole seconds', () => {
    const limiter = new SlidingWindowLimiter(3_600_000);
    limiter.take('u', 1, 0);
    expect(limiter.take('u', 1, 600_000).retryAfter).toBe(3000);
    expect(limiter.take('u', 1, 600_000).reset).toBe(3600);
  });
});

describe('rate limit over HTTP', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await start({ rateLimitOverride: 3, windowMs: 1200 });
  });
  afterAll(() => sim.close());

  it('is shared by the two tokens of one user, answers 429 with Retry-After, and rejected calls do not consume', async () => {
    await admin(sim, 'POST', 'reset');
    const [second] = sim.extraTokens.pro;
    expect((await call(sim, '/api/v1/me/')).headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await call(sim, '/api/v1/me/', { token: second })).headers.get('x-ratelimit-remaining')).toBe('1');
    const third = await call(sim, '/api/v1/sites/12/articles/no-such/', { token: second });
    expect(third.status).toBe(404); // errors after the gate still count
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');

    const limited = await call(sim, '/api/v1/me/', { token: second });
    expect(limited.status).toBe(429);
    expect(limited.json().error).toMatch(/Rate limit of 3 requests/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await call(sim, '/api/v1/me/')).status).toBe(429);

    // Another user has its own window.
    expect((await call(sim, '/api/v1/me/', { token: sim.tokens.agence })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1300));
    // The two 429s above were not recorded: the whole limit is free again.
    const after = await call(sim, '/api/v1/me/', { token: second });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('401 and 403 do not consume the window and carry no rate-limit headers', async () => {
    await admin(sim, 'POST', 'reset');
    const unknown = await call(sim, '/api/v1/me/', { token: 'btb_sim_nobody' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await call(sim, '/api/v1/me/', { token: sim.tokens.solo })).status).toBe(403);
    expect((await call(sim, '/api/v1/me/')).headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('plan limits of both descriptions', () => {
  it("'first': Pro 30 and Agence 200 per hour, no usage in /me/", async () => {
    const sim = await start({ rateLimits: 'first' });
    try {
      const me = await call(sim, '/api/v1/me/');
      expect(me.json()).toEqual({
        username: 'pro-user',
        email: 'pro@example.com',
        plan: 'pro',
        rate_limit_per_hour: 30,
      });
      expect(me.headers.get('x-ratelimit-limit')).toBe('30');
      expect((await call(sim, '/api/v1/me/', { token: sim.tokens.agence })).json().rate_limit_per_hour).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it("'second' (default): Pro 60 and Agence 600", async () => {
    const sim = await start();
    try {
      expect((await call(sim, '/api/v1/me/')).headers.get('x-ratelimit-limit')).toBe('60');
      const agence = await call(sim, '/api/v1/me/', { token: sim.tokens.agence });
      expect(agence.json()).toMatchObject({
        plan: 'agence',
        rate_limit_per_hour: 600,
        usage: { articles_per_month_limit: 150 },
      });
    } finally {
      await sim.close();
    }
  });
});
