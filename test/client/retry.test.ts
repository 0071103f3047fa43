import { describe, expect, it } from 'vitest';
import { createClient, NetworkError, RateLimitError, ServerError, TimeoutError } from '../../src/client/index.js';
import { closedPort, fault, proClient, rejection, routeCounts, simulator, timed } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('429', () => {
  it('a GET waits Retry-After and retries once', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', status: 429, retryAfter: 1, times: 1 });
    const warnings: string[] = [];
    const client = proClient(sim(), { logger: { warn: (line) => warnings.push(line) } });
    const { ms, result, error } = await timed(() => client.me());
    expect(error).toBeUndefined();
    expect(result?.username).toBe('pro-user');
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(3000);
    expect(routeCounts(sim(), 'GET /api/v1/me/')).toEqual({ '429': 1, '200': 1 });
    expect(client.requestCount).toBe(2);
    expect(warnings).toEqual([
      '[astro-content-publisher] GET /api/v1/me/ -> 429; waiting 1000 ms (Retry-After) and retrying once',
    ]);
  });

  it('the simulator’s sliding window: the retry lands after the oldest request left it', async () => {
    const small = await simulator({ rateLimitOverride: 2, windowMs: 1200 });
    try {
      const client = proClient(small);
      await client.me();
      await client.me();
      const { ms, error } = await timed(() => client.sites());
      expect(error).toBeUndefined();
      expect(ms).toBeGreaterThanOrEqual(990);
      expect(routeCounts(small, 'GET /api/v1/sites/')).toEqual({ '429': 1, '200': 1 });
      expect(client.rateLimit).toMatchObject({ limit: 2 });
    } finally {
      await small.close();
    }
  });

  it('only once: a second 429 is thrown', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', status: 429, retryAfter: 1, times: 2 });
    const error = await rejection(proClient(sim()).me());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(routeCounts(sim(), 'GET /api/v1/me/')).toEqual({ '429': 2 });
  });

  it('Retry-After over maxRetryAfterMs throws at once, with retryAfter', async () => {
    const limited = await simulator({ rateLimitOverride: 1 });
    try {
      const client = proClient(limited);
      await client.me();
      const { ms, error } = await timed(() => client.me());
      expect(error).toBeInstanceOf(RateLimitError);
      // The real window is an hour long: Retry-After is close to 3600 s.
      expect((error as RateLimitError).retryAfter).toBeGreaterThan(3500);
      expect((error as RateLimitError).hint).toMatch(/^Wait \d+ seconds/);
      expect(ms).toBeLessThan(2000);
      expect(routeCounts(limited, 'GET /api/v1/me/')).toEqual({ '200': 1, '429': 1 });
      // Rejected requests still carry the headers: the state shows the empty budget.
      expect(client.rateLimit).toMatchObject({ limit: 1, remaining: 0 });
    } finally {
      await limited.close();
    }
  });

  it('maxRetryAfterMs: 0 turns the wait off', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/', status: 429, retryAfter: 1, times: 1 });
    const { ms, error } = await timed(() => proClient(sim(), { maxRetryAfterMs: 0 }).sites());
    expect(error).toBeInstanceOf(RateLimitError);
    // Honouring Retry-After would have taken at least 1000 ms.
    expect(ms).toBeLessThan(900);
    expect(routeCounts(sim(), 'GET /api/v1/sites/')).toEqual({ '429': 1 });
  });
});

