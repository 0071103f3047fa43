import { describe, expect, it } from 'vitest';
import { createClient, NotFoundError, ResponseFormatError } from '../../src/client/index.js';
import { fault, proClient, rejection, routeCounts, simulator } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('authenticated endpoints', () => {
  it('me(): the account, with usage (second description), and the rate-limit state', async () => {
    const client = proClient(sim());
    expect(client.rateLimit).toBeUndefined();
    const account = await client.me();
    expect(account).toMatchObject({
      username: 'pro-user',
      email: 'pro@example.com',
      plan: 'pro',
      rate_limit_per_hour: 60,
    });
    expect(account.usage).toMatchObject({ articles_this_month: 0, articles_per_month_limit: 30 });
    expect(account.usage?.month_key).toMatch(/^\d{4}-\d{2}$/);
    expect(client.requestCount).toBe(1);
    expect(client.rateLimit).toEqual({
      limit: 60,
      remaining: 59,
      reset: expect.any(Number),
      resetForm: 'epoch-seconds',
    });
    expect(client.rateLimit!.reset).toBeGreaterThan(Date.now() / 1000 - 5);
    const [record] = sim().stats().requests;
    expect(record).toMatchObject({ path: '/api/v1/me/', status: 200, authorization: true, tokenIn: ['header'] });
  });

  it('me(): usage absent and 30/h under the first description', async () => {
    const first = await simulator({ rateLimits: 'first' });
    try {
      const client = proClient(first);
      const account = await client.me();
      expect(account.usage).toBeUndefined();
      expect(account.rate_limit_per_hour).toBe(30);
      expect(client.rateLimit?.limit).toBe(30);
    } finally {
      await first.close();
    }
  });

  it('sites(): only the active sites of the caller', async () => {
    const sites = await proClient(sim()).sites();
    expect(sites.map((site) => site.id)).toEqual([12, 13]);
    expect(sites[0]).toMatchObject({ id: 12, name: expect.any(String), domain: 'pro-blog.example.com' });
  });

  it('articles(): newest first, with status/language/limit filters', async () => {
    const client = proClient(sim());
    const all = await client.articles(12);
    expect(all).toHaveLength(30);
    expect(all[0]).toEqual({
      slug: expect.any(String),
      title: expect.any(String),
      status: 'published',
      language: expect.stringMatching(/^(en|fr|de|es)$/),
      published_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      view_count: expect.any(Number),
    });
    const dates = all.map((a) => a.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const french = await client.articles(12, { language: 'fr' });
    expect(french.length).toBeGreaterThan(0);
    expect(french.every((a) => a.language === 'fr')).toBe(true);
    expect(await client.articles(12, { limit: 5 })).toHaveLength(5);
    expect(await client.articles(12, { status: 'draft' })).toEqual([]);
    expect(await client.articles(12, { status: 'published', language: 'de', limit: 2 })).toHaveLength(2);
    expect(client.requestCount).toBe(5);
  });

  it('article(): the detail with its HTML content', async () => {
    const client = proClient(sim());
    const [first] = await client.articles(12, { limit: 1 });
    const detail = await client.article(12, first!.slug);
    expect(detail.slug).toBe(first!.slug);
    expect(detail.content).toContain('<h2');
    expect(detail.url).toBe(`https://pro-blog.example.com/blog/${first!.slug}/`);
    expect(detail.updated_at).toEqual(expect.any(String));
    expect(Array.isArray(detail.keywords)).toBe(true);
  });

  it('generate(): publishes an article at the top of the list, with `type`', async () => {
    const client = proClient(sim());
    const result = await client.generate(12, { topic: 'composting in small gardens', type: 'guide', length: 'short' });
    expect(result.output).toContain('Audit score: 87/100');
    expect(result.output).toMatch(/Published: https:\/\/pro-blog\.example\.com\/blog\/.+\//);
    expect(result.post_count).toEqual(expect.any(Number));
    const [newest] = await client.articles(12, { limit: 1 });
    expect(newest!.title.toLowerCase()).toContain('composting');
  });

  it('generate(): the other description’s `article_type` is accepted', async () => {
    const result = await proClient(sim()).generate(12, { title: 'Ten local bakeries', article_type: 'local' });
    expect(result.output).toContain('Published:');
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/generate/')).toEqual({ '200': 1 });
  });

  it('audit(): score and suggestions; the same body twice is a cache hit', async () => {
    const client = proClient(sim());
    const body = {
      title: 'Hello',
      excerpt: 'A short text',
      content: '<p>Hello world</p>',
      keyword: 'hello',
      language: 'en',
    };
    const first = await client.audit(body);
    expect(first.score).toEqual(expect.any(Number));
    expect(Array.isArray(first.suggestions)).toBe(true);
    expect(first.cache_hit).toBe(false);
    expect((await client.audit(body)).cache_hit).toBe(true);
  });

  it('brief(): intent, outline, entities, faq, eeat_signals', async () => {
    const brief = await proClient(sim()).brief({ keyword: 'sourdough starter', language: 'en' });
    expect(brief.intent).toBeDefined();
    for (const field of ['outline', 'entities', 'faq', 'eeat_signals'] as const)
      expect(Array.isArray(brief[field])).toBe(true);
    expect(brief.outline.length).toBeGreaterThan(0);
  });

  it('keywords() and snapshot(): tracked keywords, then moved positions', async () => {
    const client = proClient(sim());
    const keywords = await client.keywords(12);
    expect(keywords.length).toBeGreaterThan(0);
    expect(keywords[0]).toMatchObject({ keyword: expect.any(String) });
    const snapshot = await client.snapshot(12);
    expect(snapshot.updated).toEqual(expect.any(Number));
    expect(snapshot.results?.length).toBe(keywords.length);
    expect(routeCounts(sim(), 'POST /api/v1/sites/:id/keywords/snapshot/')).toEqual({ '200': 1 });
  });

  it('digest(): the weekly digest', async () => {
    const digest = await proClient(sim()).digest(12);
    expect(digest.week).toEqual(expect.any(String));
    expect(Array.isArray(digest.position_movements)).toBe(true);
    expect(Array.isArray(digest.alerts)).toBe(true);
  });

  it('keywords(), snapshot(), digest(): the shapes the API document leaves open are read, not refused', async () => {
    const client = proClient(sim());
    await fault(sim(), { route: 'GET /api/v1/sites/:id/keywords/', json: { keywords: [{ term: 'a' }] }, times: 1 });
    expect(await client.keywords(12)).toEqual([{ term: 'a' }]);
    await fault(sim(), { route: 'GET /api/v1/sites/:id/keywords/', json: { count: 1 }, times: 1 });
    const none = (await rejection(client.keywords(12))) as ResponseFormatError;
    expect(none).toBeInstanceOf(ResponseFormatError);
    expect(none.message).toContain(
      'expected the tracked keywords as an array of records, or an object holding one such array (like `results`); got an object with no array (fields: count)',
    );
    await fault(sim(), { route: 'GET /api/v1/sites/:id/keywords/', json: { keywords: [{ position: 'x' }] }, times: 1 });
    expect(await rejection(client.keywords(12))).toMatchObject({ fieldPath: 'keywords[0].position' });

    const snapshotRoute = 'POST /api/v1/sites/:id/keywords/snapshot/';
    await fault(sim(), { route: snapshotRoute, body: 'empty', times: 1 });
    expect(await client.snapshot(12)).toEqual({});
    await fault(sim(), { route: snapshotRoute, json: [{ keyword: 'k', position: 2 }], times: 1 });
    expect(await client.snapshot(12)).toEqual({ results: [{ keyword: 'k', position: 2 }] });
    await fault(sim(), { route: snapshotRoute, json: { status: 'queued' }, times: 1 });
    expect(await client.snapshot(12)).toEqual({ status: 'queued' });
    await fault(sim(), { route: snapshotRoute, json: 'done', times: 1 });
    expect((await rejection(client.snapshot(12))).message).toContain(
      'expected a JSON object or an array of keyword records; got a string',
    );

    await fault(sim(), {
      route: 'GET /api/v1/sites/:id/digest/weekly/',
      json: { summary: 'quiet', score: '80' },
      times: 1,
    });
    expect(await client.digest(12)).toEqual({ summary: 'quiet', score: '80' });
  });

  it('articles(): a service that pages its list gets a warning naming articlesPage()', async () => {
    const paged = await simulator({ profile: 'paged', articles: 130 });
    try {
      const warnings: string[] = [];
      const client = proClient(paged, { logger: { warn: (line) => warnings.push(line) } });
      expect(await client.articles(12)).toHaveLength(50);
      expect(warnings).toEqual([
        '[astro-content-publisher] GET /api/v1/sites/12/articles/: 50 of 130 articles returned, the service pages this list: articlesPage(siteId, query, offset) returns `count` and `next` and reads the next pages.',
      ]);
      // All asked for were returned: nothing to say.
      expect(await client.articles(12, { limit: 10 })).toHaveLength(10);
      expect(warnings).toHaveLength(1);
      const page = await client.articlesPage(12, undefined, 100);
      expect(page).toMatchObject({ count: 130, next: null });
      expect(page.results).toHaveLength(30);
    } finally {
      await paged.close();
    }
  });

  it('concurrency: never more requests in flight than the cap', async () => {
    let inFlight = 0;
    let peak = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const client = proClient(sim(), { concurrency: 2, fetch: countingFetch });
    const slugs = (await client.articles(12, { limit: 8 })).map((a) => a.slug);
    const details = await Promise.all(slugs.map((slug) => client.article(12, slug)));
    expect(details.map((d) => d.slug)).toEqual(slugs);
    expect(peak).toBe(2);
  });
});

describe('public feeds', () => {
  it('sitemap(): XML without the key, not counted, then 304 on If-None-Match and If-Modified-Since', async () => {
    const client = proClient(sim());
    const first = await client.sitemap(12);
    if (first.notModified) throw new Error('expected a 200');
    expect(first.status).toBe(200);
    expect(first.body).toContain('<urlset');
    expect(first.body).toContain('https://pro-blog.example.com/blog/');
    expect(first.cacheControl).toBe('public, max-age=3600');
    expect(first.url).toBe(`${sim().url}/api/sites/12/sitemap.xml`);
    expect(first.etag).toBeTruthy();
    expect(first.lastModified).toBeTruthy();

    const byEtag = await client.sitemap(12, { etag: first.etag });
    expect(byEtag).toMatchObject({ notModified: true, status: 304, etag: first.etag });
    const byDate = await client.sitemap(12, { lastModified: first.lastModified });
    expect(byDate).toMatchObject({ notModified: true, status: 304 });

    expect(client.requestCount).toBe(0);
    expect(client.rateLimit).toBeUndefined();
    const stats = sim().stats();
    expect(stats.public).toBe(3);
    expect(stats.authenticated).toBe(0);
    expect(stats.requests.every((r) => !r.authorization && r.tokenIn.length === 0)).toBe(true);
    expect(routeCounts(sim(), 'GET /api/sites/:id/sitemap.xml')).toEqual({ '200': 1, '304': 2 });
  });

  it('rss(): works without any key; a new article makes the old ETag stale', async () => {
    const anonymous = createClient({ baseUrl: `${sim().url}/` });
    const first = await anonymous.rss(12);
    if (first.notModified) throw new Error('expected a 200');
    expect(first.body).toContain('<rss');
    expect(first.body).toContain('<content:encoded>');
    expect((await anonymous.rss(12, { etag: first.etag })).notModified).toBe(true);
    await proClient(sim()).generate(12, { topic: 'fresh news' });
    const after = await anonymous.rss(12, { etag: first.etag, lastModified: first.lastModified });
    if (after.notModified) throw new Error('expected a 200 after a new article');
    expect(after.etag).not.toBe(first.etag);
    expect(after.body).toContain('Fresh news');
  });

  it("rss(): a CDN edge's copy says how old it is (Age, seconds); the origin's answer has no age", async () => {
    // Two edges taking turns: the first answer is the origin's, the second an edge's copy.
    const edges = await simulator({ variants: { feedStaleEdgeSeconds: 3600 } });
    try {
      const anonymous = createClient({ baseUrl: edges.url });
      const origin = await anonymous.rss(12);
      const edge = await anonymous.rss(12);
      if (origin.notModified || edge.notModified) throw new Error('expected two 200s');
      expect(origin.age).toBeUndefined();
      expect(edge.age).toBe(0);
    } finally {
      await edges.close();
    }
  });

  it('an unknown or inactive site is a NotFoundError', async () => {
    const anonymous = createClient({ baseUrl: sim().url });
    const error = await rejection(anonymous.sitemap(14));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatch(/^\[GET\] \/api\/sites\/14\/sitemap\.xml: 404 Not Found/);
    expect(routeCounts(sim(), 'GET /api/sites/:id/sitemap.xml')).toEqual({ '404': 1 });
  });
});
