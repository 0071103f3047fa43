/**
 * Service variants: every answer the API document leaves open, selectable at start, by CLI flag and at run
 * time through the admin API; the defaults stay the simulator's original behaviour.
 */
import { describe, expect, it } from 'vitest';
import { SITES } from '../../src/simulator/accounts.js';
import { seedArticles } from '../../src/simulator/articles.js';
import { parseSimulatorArgs } from '../../src/simulator/cli.js';
import { resolveSimulatorOptions } from '../../src/simulator/options.js';
import { articleUrl } from '../../src/simulator/shapes.js';
import { admin, call, start } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator({ articles: 130 });
const LIST = '/api/v1/sites/12/articles/';
const setVariants = (body: unknown) => admin(sim(), 'PUT', 'variants', body);
const list = async (query = '') => (await call(sim(), `${LIST}${query}`)).json();

describe('list size and paging', () => {
  it('by default: up to 1000 articles, no paging keys, paging parameters ignored', async () => {
    const body = await list('?offset=10&page=2');
    expect(body.results).toHaveLength(130);
    expect(Object.keys(body)).toEqual(['results']);
  });

  it('listDefault and listMax: the default page without limit, limits clamped to the maximum', async () => {
    await setVariants({ variants: { listDefault: 20, listMax: 50 } });
    expect((await list()).results).toHaveLength(20);
    expect((await list('?limit=100')).results).toHaveLength(50);
    expect((await list('?limit=7')).results).toHaveLength(7);
    await setVariants({ variants: { listMax: 'none' } });
    expect((await list()).results).toHaveLength(130);
  });

  it('next-count: count and a next URL that walks every article once', async () => {
    await setVariants({ variants: { listMax: 50, paging: 'next-count' } });
    const seen: string[] = [];
    let body = await list();
    expect(body.count).toBe(130);
    for (;;) {
      seen.push(...body.results.map((a: { slug: string }) => a.slug));
      if (!body.next) break;
      const next = new URL(body.next as string);
      expect(next.origin).toBe(sim().url);
      body = await list(next.search);
    }
    expect(seen).toHaveLength(130);
    expect(new Set(seen).size).toBe(130);
  });

  it('offset and page parameters; a bad one is a 400 naming it', async () => {
    await setVariants({ variants: { listMax: 50, paging: 'offset' } });
    const first = await list();
    expect(Object.keys(first)).toEqual(['results']);
    expect((await list('?offset=50')).results[0].slug).not.toBe(first.results[0].slug);
    expect((await list('?offset=120')).results).toHaveLength(10);
    await setVariants({ variants: { listMax: 50, paging: 'page' } });
    expect((await list('?page=3')).results).toHaveLength(30);
    expect((await call(sim(), `${LIST}?page=0`)).json().error).toMatch(/`page` must be an integer of at least 1/);
  });
});

