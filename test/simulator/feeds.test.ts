import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { validateAgainstXsd } from '../support/xmllint.js';
import { admin, call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator({ articles: 60 });

const feed = (path: string, headers: Record<string, string> = {}) => call(sim(), path, { token: null, headers });
const rssParser = new Parser<Record<string, unknown>, { 'content:encoded'?: string }>({
  customFields: { item: ['content:encoded'] },
});

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
}

describe('public sitemap', () => {
  it('lists every published article with loc and lastmod, caching headers, no auth needed', async () => {
    const reply = await feed('/api/sites/12/sitemap.xml');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(reply.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(new Date(reply.headers.get('last-modified') ?? '').getTime()).toBeGreaterThan(0);
    const parsed = new XMLParser().parse(reply.text);
    expect(parsed.urlset.url).toHaveLength(60);
    expect(parsed.urlset.url[0].loc).toMatch(/^https:\/\/pro-blog\.example\.com\/blog\/[^/]+\/$/);
    expect(parsed.urlset.url[0].lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const list = (await call(sim(), '/api/v1/sites/12/articles/')).json().results;
    expect(locs(reply.text)).toEqual(list.map((a: { slug: string }) => `https://pro-blog.example.com/blog/${a.slug}/`));
  });

  it('validates against the sitemap 0.9 schema', async () => {
    const text = (await feed('/api/sites/12/sitemap.xml')).text;
    expect(XMLValidator.validate(text)).toBe(true);
    await expect(validateAgainstXsd(text, 'sitemap-0.9.xsd', 'sitemap.xml')).resolves.toContain(
      'sitemap.xml validates',
    );
  });

  it('404 for an unknown or inactive site', async () => {
    expect((await feed('/api/sites/999/sitemap.xml')).status).toBe(404);
    expect((await feed('/api/sites/14/sitemap.xml')).status).toBe(404);
    expect((await feed('/api/sites/14/rss.xml')).status).toBe(404);
  });
});

describe('public RSS feed', () => {
  it('is RSS 2.0 with the 50 newest, guid permalinks, pubDate, description, content:encoded and atom:link self', async () => {
    const reply = await feed('/api/sites/12/rss.xml');
    expect(reply.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=3600');
    const parsed = await rssParser.parseString(reply.text);
    expect(parsed.items).toHaveLength(50);
    const list = (await call(sim(), '/api/v1/sites/12/articles/')).json().results;
    const first = parsed.items[0];
    expect(first?.link).toBe(`https://pro-blog.example.com/blog/${list[0].slug}/`);
    expect(first?.guid).toBe(first?.link);
    expect(first?.title).toBe(list[0].title);
    expect(new Date(first?.pubDate ?? '').toISOString().slice(0, 10)).toBe(list[0].published_at);
    expect(first?.['content:encoded']).toMatch(/<h2>/);
    expect(first?.contentSnippet).toBeTruthy();
    expect(reply.text).toContain(
      `<atom:link href="${sim().url}/api/sites/12/rss.xml" rel="self" type="application/rss+xml"/>`,
    );
    expect(reply.text).toContain('<guid isPermaLink="true">');
  });

  it('stays well formed with hostile titles and `]]>` in the content', async () => {
    const content = '<p>before ]]> after &amp; <b>bold</b></p>';
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'Tom & "Jerry" <script>]]>', slug: 'hostile', content });
    const xml = (await feed('/api/sites/12/rss.xml')).text;
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = await rssParser.parseString(xml);
    const item = parsed.items.find((i) => i.link?.endsWith('/hostile/'));
    expect(item?.title).toBe('Tom & "Jerry" <script>]]>');
    expect(item?.['content:encoded']).toBe(content);
  });
});

describe('conditional requests', () => {
  for (const path of ['/api/sites/12/sitemap.xml', '/api/sites/12/rss.xml']) {
    it(`${path}: 304 for If-None-Match and for If-Modified-Since, 200 once content changed`, async () => {
      const first = await feed(path);
      const etag = first.headers.get('etag') ?? '';
      const lastModified = first.headers.get('last-modified') ?? '';
      const byEtag = await feed(path, { 'if-none-match': etag });
      expect(byEtag.status).toBe(304);
      expect(byEtag.text).toBe('');
      expect(byEtag.headers.get('etag')).toBe(etag);
      expect(byEtag.headers.get('cache-control')).toBe('public, max-age=3600');
      expect((await feed(path, { 'if-none-match': `W/${etag}` })).status).toBe(304);
      expect((await feed(path, { 'if-modified-since': lastModified })).status).toBe(304);
      expect((await feed(path, { 'if-none-match': '"other"' })).status).toBe(200);
      expect(
        (await feed(path, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status,
      ).toBe(200);

      await admin(sim(), 'POST', 'articles', { site: 12, title: 'Fresh news' });
      const changed = await feed(path, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect((await feed(path, { 'if-modified-since': lastModified })).status).toBe(200);
    });
  }

  it('an update in the same second as the last change still moves Last-Modified', async () => {
    await admin(sim(), 'POST', 'articles', { site: 12, title: 'One', slug: 'one' });
    const before = (await feed('/api/sites/12/rss.xml')).headers.get('last-modified') ?? '';
    await admin(sim(), 'PATCH', 'articles/12/one', { title: 'One, edited' });
    expect((await feed('/api/sites/12/rss.xml', { 'if-modified-since': before })).status).toBe(200);
  });
});
