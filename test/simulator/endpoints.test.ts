import { describe, expect, it } from 'vitest';
import { call, start } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('startSimulator', () => {
  it('listens on 127.0.0.1 with a free port and names its tokens and sites', () => {
    expect(sim().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim().tokens).toEqual({
      free: 'btb_sim_free_1',
      solo: 'btb_sim_solo_1',
      pro: 'btb_sim_pro_1',
      agence: 'btb_sim_agence_1',
    });
    expect(sim().extraTokens.pro).toEqual(['btb_sim_pro_2']);
    expect(sim().sites).toEqual({ pro: [12, 13], agence: [21, 22] });
  });

  it('refuses an unknown option with a message naming it', async () => {
    await expect(start({ prot: 1 } as never)).rejects.toThrow(
      'Unknown option `prot` for startSimulator(): remove it or check its spelling.',
    );
    await expect(start({ rateLimits: 'third' } as never)).rejects.toThrow(/`rateLimits`/);
  });

  it('a request body over 1 MiB: 413 with a JSON error, not a 500', async () => {
    const big = JSON.stringify({ content: 'x'.repeat(1024 * 1024 + 10), keyword: 'k' });
    const reply = await call(sim(), '/api/v1/audit/', { method: 'POST', body: big });
    expect(reply.status).toBe(413);
    expect(reply.json()).toEqual({ error: 'Request body larger than 1048576 bytes.' });
    // The simulator keeps serving.
    expect((await call(sim(), '/api/v1/me/')).status).toBe(200);
  });

  it('names the port when it is already taken', async () => {
    const port = Number(new URL(sim().url).port);
    await expect(start({ port })).rejects.toThrow(`simulator \`port\` ${port} is already in use on 127.0.0.1`);
  });
});