describe('Retry-After 0 or a past date, and X-RateLimit-Reset as seconds from now', () => {
  for (const retryAfter of ['zero', 'http-date'] as const) {
    it(`retryAfter '${retryAfter}': the wait comes from X-RateLimit-Reset, not "1 seconds"`, async () => {
      const small = await simulator({
        rateLimitOverride: 1,
        windowMs: 20_000,
        variants: { retryAfter, rateLimitReset: 'delta' },
      });
      try {
        const client = proClient(small, { maxRetryAfterMs: 0 });
        await client.me();
        // Delta variant: normalised to epoch seconds, about 20 s from now.
        const reset = client.rateLimit!.reset;
        expect(reset).toBeGreaterThan(Date.now() / 1000 + 15);
        expect(reset).toBeLessThan(Date.now() / 1000 + 25);
        const error = (await rejection(client.sites())) as RateLimitError;
        expect(error).toBeInstanceOf(RateLimitError);
        expect(error.retryAfter).toBeGreaterThan(15);
        expect(error.retryAfter).toBeLessThanOrEqual(21);
        expect(error.hint).toMatch(/^Wait (1[6-9]|2[01]) seconds, cache responses/);
      } finally {
        await small.close();
      }
    });
  }

  it('"Wait 1 second" (singular)', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', status: 429, retryAfter: 1 });
    const error = (await rejection(proClient(sim(), { maxRetryAfterMs: 0 }).me())) as RateLimitError;
    expect(error.hint).toMatch(/^Wait 1 second, cache responses/);
  });
});

describe('POST is never retried', () => {
  it('a 503 on audit, a 429 on generate, a dropped connection on snapshot: one request each', async () => {
    await fault(sim(), { route: 'POST /api/v1/audit/', status: 503 });
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', status: 429, retryAfter: 1 });
    await fault(sim(), { route: 'POST /api/v1/sites/:id/keywords/snapshot/', drop: 'before-headers' });
    const client = proClient(sim());
    expect(await rejection(client.audit({ content: '<p>x</p>' }))).toBeInstanceOf(ServerError);
    expect(await rejection(client.generate(12, { topic: 'x' }))).toBeInstanceOf(RateLimitError);
    expect(await rejection(client.snapshot(12))).toBeInstanceOf(NetworkError);
    expect(routeCounts(sim(), 'POST /api/v1/audit/')).toEqual({ '503': 1 });
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/generate/')).toEqual({ '429': 1 });
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/keywords/snapshot/')).toEqual({ '0': 1 });
    expect(client.requestCount).toBe(3);
  });
});

describe('generate without a complete answer: the article may exist', () => {
  const inDoubt =
    'The service may already have generated and published the article (and used one quota unit or credit): check `client.articles(12)` for it before retrying.';

  it('a connection dropped before the headers or mid-body, and a timeout, say to check articles() first', async () => {
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', drop: 'before-headers', times: 1 });
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', drop: 'mid-body', times: 1 });
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', delayMs: 3000, times: 1 });
    const client = proClient(sim(), { generateTimeoutMs: 300 });
    const before = (await client.articles(12)).length;
    for (const expected of [NetworkError, NetworkError, TimeoutError]) {
      const error = (await rejection(client.generate(12, { topic: 'in doubt' }))) as NetworkError | TimeoutError;
      expect(error).toBeInstanceOf(expected);
      expect(error.hint).toContain(inDoubt);
      expect(error.message).toContain(inDoubt);
      expect(error.message).not.toMatch(/then retry|Retry later/);
    }
    // The service did generate: the simulator drops the connection after the handler ran.
    expect((await client.articles(12)).length).toBeGreaterThanOrEqual(before + 2);
  });

  it('a refused connection (nothing sent) keeps the plain advice', async () => {
    const client = createClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'btb_x' });
    const error = (await rejection(client.generate(12, { topic: 'x' }))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.hint).toMatch(/is reachable \(baseUrl\), then retry\.$/);
  });
});

