import { describe, expect, it } from 'vitest';
import { filterRssArticles, filterSitemapArticles, type KnownArticles } from '../../src/integration/feed-filter.js';
import { articlesOfSite } from '../../src/integration/known-articles.js';

const known: KnownArticles = { slugs: new Set(['a', 'c']), origins: ['https://pro-blog.example.com'] };
const opts = { url: 'https://api.example/api/sites/12/feed.xml', maxBytes: 1_000_000 };

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

describe('feed filter: the routes list only the articles the blog has', () => {
  it('sitemap: the <url> of an article the blog does not have is left out; the home page and the rest stay', () => {
    const out = filterSitemapArticles(sitemap(['a', 'b', 'c']), opts, known);
    expect(out.dropped).toBe(1);
    expect(out.xml).toBe(
      sitemap(['a', 'b', 'c']).replace(
        '<url><loc>https://pro-blog.example.com/blog/b/</loc><lastmod>2026-01-02</lastmod></url>',
        '',
      ),
    );
  });

  it('rss: the <item> of an article the blog does not have is left out', () => {
    const out = filterRssArticles(rss(['a', 'b', 'c', 'd']), opts, known);
    expect(out.dropped).toBe(2);
    expect(out.xml).toBe(rss(['a', 'c']));
  });

  it('nothing to drop: the document is returned as it is', () => {
    expect(filterRssArticles(rss(['a']), opts, known)).toEqual({ xml: rss(['a']), dropped: 0 });
  });

  it('multilingual URLs (/<lang>/blog/<slug>/): only the languages the blog has the slug in, and with a route', () => {
    const multi: KnownArticles = { ...known, languages: { a: ['en'], c: ['en', 'fr'] } };
    const xml = sitemap([]).replace(
      '</urlset>',
      ['en/blog/a', 'fr/blog/a', 'fr/blog/c', 'de/blog/c']
        .map((p) => `<url><loc>https://pro-blog.example.com/${p}/</loc></url>`)
        .join('') + '</urlset>',
    );
    const kept = (out: { xml: string }) =>
      [...out.xml.matchAll(/<loc>https:\/\/pro-blog\.example\.com\/([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(kept(filterSitemapArticles(xml, opts, multi))).toEqual(['', 'en/blog/a/', 'fr/blog/c/']);
    const layout = {
      blogSite: 'https://blog.example.com/',
      trailingSlash: 'ignore' as const,
      articlePattern: { en: '/blog/[slug]/' },
    };
    expect(kept(filterSitemapArticles(xml, opts, multi, layout))).toEqual(['', 'en/blog/a/']);
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
