import { describe, expect, it } from 'vitest';
import { admin, call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

const LIST = 'GET /api/v1/sites/:id/articles/';
const list = () => call(sim(), '/api/v1/sites/12/articles/');
async function fault(spec: Record<string, unknown>): Promise<string> {
  const reply = await admin(sim(), 'POST', 'faults', spec);
  expect(reply.status).toBe(201);
  return reply.json().id;
}

describe('fault injection', () => {
  it('status: answers with that status and an {error} body, without running the handler', async () => {
    await fault({ route: 'POST /api/v1/sites/:id/generate/', status: 500, times: 1 });
    const reply = await call(sim(), '/api/v1/sites/12/generate/', { method: 'POST', body: { topic: 'x' } });
    expect(reply.status).toBe(500);
    expect(reply.json()).toEqual({ error: 'Simulated fault: HTTP 500.' });
    // Nothing was generated and no quota was used.
    expect((await call(sim(), '/api/v1/me/')).json().usage.articles_this_month).toBe(0);
    expect((await list()).json().results).toHaveLength(12);
  });

  it('times: applies to the next N requests only', async () => {
    await fault({ route: LIST, status: 503, times: 2 });
    expect([(await list()).status, (await list()).status, (await list()).status]).toEqual([503, 503, 200]);
  });

  it('share: a deterministic share of the matching requests', async () => {
    await fault({ route: LIST, status: 500, share: 0.5 });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await list()).status);
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500]);
  });

  it('429 with retryAfter and headers', async () => {
    await fault({ route: LIST, status: 429, retryAfter: 2, headers: { 'X-RateLimit-Remaining': '0' }, times: 1 });
    const reply = await list();
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('2');
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it("json and literal body replace the response; 'empty' sends nothing", async () => {
    await fault({ route: 'GET /api/v1/me/', json: { username: 42 }, times: 1 });
    expect((await call(sim(), '/api/v1/me/')).json()).toEqual({ username: 42 });
    await fault({ route: 'GET /api/v1/me/', body: 'not json at all', status: 200, times: 1 });
    expect((await call(sim(), '/api/v1/me/')).text).toBe('not json at all');
    await fault({ route: 'GET /api/v1/me/', body: 'empty', times: 1 });
    const empty = await call(sim(), '/api/v1/me/');
    expect([empty.status, empty.text]).toEqual([200, '']);
  });

  it("'html': a 200 HTML error page unless a status is given", async () => {
    await fault({ route: LIST, body: 'html', times: 1 });
    const page = await list();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/^<!DOCTYPE html>/);
    await fault({ route: LIST, body: 'html', status: 502, times: 1 });
    expect((await list()).status).toBe(502);
  });

  it("'truncated': the real body cut in half, still with rate-limit headers", async () => {
    const full = (await list()).text;
    await fault({ route: LIST, body: 'truncated', times: 1 });
    const cut = await list();
    expect(cut.status).toBe(200);
    expect(cut.text).toBe(full.slice(0, Math.floor(full.length / 2)));
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(cut.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it("'huge': the real JSON padded to the requested size, still valid", async () => {
    await fault({ route: 'GET /api/v1/me/', body: 'huge', hugeBytes: 2_000_000, times: 1 });
    const reply = await call(sim(), '/api/v1/me/');
    expect(reply.text.length).toBeGreaterThan(2_000_000);
    expect(reply.json().username).toBe('pro-user');
    await fault({ route: 'GET /api/sites/:id/sitemap.xml', body: 'huge', hugeBytes: 1_000_000, times: 1 });
    const xml = (await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).text;
    expect(xml.length).toBeGreaterThan(1_000_000);
    expect(xml).toMatch(/<\/urlset>\n<!-- x+ -->\n$/);
  });

  it('drift: rename, omit and add on each result', async () => {
    await fault({
      route: LIST,
      drift: { rename: { published_at: 'date' }, omit: ['view_count'], add: { extra: true } },
      times: 1,
    });
    const [first] = (await list()).json().results;
    expect(Object.keys(first).sort()).toEqual(['date', 'extra', 'language', 'slug', 'status', 'title']);
    await fault({ route: 'GET /api/v1/me/', drift: { omit: ['usage'] }, times: 1 });
    expect((await call(sim(), '/api/v1/me/')).json().usage).toBeUndefined();
  });

  it('delayMs: answers late', async () => {
    await fault({ route: LIST, delayMs: 400, times: 1 });
    const started = performance.now();
    expect((await list()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it("drop 'before-headers' and 'mid-body' break the connection", async () => {
    await fault({ route: LIST, drop: 'before-headers', times: 1 });
    await expect(list()).rejects.toThrow();
    await fault({ route: LIST, drop: 'mid-body', times: 1 });
    await expect(list()).rejects.toThrow();
    expect((await list()).status).toBe(200);
    expect(sim().stats().routes[LIST]).toEqual({ '0': 1, '200': 2 });
  });

  it('route "*", concrete paths and globs; the admin API is never affected; DELETE clears', async () => {
    await fault({ route: '*', status: 500 });
    expect((await call(sim(), '/api/v1/me/')).status).toBe(500);
    expect((await call(sim(), '/api/sites/12/rss.xml', { token: null })).status).toBe(500);
    expect((await admin(sim(), 'GET', 'faults')).json().faults).toHaveLength(1);
    expect((await admin(sim(), 'DELETE', 'faults')).status).toBe(204);
    expect((await call(sim(), '/api/v1/me/')).status).toBe(200);

    await fault({ route: 'GET /api/v1/sites/13/articles/', status: 418 });
    expect((await list()).status).toBe(200);
    expect((await call(sim(), '/api/v1/sites/13/articles/')).status).toBe(418);
    const id = await fault({ route: 'GET /api/sites/*', status: 503 });
    expect((await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).status).toBe(503);
    expect((await admin(sim(), 'DELETE', `faults/${id}`)).status).toBe(204);
    expect((await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).status).toBe(200);
  });

  it('400 for an invalid fault, naming the field', async () => {
    const reply = await admin(sim(), 'POST', 'faults', { route: LIST, drop: 'sometimes' });
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatch(/`drop`/);
    expect((await admin(sim(), 'POST', 'faults', { status: 500 })).json().error).toMatch(/`route`/);
  });
});