describe('authenticated endpoints', () => {
  it('GET /me/: account with usage, and rate-limit headers', async () => {
    const reply = await call(sim(), '/api/v1/me/');
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      username: 'pro-user',
      email: 'pro@example.com',
      plan: 'pro',
      rate_limit_per_hour: 60,
      usage: { articles_this_month: 0, articles_per_month_limit: 30, month_key: new Date().toISOString().slice(0, 7) },
    });
    expect(reply.headers.get('x-ratelimit-limit')).toBe('60');
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(Number(reply.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('GET /sites/: only the active sites of the caller', async () => {
    expect((await call(sim(), '/api/v1/sites/')).json()).toEqual({
      results: [
        { id: 12, name: 'Pro Blog', domain: 'pro-blog.example.com', is_cms: false },
        { id: 13, name: 'Pro Shop Journal', domain: 'site-13.example.com', is_cms: true },
      ],
    });
    const agence = (await call(sim(), '/api/v1/sites/', { token: sim().tokens.agence })).json();
    expect(agence.results.map((s: { id: number }) => s.id)).toEqual([21, 22]);
  });

  it('GET articles: newest first, languages cycling, unique slugs, list item shape', async () => {
    const { results } = (await call(sim(), '/api/v1/sites/12/articles/')).json();
    expect(results).toHaveLength(12);
    expect(Object.keys(results[0]).sort()).toEqual([
      'language',
      'published_at',
      'slug',
      'status',
      'title',
      'view_count',
    ]);
    expect(results.slice(0, 4).map((a: { language: string }) => a.language)).toEqual(['en', 'fr', 'de', 'es']);
    const dates = results.map((a: { published_at: string }) => a.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(results.map((a: { slug: string }) => a.slug)).size).toBe(12);
    for (const article of results) {
      expect(article.published_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(article.status).toBe('published');
    }
  });

  it('GET articles: status, language and limit filters; 400 on a non-integer limit', async () => {
    const list = (query: string) => call(sim(), `/api/v1/sites/12/articles/${query}`);
    expect((await list('?language=fr')).json().results.every((a: { language: string }) => a.language === 'fr')).toBe(
      true,
    );
    expect((await list('?language=fr')).json().results).toHaveLength(3);
    expect((await list('?status=published&limit=5')).json().results).toHaveLength(5);
    expect((await list('?status=draft')).json().results).toEqual([]);
    expect((await list('?limit=5000')).json().results).toHaveLength(12);
    const bad = await list('?limit=ten');
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/`limit` must be a positive integer/);
  });

  it('GET article detail: full shape, realistic HTML, view_count grows on every read', async () => {
    const [first] = (await call(sim(), '/api/v1/sites/12/articles/')).json().results;
    const detail = (await call(sim(), `/api/v1/sites/12/articles/${first.slug}/`)).json();
    expect(detail).toMatchObject({
      slug: first.slug,
      title: first.title,
      status: 'published',
      language: 'en',
      published_at: first.published_at,
    });
    expect(detail.url).toBe(`https://pro-blog.example.com/blog/${first.slug}/`);
    expect(detail.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(detail.featured_image).toBe(`${sim().url}/media/sites/12/${first.slug}/featured.jpg`);
    expect(detail.keywords.length).toBeGreaterThan(0);
    expect(typeof detail.excerpt).toBe('string');
    expect(typeof detail.meta_description).toBe('string');
    const html: string = detail.content;
    for (const pattern of [
      /<h2>/,
      /<h3>/,
      /<p>/,
      /<ul>/,
      /<ol>/,
      /<table>/,
      /<figure><img src="http:\/\/127\.0\.0\.1:\d+\/media\/sites\/12\//,
      /<a href="https:\/\/pro-blog\.example\.com\/blog\/[^"]+\/">/,
      /<a href="\/blog\/[^"]+\/">/,
      /<pre><code/,
      /<iframe [^>]*src="https:\/\/www\.youtube\.com\/embed\/[\w-]{11}"/,
    ]) {
      expect(html).toMatch(pattern);
    }
    expect(html.match(/<iframe/g)).toHaveLength(1);
    const again = (await call(sim(), `/api/v1/sites/12/articles/${first.slug}/`)).json();
    expect(again.view_count).toBe(detail.view_count + 1);
    expect(detail.view_count).toBe(first.view_count + 1);
  });

  it('the same seed gives the same content; another seed another', async () => {
    const other = await start({ seed: 1 });
    const third = await start({ seed: 2 });
    try {
      const a = (await call(sim(), '/api/v1/sites/21/articles/', { token: sim().tokens.agence })).text;
      expect((await call(other, '/api/v1/sites/21/articles/', { token: other.tokens.agence })).text).toBe(a);
      expect((await call(third, '/api/v1/sites/21/articles/', { token: third.tokens.agence })).text).not.toBe(a);
    } finally {
      await other.close();
      await third.close();
    }
  });

  it('POST audit: score, suggestions, cache_hit on the same body twice; 400 without content or title', async () => {
    const body = { title: 'Sourdough', content: '<p>Short</p>', keyword: 'sourdough', language: 'en' };
    const first = (await call(sim(), '/api/v1/audit/', { method: 'POST', body })).json();
    expect(first.score).toBeGreaterThanOrEqual(0);
    expect(first.score).toBeLessThanOrEqual(100);
    expect(first.suggestions.length).toBeGreaterThan(0);
    expect(first.suggestions[0]).toEqual({ type: expect.any(String), message: expect.any(String) });
    expect(first.cache_hit).toBe(false);
    const second = (await call(sim(), '/api/v1/audit/', { method: 'POST', body })).json();
    expect(second).toEqual({ ...first, cache_hit: true });
    const bad = await call(sim(), '/api/v1/audit/', { method: 'POST', body: { keyword: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ error: expect.stringMatching(/content.*title/) });
  });

  it('POST brief: intent, outline, entities, faq, eeat_signals; 400 without keyword', async () => {
    const brief = (
      await call(sim(), '/api/v1/brief/', { method: 'POST', body: { keyword: 'trail running', language: 'en' } })
    ).json();
    expect(typeof brief.intent).toBe('string');
    expect(brief.outline.length).toBeGreaterThan(2);
    expect(brief.entities.length).toBeGreaterThan(0);
    expect(brief.faq[0]).toEqual({ question: expect.any(String), answer: expect.any(String) });
    expect(brief.eeat_signals.length).toBeGreaterThan(0);
    expect((await call(sim(), '/api/v1/brief/', { method: 'POST', body: {} })).status).toBe(400);
    expect((await call(sim(), '/api/v1/brief/', { method: 'POST', body: '{not json' })).status).toBe(400);
  });

  it('keywords, snapshot (moves positions) and weekly digest', async () => {
    const { results } = (await call(sim(), '/api/v1/sites/12/keywords/')).json();
    expect(results.length).toBeGreaterThan(3);
    expect(Object.keys(results[0]).sort()).toEqual([
      'keyword',
      'position',
      'previous_position',
      'updated_at',
      'url',
      'volume',
    ]);
    const snapshot = (await call(sim(), '/api/v1/sites/12/keywords/snapshot/', { method: 'POST' })).json();
    expect(snapshot.updated).toBe(results.length);
    expect(snapshot.results.map((r: { previous_position: number }) => r.previous_position)).toEqual(
      results.map((r: { position: number }) => r.position),
    );
    const after = (await call(sim(), '/api/v1/sites/12/keywords/')).json().results;
    expect(after).toEqual(snapshot.results);
    const digest = (await call(sim(), '/api/v1/sites/12/digest/weekly/')).json();
    expect(digest.week).toMatch(/^\d{4}-W\d{2}$/);
    expect(digest.publications.length).toBeGreaterThan(0);
    expect(typeof digest.average_audit_score).toBe('number');
    expect(Array.isArray(digest.position_movements)).toBe(true);
    expect(Array.isArray(digest.alerts)).toBe(true);
  });
});

describe('errors', () => {
  it('401 without a token, with a malformed header, with an unknown token; never echoes the token', async () => {
    const none = await call(sim(), '/api/v1/me/', { token: null });
    expect(none.status).toBe(401);
    expect(none.json().error).toMatch(/Authorization: Bearer/);
    const malformed = await call(sim(), '/api/v1/me/', {
      headers: { authorization: 'Token btb_sim_pro_1' },
      token: null,
    });
    expect(malformed.status).toBe(401);
    const unknown = await call(sim(), '/api/v1/me/', { token: 'btb_leakcheck_zz9' });
    expect(unknown.status).toBe(401);
    expect(unknown.text).not.toContain('btb_leakcheck_zz9');
    expect((await call(sim(), '/api/v1/me/', { token: 'sk_not_btb' })).status).toBe(401);
  });

  it('403 for the free and solo plans', async () => {
    for (const token of [sim().tokens.free, sim().tokens.solo]) {
      const reply = await call(sim(), '/api/v1/sites/31/articles/', { token });
      expect(reply.status).toBe(403);
      expect(reply.json().error).toMatch(/Move to Pro/);
    }
  });

  it("404 for another user's site, an inactive site, an unknown site, an unknown slug, an unknown path", async () => {
    expect((await call(sim(), '/api/v1/sites/21/articles/')).status).toBe(404);
    expect((await call(sim(), '/api/v1/sites/14/articles/')).status).toBe(404);
    expect((await call(sim(), '/api/v1/sites/999/keywords/')).status).toBe(404);
    const slug = await call(sim(), '/api/v1/sites/12/articles/no-such-article/');
    expect(slug.status).toBe(404);
    expect(slug.json()).toEqual({ error: expect.stringContaining('no-such-article') });
    expect((await call(sim(), '/api/v1/nothing/')).status).toBe(404);
    expect((await call(sim(), '/api/v1/me/', { method: 'DELETE' })).status).toBe(405);
  });

  it('502 on every CMS-backed endpoint of site 13, with rate-limit headers', async () => {
    const list = await call(sim(), '/api/v1/sites/13/articles/');
    expect(list.status).toBe(502);
    expect(list.json().error).toMatch(/CMS of site 13 .* unreachable/);
    expect(list.headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await call(sim(), '/api/v1/sites/13/articles/anything/')).status).toBe(502);
    expect((await call(sim(), '/api/v1/sites/13/generate/', { method: 'POST', body: { topic: 'x' } })).status).toBe(
      502,
    );
    expect((await call(sim(), '/api/v1/sites/13/keywords/')).status).toBe(200);
  });
});
