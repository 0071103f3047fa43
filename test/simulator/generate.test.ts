import { describe, expect, it } from 'vitest';
import { call, start } from './helpers.js';
import { useSimulator } from './setup.js';

// Pro's monthly quota (30) plus credits (2) must fit in the window: lift the limit for this file.
const sim = useSimulator({ rateLimitOverride: 500 });

const generate = (body: unknown, token?: string) =>
  call(sim(), '/api/v1/sites/12/generate/', { method: 'POST', body, token });

describe('POST generate', () => {
  it('publishes a new article at the top of the list, the sitemap and the RSS feed, and returns output and post_count', async () => {
    const reply = await generate({
      topic: 'beekeeping for beginners',
      type: 'guide',
      length: 'short',
      language: 'en',
      keywords: 'bees, honey',
    });
    expect(reply.status).toBe(200);
    const { output, post_count } = reply.json();
    expect(post_count).toBe(13);
    expect(output.split('\n').length).toBeGreaterThan(2);
    expect(output).toContain('beekeeping for beginners');
    expect(output).toContain('Audit score: 87/100');
    const url = /Published: (\S+)/.exec(output)?.[1];
    expect(url).toBe('https://pro-blog.example.com/blog/beekeeping-for-beginners/');

    const [top] = (await call(sim(), '/api/v1/sites/12/articles/')).json().results;
    expect(top).toMatchObject({
      slug: 'beekeeping-for-beginners',
      title: 'Beekeeping for beginners',
      language: 'en',
      view_count: 0,
    });
    expect(top.published_at).toBe(new Date().toISOString().slice(0, 10));
    const detail = (await call(sim(), '/api/v1/sites/12/articles/beekeeping-for-beginners/')).json();
    expect(detail.keywords).toEqual(['bees', 'honey']);
    expect(detail.content).toMatch(/<h2>/);
    const sitemap = (await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).text;
    expect(sitemap.indexOf('beekeeping-for-beginners')).toBeLessThan(
      sitemap.indexOf('<url>', sitemap.indexOf('<url>') + 1),
    );
    const rss = (await call(sim(), '/api/sites/12/rss.xml', { token: null })).text;
    expect(rss.indexOf('<item>')).toBeLessThan(rss.indexOf('beekeeping-for-beginners'));
    expect(rss.indexOf('beekeeping-for-beginners')).toBeLessThan(rss.indexOf('<item>', rss.indexOf('<item>') + 1));
  });

  it('accepts `title` instead of `topic` and `article_type` instead of `type`; slugs stay unique', async () => {
    const first = await generate({ title: 'Same title', article_type: 'review' });
    const second = await generate({ title: 'Same title', article_type: 'review' });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json().output).toContain('/blog/same-title-2/');
  });

  it('400 without topic or title, with an unknown type or length', async () => {
    for (const [body, message] of [
      [{ type: 'guide' }, /`topic` or `title`/],
      [{ topic: 'x', type: 'essay' }, /`type` must be one of news, tutorial/],
      [{ topic: 'x', article_type: 'essay' }, /`type` must be one of/],
      [{ topic: 'x', length: 'huge' }, /`length` must be one of short, medium, long/],
      [{ topic: 42 }, /`topic` must be a string/],
    ] as const) {
      const reply = await generate(body);
      expect(reply.status).toBe(400);
      expect(reply.json().error).toMatch(message);
    }
    expect((await call(sim(), '/api/v1/me/')).json().usage.articles_this_month).toBe(0);
  });

  it('consumes the monthly quota, then the credits, then answers 402', async () => {
    for (let i = 0; i < 30; i += 1) expect((await generate({ topic: `quota ${i}` })).status).toBe(200);
    expect((await call(sim(), '/api/v1/me/')).json().usage).toMatchObject({
      articles_this_month: 30,
      articles_per_month_limit: 30,
    });
    expect((await generate({ topic: 'credit 1' })).status).toBe(200);
    expect((await generate({ topic: 'credit 2' })).status).toBe(200);
    const refused = await generate({ topic: 'one too many' });
    expect(refused.status).toBe(402);
    expect(refused.json().error).toMatch(/quota and credits are exhausted/);
    // The refused call published nothing.
    expect((await call(sim(), '/api/v1/sites/12/articles/')).json().results).toHaveLength(12 + 32);
  });

  it('agence has no credits: 402 right after its 150 articles', async () => {
    const agence = (body: unknown) =>
      call(sim(), '/api/v1/sites/21/generate/', { method: 'POST', body, token: sim().tokens.agence });
    for (let i = 0; i < 150; i += 1) await agence({ topic: `a ${i}` });
    expect((await agence({ topic: 'over' })).status).toBe(402);
  });

  it('takes the configured delay', async () => {
    const slow = await start({ generateDelayMs: 300 });
    try {
      const started = performance.now();
      const reply = await call(slow, '/api/v1/sites/12/generate/', { method: 'POST', body: { topic: 'slow' } });
      expect(reply.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.close();
    }
  });
});