describe('feeds', () => {
  const sitemap = async () => (await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).text;
  const rss = async () => (await call(sim(), '/api/sites/12/rss.xml', { token: null })).text;

  it('sitemapLastmod: update time, date only, publication date, absent', async () => {
    expect(await sitemap()).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);
    await setVariants({ variants: { sitemapLastmod: 'date' } });
    expect(await sitemap()).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);
    expect(await sitemap()).not.toMatch(/<lastmod>[^<]*T/);
    const { slug } = (await list()).results[0];
    await setVariants({ variants: { sitemapLastmod: 'published' } });
    const before = await sitemap();
    await admin(sim(), 'PATCH', `articles/12/${slug}`, { content: '<p>edited</p>' });
    expect(await sitemap()).toBe(before);
    await setVariants({ variants: { sitemapLastmod: 'absent' } });
    expect(await sitemap()).not.toContain('<lastmod>');
  });

  it("sitemapPages: the articles only, or the site's home, blog index and tag pages too", async () => {
    const articles = await sitemap();
    expect(articles).not.toContain('<loc>https://pro-blog.example.com/</loc>');
    await setVariants({ variants: { sitemapPages: 'site' } });
    const site = await sitemap();
    const locs = [...site.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs.slice(0, 2)).toEqual(['https://pro-blog.example.com/', 'https://pro-blog.example.com/blog/']);
    expect(locs.at(-1)).toMatch(/^https:\/\/pro-blog\.example\.com\/tags\/[^/]+\/$/);
    expect(locs.filter((loc) => /\/blog\/[^/]+\/$/.test(loc!))).toHaveLength(articles.split('<url>').length - 1);
  });

  it('rssContent: full, teaser, description only, neither', async () => {
    const { slug } = (await list()).results[0];
    const detail = (await call(sim(), `${LIST}${slug}/`)).json();
    expect(await rss()).toContain(detail.content);
    await setVariants({ variants: { rssContent: 'teaser' } });
    const teaser = await rss();
    expect(teaser).toContain('Read more</a></p>]]></content:encoded>');
    expect(teaser).not.toContain(detail.content);
    await setVariants({ variants: { rssContent: 'description' } });
    expect(await rss()).not.toContain('content:encoded>');
    expect(await rss()).toContain('<description>');
    await setVariants({ variants: { rssContent: 'none' } });
    expect(await rss()).not.toMatch(/<description>(?!Latest articles)/);
  });

  it('feedCdnMaxAgeSeconds: the feeds keep serving the copy taken before a publish', async () => {
    await setVariants({ variants: { feedCdnMaxAgeSeconds: 3600 } });
    const before = await sitemap();
    expect(await rss()).not.toContain('fresh-one');
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'Fresh', slug: 'fresh-one' });
    expect((await list()).results[0].slug).toBe('fresh-one');
    expect(await sitemap()).toBe(before);
    expect(await rss()).not.toContain('fresh-one');
  });
});

