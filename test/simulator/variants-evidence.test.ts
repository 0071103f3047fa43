/**
 * The service variants of what a loader must decide from evidence (issue 36): lists that ignore their
 * parameters, articles of other statuses, the reset in every form, CDN edges of different ages, cut feed bodies,
 * empty or stale sitemaps, a detail that may or may not honour `language`. Over real HTTP, as a loader meets them.
 */
import { describe, expect, it } from 'vitest';
import { admin, call, start, type Reply } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator({ articles: 40 });
const LIST = '/api/v1/sites/12/articles/';
const setVariants = (variants: unknown) => admin(sim(), 'PUT', 'variants', { variants });
const slugs = (reply: Reply) => (reply.json().results as Array<{ slug: string }>).map((a) => a.slug);
const publishAs = (slug: string, status: string, extra: object = {}) =>
  admin(sim(), 'POST', 'articles', { site: 12, title: slug, slug, status, ...extra });
const rss = () => call(sim(), '/api/sites/12/rss.xml', { token: null });
const sitemap = () => call(sim(), '/api/sites/12/sitemap.xml', { token: null });

describe('a list that ignores its parameters', () => {
  it('listStatus ignored: `status=published` answers the drafts too (with listStatuses all)', async () => {
    await setVariants({ listStatuses: 'all' });
    await publishAs('a-draft', 'draft');
    expect(slugs(await call(sim(), `${LIST}?status=published`))).not.toContain('a-draft');
    expect(slugs(await call(sim(), `${LIST}?status=draft`))).toEqual(['a-draft']);
    await setVariants({ listStatuses: 'all', listStatus: 'ignored' });
    expect(slugs(await call(sim(), `${LIST}?status=published`))).toContain('a-draft');
    expect(slugs(await call(sim(), `${LIST}?status=draft`))).toHaveLength(41);
  });

  it('listLanguage ignored: `language=fr` answers every language', async () => {
    const languages = async () =>
      new Set(
        ((await call(sim(), `${LIST}?language=fr`)).json().results as Array<{ language: string }>).map(
          (a) => a.language,
        ),
      );
    expect(await languages()).toEqual(new Set(['fr']));
    await setVariants({ listLanguage: 'ignored' });
    expect(await languages()).toEqual(new Set(['en', 'fr', 'de', 'es']));
  });

  it('listLimit ignored: `limit=5` answers the page sent without a limit', async () => {
    expect(slugs(await call(sim(), `${LIST}?limit=5`))).toHaveLength(5);
    await setVariants({ listLimit: 'ignored' });
    expect(slugs(await call(sim(), `${LIST}?limit=5`))).toHaveLength(40);
    await setVariants({ listLimit: 'ignored', listDefault: 20 });
    expect(slugs(await call(sim(), `${LIST}?limit=5`))).toHaveLength(20);
  });
});

describe('drafts, scheduled and unknown statuses', () => {
  it('listed and answered only as the variants say; never in the feeds', async () => {
    await publishAs('a-draft', 'draft');
    await publishAs('a-scheduled', 'scheduled', { published_at: '2099-01-01' });
    await publishAs('a-pending', 'pending_review');
    const others = ['a-draft', 'a-scheduled', 'a-pending'];
    expect(slugs(await call(sim(), LIST)).filter((s) => others.includes(s))).toEqual([]);
    expect((await call(sim(), `${LIST}a-draft/`)).status).toBe(404);
    await setVariants({ listStatuses: 'all', draftDetail: 200 });
    const items = (await call(sim(), LIST)).json().results as Array<{ slug: string; status: string }>;
    expect(items.filter((a) => others.includes(a.slug)).map((a) => [a.slug, a.status])).toEqual([
      ['a-scheduled', 'scheduled'],
      ['a-pending', 'pending_review'],
      ['a-draft', 'draft'],
    ]);
    const detail = await call(sim(), `${LIST}a-draft/`);
    expect([detail.status, detail.json().status]).toEqual([200, 'draft']);
    for (const feed of [(await rss()).text, (await sitemap()).text])
      for (const slug of others) expect(feed).not.toContain(`/blog/${slug}/`);
  });

  it('the admin API sets a status: a published article turned draft leaves the list and the feeds, and comes back', async () => {
    const slug = slugs(await call(sim(), LIST))[0]!;
    const before = (await rss()).headers.get('last-modified')!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await admin(sim(), 'PATCH', `articles/12/${slug}`, { status: 'draft' })).json().status).toBe('draft');
    expect(slugs(await call(sim(), LIST))).not.toContain(slug);
    const hidden = await rss();
    expect(hidden.text).not.toContain(`/blog/${slug}/`);
    expect(Date.parse(hidden.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(before));
    await admin(sim(), 'PATCH', `articles/12/${slug}`, { status: 'published' });
    expect(slugs(await call(sim(), LIST))[0]).toBe(slug);
    expect((await rss()).text).toContain(`/blog/${slug}/`);
    expect((await admin(sim(), 'PATCH', `articles/12/${slug}`, { status: 'Not a word' })).status).toBe(400);
  });
});

