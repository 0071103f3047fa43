import { describe, expect, it } from 'vitest';
import { admin, call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('stats', () => {
  it('counts authenticated (any status) and public requests apart, per route and status', async () => {
    await call(sim(), '/api/v1/sites/12/articles/');
    await call(sim(), '/api/v1/sites/12/articles/');
    await call(sim(), '/api/v1/sites/21/articles/');
    await call(sim(), '/api/v1/me/', { token: null });
    await call(sim(), '/api/sites/12/sitemap.xml', { token: null });
    await call(sim(), '/api/sites/12/rss.xml', { token: null });
    await call(sim(), '/api/sites/999/rss.xml', { token: null });
    await admin(sim(), 'GET', 'faults'); // the admin API is not counted

    const stats = sim().stats();
    expect(stats.authenticated).toBe(4);
    expect(stats.public).toBe(3);
    expect(stats.routes).toEqual({
      'GET /api/v1/sites/:id/articles/': { '200': 2, '404': 1 },
      'GET /api/v1/me/': { '401': 1 },
      'GET /api/sites/:id/sitemap.xml': { '200': 1 },
      'GET /api/sites/:id/rss.xml': { '200': 1, '404': 1 },
    });
    expect(stats.requests).toHaveLength(7);
    expect(stats.requests[0]).toEqual({
      method: 'GET',
      path: '/api/v1/sites/12/articles/',
      route: 'GET /api/v1/sites/:id/articles/',
      at: expect.any(Number),
      status: 200,
      authorization: true,
      tokenIn: ['header'],
    });
    // In the order they came, on the simulator's clock.
    const times = stats.requests.map((r) => r.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.abs(times[0]! - Date.now())).toBeLessThan(60_000);
    expect(stats.requests[4]).toMatchObject({ path: '/api/sites/12/sitemap.xml', authorization: false, tokenIn: [] });
    // GET /__simulator/stats is the same JSON.
    expect((await admin(sim(), 'GET', 'stats')).json()).toEqual(stats);
  });

  it('query: the query string of each request is kept beside its bare path, a token in it masked', async () => {
    await call(sim(), '/api/v1/sites/12/articles/?language=en&limit=5&offset=10');
    await call(sim(), '/api/v1/sites/12/articles/');
    await call(sim(), `/api/sites/12/rss.xml?key=${sim().tokens.pro}&x=btb_leakcheck_q1`, { token: null });
    const [paged, bare, leaked] = sim().stats().requests;
    expect(paged).toMatchObject({ path: '/api/v1/sites/12/articles/', query: 'language=en&limit=5&offset=10' });
    expect(new URLSearchParams(paged!.query).get('offset')).toBe('10');
    expect(bare).not.toHaveProperty('query');
    expect(leaked).toMatchObject({ path: '/api/sites/12/rss.xml', query: 'key=btb_***&x=btb_***', tokenIn: ['url'] });
    expect(JSON.stringify(sim().stats())).not.toContain(sim().tokens.pro);
  });

  it('tokenIn reports a token in the URL, the body or any header, known or leak-check shaped', async () => {
    await call(sim(), `/api/sites/12/rss.xml?key=${sim().tokens.pro}`, { token: null });
    await call(sim(), '/api/v1/audit/', { method: 'POST', body: { title: 'x', content: 'key btb_leakcheck_abc123' } });
    await call(sim(), '/api/sites/12/sitemap.xml', { token: null, headers: { 'x-api-key': sim().tokens.agence } });
    const [url, body, header] = sim().stats().requests;
    expect(url?.tokenIn).toEqual(['url']);
    expect(body?.tokenIn).toEqual(['header', 'body']);
    expect(header).toMatchObject({ authorization: false, tokenIn: ['header'] });
  });

  it('faulted: marks each request whose answer an injected fault shaped (a status, a body, a delay), images too', async () => {
    for (const spec of [
      { route: 'GET /api/v1/sites/:id/articles/', status: 503, times: 1 },
      { route: 'GET /api/sites/:id/rss.xml', body: 'truncated', times: 1 },
      { route: 'GET /api/sites/:id/sitemap.xml', delayMs: 1, times: 1 },
      { route: 'GET /media/*', status: 500, times: 1 },
    ])
      expect((await admin(sim(), 'POST', 'faults', spec)).status).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      await call(sim(), '/api/v1/sites/12/articles/');
      await call(sim(), '/api/sites/12/rss.xml', { token: null });
      await call(sim(), '/api/sites/12/sitemap.xml', { token: null });
      await call(sim(), '/media/sites/12/a/featured-en-1.jpg', { token: null });
    }
    const marks = sim()
      .stats()
      .requests.map((r) => `${r.status} ${r.faulted ?? false}`);
    // The rss answer is cut (200) and the sitemap's late (200): only the mark tells them from the next ones.
    expect(marks).toEqual([
      '503 true',
      '200 true',
      '200 true',
      '500 true',
      '200 false',
      '200 false',
      '200 false',
      '200 false',
    ]);
  });

  it('stats/reset and resetStats() clear only the stats', async () => {
    await call(sim(), '/api/v1/me/');
    expect(sim().stats().authenticated).toBe(1);
    expect((await admin(sim(), 'POST', 'stats/reset')).status).toBe(200);
    expect(sim().stats()).toEqual({ authenticated: 0, public: 0, routes: {}, requests: [] });
    // The window was not cleared.
    expect((await call(sim(), '/api/v1/me/')).headers.get('x-ratelimit-remaining')).toBe('58');
    sim().resetStats();
    expect(sim().stats().authenticated).toBe(0);
  });

  it('unmatched API paths count as authenticated requests under an "(unmatched)" key', async () => {
    await call(sim(), '/api/v1/me');
    expect(sim().stats()).toMatchObject({ authenticated: 1, routes: { 'GET (unmatched)': { '404': 1 } } });
  });
});