describe('5xx and network failures on GET', () => {
  it('retries at most `retries` times, then throws', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/', status: 503 });
    const client = proClient(sim());
    const { ms, error } = await timed(() => client.sites());
    expect(error).toBeInstanceOf(ServerError);
    expect(routeCounts(sim(), 'GET /api/v1/sites/')).toEqual({ '503': 3 });
    expect(client.requestCount).toBe(3);
    // Full jitter under 300 ms then 600 ms ceilings: well under a second of waiting (slack for a busy machine).
    expect(ms).toBeLessThan(3000);
  });

  it('recovers when the failure is transient', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/', status: 500, times: 1 });
    const client = proClient(sim());
    expect((await client.sites()).length).toBe(2);
    expect(routeCounts(sim(), 'GET /api/v1/sites/')).toEqual({ '500': 1, '200': 1 });
  });

  it('public feeds follow the same GET policy and stay out of requestCount', async () => {
    await fault(sim(), { route: 'GET /api/sites/:id/sitemap.xml', status: 503 });
    const client = proClient(sim());
    expect(await rejection(client.sitemap(12))).toBeInstanceOf(ServerError);
    expect(routeCounts(sim(), 'GET /api/sites/:id/sitemap.xml')).toEqual({ '503': 3 });
    expect(client.requestCount).toBe(0);
  });

  it('retries: 0 sends one request', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/', status: 502 });
    await rejection(proClient(sim(), { retries: 0 }).sites());
    expect(routeCounts(sim(), 'GET /api/v1/sites/')).toEqual({ '502': 1 });
  });

  it('a connection dropped before the headers is a NetworkError, retried', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', drop: 'before-headers' });
    const error = await rejection(proClient(sim()).me());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'network', method: 'GET', path: '/api/v1/me/' });
    expect(error.message).toMatch(
      /^\[GET\] \/api\/v1\/me\/: network error: .+\. Check that the service at http:\/\/127\.0\.0\.1:\d+ is reachable \(baseUrl\), then retry\.$/,
    );
    expect(routeCounts(sim(), 'GET /api/v1/me/')).toEqual({ '0': 3 });
  });

  it('a body cut in the middle is a network failure, and the retry succeeds', async () => {
    await fault(sim(), { route: 'GET /api/v1/sites/:id/articles/', drop: 'mid-body', times: 1 });
    const articles = await proClient(sim()).articles(12);
    expect(articles).toHaveLength(30);
    expect(routeCounts(sim(), 'GET /api/v1/sites/:id/articles/')).toEqual({ '200': 2 });
  });

  it('nothing listening: NetworkError naming the refused connection', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'btb_sim_pro_1', retries: 1 });
    const error = await rejection(client.me());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('ECONNREFUSED');
    expect(client.requestCount).toBe(2);
  });
});

describe('timeouts', () => {
  it('timeoutMs: a slow answer becomes a TimeoutError, not retried', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', delayMs: 3000 });
    const client = proClient(sim(), { timeoutMs: 200 });
    const { ms, error } = await timed(() => client.me());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', timeoutMs: 200, path: '/api/v1/me/' });
    expect((error as TimeoutError).message).toBe(
      '[GET] /api/v1/me/: no complete response within 200 ms. Retry later, or raise `timeoutMs` (now 200 ms).',
    );
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(2500);
    expect(client.requestCount).toBe(1);
  });

  it('generateTimeoutMs applies to generate, timeoutMs to the rest', async () => {
    await fault(sim(), { route: 'POST /api/v1/sites/:id/generate/', delayMs: 3000 });
    const client = proClient(sim(), { timeoutMs: 100, generateTimeoutMs: 300 });
    const { ms, error } = await timed(() => client.generate(12, { topic: 'slow' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).hint).toContain('raise `generateTimeoutMs` (now 300 ms)');
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(2500);
  });

  it('signal: aborting the client rejects with the abort reason, during a request or a retry wait', async () => {
    await fault(sim(), { route: 'GET /api/v1/me/', delayMs: 4000 });
    await fault(sim(), { route: 'GET /api/v1/sites/', status: 429, retryAfter: 5 });
    const controller = new AbortController();
    const client = proClient(sim(), { signal: controller.signal, maxRetryAfterMs: 10_000 });
    const pending = [timed(() => client.me()), timed(() => client.sites())];
    setTimeout(() => controller.abort(new Error('shutting down')), 300);
    for (const { ms, error } of await Promise.all(pending)) {
      expect((error as Error).message).toBe('shutting down');
      expect(ms).toBeLessThan(3000);
    }
  });
});
