import { describe, expect, it, vi } from 'vitest';
import { buildRss, buildSitemap } from '../../src/integration/proxy/feed-transform.js';
import { articlesOfSite } from '../../src/integration/blog/known-articles.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { locsOf, ROUTE_CONFIG } from '../fixtures/integration-helpers/index.js';

const config: RouteConfig = {
  ...ROUTE_CONFIG,
  articles: { slugs: ['a', 'c'], origins: ['https://pro-blog.example.com'] },
};

const sitemap = (slugs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  `<url><loc>https://pro-blog.example.com/</loc></url>` +
  slugs
    .map(
      (s) =>
        `<url><loc>https://pro-blog.example.com/blog/${s}/</loc><lastmod>2026-01-0${slugs.indexOf(s) + 1}</lastmod></url>`,
    )
    .join('') +
  `</urlset>`;

const rss = (slugs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>T</title><link>https://pro-blog.example.com/</link>` +
  slugs.map((s) => `<item><title>${s}</title><link>https://pro-blog.example.com/blog/${s}/</link></item>`).join('') +
  `</channel></rss>`;

/** The `<link>` of each `<item>` the route wrote. */
const itemLinks = (xml: string) =>
  [...xml.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]*)</g)].map((m) => m[1]);

describe('feed filter: the routes list only the articles the blog has', () => {
  it('sitemap: the <url> of an article the blog does not have is left out; the home page and the rest stay', async () => {
    const files = await buildSitemap(sitemap(['a', 'b', 'c']), config, []);
    expect(locsOf(files.xml)).toEqual([
      'https://blog.example.com/',
      'https://blog.example.com/blog/a/',
      'https://blog.example.com/blog/c/',
    ]);
    // The kept entries keep their own lastmod: nothing of the dropped <url> leaks into its neighbours.
    expect(files.xml).toContain('<loc>https://blog.example.com/blog/c/</loc><lastmod>2026-01-03</lastmod>');
    expect(files.leftOut).toEqual({ count: 1, example: 'https://blog.example.com/blog/b/' });
  });

  it('rss: the <item> of an article the blog does not have is left out', () => {
    expect(itemLinks(buildRss(rss(['a', 'b', 'c', 'd']), config))).toEqual([
      'https://blog.example.com/blog/a/',
      'https://blog.example.com/blog/c/',
    ]);
  });

  it('nothing to drop: every item is written', () => {
    expect(itemLinks(buildRss(rss(['a', 'c']), config))).toEqual([
      'https://blog.example.com/blog/a/',
      'https://blog.example.com/blog/c/',
    ]);
  });

  it('multilingual URLs (/<lang>/blog/<slug>/): only the languages the blog has the slug in, and with a route', async () => {
    const multi: RouteConfig = {
      ...config,
      articlePattern: '/[lang]/blog/[slug]/',
      articles: { ...config.articles!, languages: { a: ['en'], c: ['en', 'fr'] } },
    };
    const xml = sitemap([]).replace(
      '</urlset>',
      ['en/blog/a', 'fr/blog/a', 'fr/blog/c', 'de/blog/c']
        .map((p) => `<url><loc>https://pro-blog.example.com/${p}/</loc></url>`)
        .join('') + '</urlset>',
    );
    const kept = async (c: RouteConfig) =>
      locsOf((await buildSitemap(xml, c, [])).xml).map((loc) => loc.replace('https://blog.example.com/', ''));
    expect(await kept(multi)).toEqual(['', 'en/blog/a/', 'fr/blog/c/']);
    expect(await kept({ ...multi, articlePattern: { en: '/blog/[slug]/' } })).toEqual(['', 'blog/a/']);
  });

  it('what the upstream parse repaired is reported also when entries are left out (not lost to a re-parse)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // A NUL (which XML forbids) in each document: dropped, with a warning naming the document; b is left out.
    const files = await buildSitemap(sitemap(['a', 'b']).replace('</urlset>', '\u0000</urlset>'), config, []);
    expect(locsOf(files.xml)).toHaveLength(2);
    expect(itemLinks(buildRss(rss(['a', 'b']).replace('<title>T', '<title>T\u0000'), config))).toHaveLength(1);
    const repaired = warn.mock.calls.map((call) => String(call[0])).filter((m) => m.includes('XML forbids'));
    expect(repaired).toEqual([
      expect.stringContaining(`The sitemap at ${config.sitemapUrl} contains 1 character XML forbids`),
      expect.stringContaining(`The RSS feed at ${config.rssUrl} contains 1 character XML forbids`),
    ]);
  });

  it('articlesOfSite: the union of the collections of one site; undefined when none is for it', () => {
    const collections = [
      {
        collection: 'en',
        siteId: 12,
        slugs: ['a', 'b'],
        origins: ['https://pro-blog.example.com'],
        languages: { a: 'en', b: 'en' },
      },
      { collection: 'fr', siteId: 12, slugs: ['c'], origins: ['https://pro-blog.example.com'], languages: { c: 'fr' } },
      { collection: 'other', siteId: 13, slugs: ['z'], origins: ['https://other.example.com'], languages: { z: 'de' } },
    ];
    expect(articlesOfSite(collections, 12)).toEqual({
      slugs: ['a', 'b', 'c'],
      origins: ['https://pro-blog.example.com'],
      languages: { a: ['en'], b: ['en'], c: ['fr'] },
    });
    expect(articlesOfSite(collections, 14)).toBeUndefined();
  });
});