describe('rate-limit headers in every form', () => {
  it('rateLimitReset: epoch s, epoch ms, delta, HTTP date, absent; a faulted 429 honours both variants', async () => {
    const small = await start({ rateLimitOverride: 1000 });
    const put = (variants: object) =>
      call(small, '/__simulator/variants', { method: 'PUT', token: null, body: { variants } });
    try {
      const nowS = Date.now() / 1000;
      const reset = async (form: string) => {
        await put({ rateLimitReset: form });
        return (await call(small, '/api/v1/me/')).headers.get('x-ratelimit-reset');
      };
      expect(Number(await reset('epoch'))).toBeCloseTo(nowS + 3600, -1);
      expect(Number(await reset('epoch-ms')) / 1000).toBeCloseTo(nowS + 3600, -1);
      expect(Number(await reset('delta'))).toBeCloseTo(3600, -1);
      expect(Date.parse((await reset('http-date'))!) / 1000).toBeCloseTo(nowS + 3600, -1);
      expect(await reset('absent')).toBeNull();

      // A faulted 429 in the variants' forms (it carried `Retry-After: 0` whatever the variant).
      const limited = async (variants: object) => {
        await put(variants);
        await call(small, '/__simulator/faults', {
          method: 'POST',
          token: null,
          body: { route: 'GET /api/v1/me/', status: 429, retryAfter: 30, rateLimited: true, times: 1 },
        });
        const reply = await call(small, '/api/v1/me/');
        expect(reply.status).toBe(429);
        return reply.headers;
      };
      const seconds = await limited({ rateLimitReset: 'epoch-ms' });
      expect(seconds.get('retry-after')).toBe('30');
      expect(seconds.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(seconds.get('x-ratelimit-reset')) / 1000).toBeCloseTo(Date.now() / 1000 + 30, -1);
      expect((await limited({ retryAfter: 'zero', rateLimitReset: 'delta' })).get('x-ratelimit-reset')).toMatch(
        /^3[01]$/,
      );
      const dated = await limited({ retryAfter: 'http-date', rateLimitReset: 'http-date' });
      expect(Date.parse(dated.get('retry-after')!)).toBeLessThan(Date.now());
      expect(Date.parse(dated.get('x-ratelimit-reset')!)).toBeGreaterThan(Date.now() + 25_000);
    } finally {
      await small.close();
    }
  });
});

describe('feeds from CDN edges of different ages, cut bodies, empty or stale sitemaps', () => {
  it('feedStaleEdgeSeconds: every other request from an older edge, with Age, Date and Last-Modified', async () => {
    await setVariants({ feedStaleEdgeSeconds: 3600 });
    await rss();
    const taken = await rss();
    expect(taken.headers.get('x-served-by')).toBe('edge-2');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'Fresh', slug: 'fresh-one' });
    const fresh = await rss();
    const old = await rss();
    expect([fresh.headers.get('x-served-by'), old.headers.get('x-served-by')]).toEqual(['edge-1', 'edge-2']);
    expect(fresh.text).toContain('/blog/fresh-one/');
    expect(old.text).not.toContain('/blog/fresh-one/');
    expect(Number(old.headers.get('age'))).toBeGreaterThanOrEqual(1);
    expect(Date.parse(old.headers.get('last-modified')!)).toBeLessThan(Date.parse(fresh.headers.get('last-modified')!));
    expect(Math.abs(Date.parse(old.headers.get('date')!) - Date.now())).toBeLessThan(2000);
    expect((await rss()).text).toContain('/blog/fresh-one/');
  });

  it('rssTruncateAt: long bodies cut, short ones whole', async () => {
    const long = `<p>${'Long words here. '.repeat(200)}</p><p>tail-of-long</p>`;
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'Long', slug: 'long-one', content: long });
    await admin(sim(), 'POST', 'articles', {
      site: 12,
      title: 'Short',
      slug: 'short-one',
      content: '<p>short-whole</p>',
    });
    expect((await rss()).text).toContain('tail-of-long');
    await setVariants({ rssTruncateAt: 1000 });
    const text = (await rss()).text;
    const item = (slug: string) => /<item>[\s\S]*?<\/item>/g.exec(text.slice(text.indexOf(`/blog/${slug}/`) - 200))![0];
    const cut = /<content:encoded><!\[CDATA\[([\s\S]*?)\]\]><\/content:encoded>/.exec(item('long-one'))![1]!;
    expect(cut).not.toContain('tail-of-long');
    expect(cut.endsWith(' […]')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(1004);
    expect(item('short-one')).toContain('<p>short-whole</p>]]>');
  });

  it('sitemapState: an empty urlset; a stale copy without the new article and with the removed one', async () => {
    await setVariants({ sitemapState: 'empty' });
    const empty = (await sitemap()).text;
    expect(empty).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(empty).not.toContain('<url>');
    await setVariants({ sitemapState: 'stale' });
    await sitemap();
    const gone = slugs(await call(sim(), LIST))[0]!;
    await admin(sim(), 'DELETE', `articles/12/${gone}`);
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'New', slug: 'new-one' });
    const stale = await sitemap();
    expect(stale.text).toContain(`/blog/${gone}/`);
    expect(stale.text).not.toContain('/blog/new-one/');
    expect(stale.headers.get('age')).not.toBeNull();
    expect((await rss()).text).toContain('/blog/new-one/');
  });
});

describe('the detail and a shared slug', () => {
  it('detailLanguage: `language` ignored (the oldest of the slug) or honoured (that language, else 404)', async () => {
    const shared = await start({ articles: 12, variants: { sharedSlugs: true } });
    try {
      const items = (await call(shared, LIST)).json().results as Array<{ slug: string; language: string }>;
      const slug = items.find((a) => items.filter((b) => b.slug === a.slug).length === 2)!.slug;
      const detail = async (language: string) => call(shared, `${LIST}${slug}/?language=${language}`);
      const oldest = (await detail('en')).json().language as string;
      const other = oldest === 'en' ? 'fr' : 'en';
      expect((await detail(other)).json().language).toBe(oldest);
      await call(shared, '/__simulator/variants', {
        method: 'PUT',
        token: null,
        body: { variants: { detailLanguage: 'honoured' } },
      });
      expect((await detail(other)).json().language).toBe(other);
      expect((await detail(oldest)).json().language).toBe(oldest);
      expect((await detail('de')).status).toBe(404);
    } finally {
      await shared.close();
    }
  });
});
