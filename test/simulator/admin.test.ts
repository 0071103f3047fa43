import { describe, expect, it } from 'vitest';
import { admin, call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

const slugs = async (): Promise<string[]> =>
  (await call(sim(), '/api/v1/sites/12/articles/')).json().results.map((a: { slug: string }) => a.slug);
const sitemap = async () => (await call(sim(), '/api/sites/12/sitemap.xml', { token: null })).text;
const rss = async () => (await call(sim(), '/api/sites/12/rss.xml', { token: null })).text;

describe('admin API: articles', () => {
  it('POST articles publishes at the top of list, sitemap and RSS, and answers 201 with the detail', async () => {
    const reply = await admin(sim(), 'POST', 'articles', {
      site: 12,
      title: 'Launch day',
      slug: 'launch-day',
      language: 'fr',
      content: '<p>Bonjour</p>',
    });
    expect(reply.status).toBe(201);
    expect(reply.json()).toMatchObject({
      slug: 'launch-day',
      title: 'Launch day',
      language: 'fr',
      content: '<p>Bonjour</p>',
      url: 'https://pro-blog.example.com/blog/launch-day/',
      view_count: 0,
    });
    expect((await slugs())[0]).toBe('launch-day');
    expect(await sitemap()).toContain('<loc>https://pro-blog.example.com/blog/launch-day/</loc>');
    expect(await rss()).toContain('<link>https://pro-blog.example.com/blog/launch-day/</link>');
  });

  it('POST articles with a past published_at sorts it by date; without content it gets a generated body', async () => {
    const reply = await admin(sim(), 'POST', 'articles', { site: 12, title: 'Old news', published_at: '2001-01-01' });
    expect(reply.json().content).toMatch(/<h2>/);
    const list = await slugs();
    expect(list.at(-1)).toBe('old-news');
  });

  it('POST articles: 400 for a missing title, 404 for an unknown site, 409 for a published slug', async () => {
    expect((await admin(sim(), 'POST', 'articles', { site: 12 })).json().error).toMatch(/`title`/);
    expect((await admin(sim(), 'POST', 'articles', { site: 99, title: 'x' })).status).toBe(404);
    const [existing] = await slugs();
    expect((await admin(sim(), 'POST', 'articles', { site: 12, title: 'x', slug: existing })).status).toBe(409);
  });

  it('PATCH changes the article and bumps updated_at, visible in detail, sitemap lastmod and RSS', async () => {
    const [slug] = await slugs();
    const before = (await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json();
    const reply = await admin(sim(), 'PATCH', `articles/12/${slug}`, {
      title: 'Edited title',
      content: '<p>New body</p>',
    });
    expect(reply.status).toBe(200);
    const after = (await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json();
    expect(after).toMatchObject({ title: 'Edited title', content: '<p>New body</p>', excerpt: 'New body' });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await sitemap()).toContain(`<lastmod>${after.updated_at}</lastmod>`);
    expect(await rss()).toContain('<title>Edited title</title>');
    expect((await admin(sim(), 'PATCH', 'articles/12/nope', { title: 'x' })).status).toBe(404);
  });

  it('PATCH content derives meta_description from it as publication does (title, then the first paragraph)', async () => {
    const content = '<p>Fresh <em>first</em> paragraph.</p><p>Second paragraph.</p>';
    const published = await admin(sim(), 'POST', 'articles', { site: 12, title: 'Same title', slug: 'fresh', content });
    expect(published.json().meta_description).toBe('Same title. Fresh first paragraph.');
    const [slug] = (await slugs()).filter((s) => s !== 'fresh');
    await admin(sim(), 'PATCH', `articles/12/${slug}`, { title: 'Same title', content });
    const detail = (await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json();
    expect(detail.meta_description).toBe(published.json().meta_description);
    // A title alone does not rewrite it (nor the excerpt): only a new body does.
    await admin(sim(), 'PATCH', `articles/12/${slug}`, { title: 'Another title' });
    expect((await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json().meta_description).toBe(
      'Same title. Fresh first paragraph.',
    );
  });

  it('PATCH featured_image changes or removes the featured image (null), and bumps updated_at', async () => {
    const [slug] = await slugs();
    const before = (await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json();
    const cover = `https://cdn.example.com/sites/12/${slug}/cover-2.jpg`;
    expect((await admin(sim(), 'PATCH', `articles/12/${slug}`, { featured_image: cover })).status).toBe(200);
    const changed = (await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json();
    // Stored under the CDN origin, served under the simulator's /media/ like every image.
    expect(changed.featured_image).toBe(`${sim().url}/media/sites/12/${slug}/cover-2.jpg`);
    expect(Date.parse(changed.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect((await admin(sim(), 'PATCH', `articles/12/${slug}`, { featured_image: null })).status).toBe(200);
    expect((await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).json().featured_image).toBeNull();
    expect((await admin(sim(), 'PATCH', `articles/12/${slug}`, { featured_image: 'not a url' })).status).toBe(400);
  });

  it('keywords: POST and PATCH set them, shown in the detail and as RSS categories; bad ones are 400', async () => {
    const created = await admin(sim(), 'POST', 'articles', {
      site: 12,
      title: 'Tagged',
      slug: 'tagged',
      keywords: ['astro', 'rss & feeds'],
    });
    expect(created.status).toBe(201);
    expect(created.json().keywords).toEqual(['astro', 'rss & feeds']);
    const item = () =>
      rss().then((xml) => /<item>(?:(?!<\/item>)[\s\S])*<link>[^<]*\/tagged\/<\/link>[\s\S]*?<\/item>/.exec(xml)![0]);
    expect(await item()).toContain('<category>rss &amp; feeds</category>');

    const before = (await call(sim(), '/api/v1/sites/12/articles/tagged/')).json();
    const patched = await admin(sim(), 'PATCH', 'articles/12/tagged', { keywords: ['  loaders ', 'sitemaps'] });
    expect(patched.status).toBe(200);
    const after = (await call(sim(), '/api/v1/sites/12/articles/tagged/')).json();
    expect(after.keywords).toEqual(['loaders', 'sitemaps']);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const categories = [...(await item()).matchAll(/<category>([^<]*)<\/category>/g)].map((m) => m[1]);
    expect(categories).toEqual(['loaders', 'sitemaps']);
    // The list items carry no keywords, as before.
    const listed = (await call(sim(), '/api/v1/sites/12/articles/')).json().results[0];
    expect(listed).not.toHaveProperty('keywords');

    expect((await admin(sim(), 'PATCH', 'articles/12/tagged', { keywords: [] })).json().keywords).toEqual([]);
    expect(await item()).not.toContain('<category>');
    for (const [keywords, error] of [
      ['astro', '`keywords`: must be an array of strings.'],
      [['astro', 3], '`keywords.1`: must be a string.'],
      [['astro', ' '], '`keywords.1`: must not be blank.'],
      [['astro', 'astro'], '`keywords`: must not repeat a keyword.'],
    ] as const) {
      const refused = await admin(sim(), 'PATCH', 'articles/12/tagged', { keywords });
      expect(refused.status, JSON.stringify(keywords)).toBe(400);
      expect(refused.json().error).toBe(error);
    }
    expect((await admin(sim(), 'POST', 'articles', { site: 12, title: 'x', keywords: [''] })).status).toBe(400);
  });

  it('DELETE unpublishes: gone from list, sitemap and RSS; detail 404', async () => {
    const [slug] = await slugs();
    expect((await admin(sim(), 'DELETE', `articles/12/${slug}`)).status).toBe(204);
    expect(await slugs()).not.toContain(slug);
    expect(await sitemap()).not.toContain(`/blog/${slug}/`);
    expect(await rss()).not.toContain(`/blog/${slug}/`);
    expect((await call(sim(), `/api/v1/sites/12/articles/${slug}/`)).status).toBe(404);
    expect((await admin(sim(), 'DELETE', `articles/12/${slug}`)).status).toBe(404);
  });

  it('reset puts the content, quotas and windows back to the seed', async () => {
    const original = await slugs();
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'Temporary' });
    await call(sim(), '/api/v1/sites/12/generate/', { method: 'POST', body: { topic: 'bees' } });
    await admin(sim(), 'POST', 'reset');
    expect(await slugs()).toEqual(original);
    const me = await call(sim(), '/api/v1/me/');
    expect(me.json().usage.articles_this_month).toBe(0);
    expect(me.headers.get('x-ratelimit-remaining')).toBe('58'); // the list call and this one
    expect(sim().stats().authenticated).toBe(2);
  });

  it('GET /__simulator/ describes the running simulator', async () => {
    const info = (await admin(sim(), 'GET', '')).json();
    expect(info).toMatchObject({ url: sim().url, tokens: { pro: sim().tokens.pro } });
    expect(info.sites.map((s: { id: number }) => s.id)).toContain(14);
  });
});