describe('shared slugs and rate-limit headers', () => {
  it('sharedSlugs: one slug in en and fr, language in the URL, the detail answers the oldest', async () => {
    // Seeded content depends on it: a simulator started with the variant.
    const shared = await start({ articles: 12, variants: { sharedSlugs: true } });
    try {
      const items = (await call(shared, LIST)).json().results as Array<{ slug: string; language: string }>;
      const twice = items.filter((a) => items.filter((b) => b.slug === a.slug).length === 2);
      expect(new Set(twice.map((a) => a.language))).toEqual(new Set(['en', 'fr']));
      const slug = twice[0]!.slug;
      const map = (await call(shared, '/api/sites/12/sitemap.xml', { token: null })).text;
      expect(map).toContain(`/en/blog/${slug}/`);
      expect(map).toContain(`/fr/blog/${slug}/`);
      const detail = (await call(shared, `${LIST}${slug}/`)).json();
      expect(detail.url).toContain(`/${detail.language}/blog/${slug}/`);
      // A slug is unique per language: publishing it again in de is accepted, in en refused.
      expect(
        (
          await call(shared, '/__simulator/articles', {
            method: 'POST',
            token: null,
            body: { site: 12, title: 'x', slug, language: 'de' },
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await call(shared, '/__simulator/articles', {
            method: 'POST',
            token: null,
            body: { site: 12, title: 'x', slug, language: 'en' },
          })
        ).status,
      ).toBe(409);
    } finally {
      await shared.close();
    }
  });

  it('sharedSlugs: every seeded body links to articles the service has, at their URLs with the language', () => {
    const site = SITES.find((s) => s.id === 12)!;
    const articles = seedArticles(site, 1, 24, true);
    const urls = new Set(articles.map((a) => articleUrl(site, a.slug, a.language)));
    const origin = new URL([...urls][0]!).origin;
    const links = articles.flatMap((a) =>
      [...a.content.matchAll(/<a href="([^"]+)"/g)].map((m) => new URL(m[1]!, origin).href),
    );
    // Two links per body ("see also"), absolute and relative, each to a published article's own URL: none to the
    // slug an `fr` article had before it took its translation's, none without the language.
    expect(links.length).toBe(2 * articles.length);
    expect(links.filter((link) => !urls.has(link))).toEqual([]);
    expect(links.some((link) => link.includes('/fr/blog/'))).toBe(true);
    expect(new Set(articles.map((a) => a.slug)).size).toBeLessThan(articles.length);
  });

  it('rateLimitReset delta and retryAfter zero / http-date', async () => {
    const small = await start({ rateLimitOverride: 1, variants: { rateLimitReset: 'delta', retryAfter: 'zero' } });
    try {
      const ok = await call(small, '/api/v1/me/');
      expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeGreaterThan(3000);
      expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(3601);
      const limited = await call(small, '/api/v1/me/');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('0');
      await call(small, '/__simulator/variants', {
        method: 'PUT',
        token: null,
        body: { variants: { retryAfter: 'http-date' } },
      });
      const dated = (await call(small, '/api/v1/me/')).headers.get('retry-after')!;
      expect(Date.parse(dated)).toBeLessThan(Date.now());
      expect(Number((await call(small, '/api/v1/me/')).headers.get('x-ratelimit-reset'))).toBeGreaterThan(
        1_700_000_000,
      );
    } finally {
      await small.close();
    }
  });
});

describe('selecting variants', () => {
  it('profiles, overrides on top, admin GET/PUT, reset restores the start variants', async () => {
    expect(resolveSimulatorOptions({ profile: 'paged' }).variants).toMatchObject({
      listDefault: 50,
      listMax: 100,
      paging: 'next-count',
    });
    expect(resolveSimulatorOptions({ profile: 'paged', variants: { listMax: 20 } }).variants.listMax).toBe(20);
    expect(() => resolveSimulatorOptions({ variants: { listMax: 0 } })).toThrow(
      /`variants.listMax` is invalid: too small/,
    );
    expect(() => resolveSimulatorOptions({ profile: 'nope' as never })).toThrow(/`profile`/);
    await setVariants({ profile: 'sparse' });
    expect((await admin(sim(), 'GET', 'variants')).json().variants).toMatchObject({
      listMax: 20,
      rssContent: 'teaser',
    });
    // A profile with keys on top: the keys named replace the profile's, the others stay the profile's (found by a
    // new user: the schema's defaults of the unnamed keys replaced the profile's).
    await setVariants({ profile: 'paged', variants: { listDefault: 5 } });
    expect((await admin(sim(), 'GET', 'variants')).json().variants).toMatchObject({
      listDefault: 5,
      listMax: 100,
      paging: 'next-count',
    });
    expect((await setVariants({ variants: { paging: 'sideways' } })).status).toBe(400);
    await admin(sim(), 'POST', 'reset');
    expect((await admin(sim(), 'GET', 'variants')).json().variants).toMatchObject({
      listMax: 1000,
      paging: 'none',
      rssContent: 'full',
    });
  });

  it('CLI: --profile and repeated --variant key=value', () => {
    const parsed = parseSimulatorArgs([
      '--profile',
      'multilingual',
      '--variant',
      'listMax=50',
      '--variant',
      'sharedSlugs=false',
      '--variant',
      'paging=offset',
    ]);
    expect(parsed).toEqual({
      options: { profile: 'multilingual', variants: { listMax: 50, sharedSlugs: false, paging: 'offset' } },
      help: false,
    });
    expect(parseSimulatorArgs(['--variant', 'listMax'])).toEqual({
      error: expect.stringMatching(/`--variant` must be key=value/),
    });
    const resolved = resolveSimulatorOptions((parsed as { options: object }).options);
    expect(resolved.variants).toMatchObject({
      sharedSlugs: false,
      rateLimitReset: 'delta',
      listMax: 50,
      paging: 'offset',
    });
  });
});
