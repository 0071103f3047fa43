// Issue 11: the routes list only the articles the blog has (RouteConfig.articles, from the loaders), with
// the mapping the pages use; the blog's own posts under the pattern are listed unless they are one.
import { describe, expect, it } from 'vitest';
import { buildRss, buildSitemap } from '../../src/integration/proxy/feed-transform.js';
import { endpointHtmlPages, servedPagesOf } from '../../src/integration/blog/known-articles.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { locsOf } from '../fixtures/integration-helpers/index.js';

const config: RouteConfig = {
  siteId: 12,
  serviceOrigin: 'https://service.example.com',
  sitemapUrl: 'https://service.example.com/api/sites/12/sitemap.xml',
  rssUrl: 'https://service.example.com/api/sites/12/rss.xml',
  blogSite: 'https://blog.example.com/docs/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'never',
  timeoutMs: 1000,
  sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
  rss: { path: '/rss.xml' },
  dev: false,
  localPages: [],
  articles: { slugs: ['a', 'c'], origins: ['https://pro-blog.example.com'] },
};

const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
  'a',
  'b',
  'c',
]
  .map((s) => `<url><loc>https://pro-blog.example.com/blog/${s}/</loc></url>`)
  .join('')}</urlset>`;

const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://pro-blog.example.com/</link><description>d</description>
<item><title>A</title><link>https://pro-blog.example.com/blog/a/</link><description><![CDATA[<a href="/blog/b/">b</a> <a href="https://pro-blog.example.com/blog/c/#x">c</a>]]></description></item>
<item><title>B</title><link>https://pro-blog.example.com/blog/b/</link></item></channel></rss>`;

describe('routes list what the blog has', () => {
  it('sitemap: a pending or filtered-out article is left out; URLs follow trailingSlash never under the base', async () => {
    expect(locsOf((await buildSitemap(sitemap, config, [])).xml)).toEqual([
      'https://blog.example.com/docs/blog/a',
      'https://blog.example.com/docs/blog/c',
    ]);
  });

  it('sitemap: without any loader (articles undefined) every article is listed where the built pages are unknown', async () => {
    expect(locsOf((await buildSitemap(sitemap, { ...config, articles: undefined }, [])).xml)).toHaveLength(3);
  });

  it('sitemap, static build: only the articles whose page was built or an on-demand route serves, with or without a loader', async () => {
    const noLoader = { ...config, articles: undefined, builtPages: ['/', '/blog/a/'] };
    const built = await buildSitemap(sitemap, noLoader, []);
    expect(locsOf(built.xml)).toEqual(['https://blog.example.com/docs/blog/a']);
    expect(built.leftOut).toEqual({ count: 2, example: 'https://blog.example.com/docs/blog/b' });
    // An on-demand route of the blog (its patternRegex, without the base) serves what it matches.
    const onDemand = { ...noLoader, onDemandPages: [String.raw`^\/blog\/([^/]+?)\/?$`] };
    expect(locsOf((await buildSitemap(sitemap, onDemand, [])).xml)).toHaveLength(3);
    expect(servedPagesOf(onDemand)?.has('about/x')).toBe(false);
    // With the loaders' record, the record and the served pages both decide.
    const hybrid = { ...config, builtPages: ['/'], onDemandPages: onDemand.onDemandPages };
    expect(locsOf((await buildSitemap(sitemap, hybrid, [])).xml)).toEqual([
      'https://blog.example.com/docs/blog/a',
      'https://blog.example.com/docs/blog/c',
    ]);
  });

  it("sitemap: the blog's own post under the pattern is listed, once, unless a listed article has its slug", async () => {
    const local = [
      { slug: 'mine', url: 'https://blog.example.com/docs/blog/mine' },
      { slug: 'a', url: 'https://blog.example.com/docs/blog/a' },
      { slug: 'b', url: 'https://blog.example.com/docs/blog/b' },
    ];
    expect(locsOf((await buildSitemap(sitemap, { ...config, localArticlePages: local }, [])).xml)).toEqual([
      'https://blog.example.com/docs/blog/a',
      'https://blog.example.com/docs/blog/c',
      // b is not the blog's service article, but the blog has a page of its own at that path.
      'https://blog.example.com/docs/blog/b',
      'https://blog.example.com/docs/blog/mine',
    ]);
  });

  it("sitemap: the service's own pages are listed where the blog serves them, under its trailingSlash rule", async () => {
    const pages = ['/', '/tags/astro/', '/tags/other/', '/blog/', '/blog/a/']
      .map((path) => `<url><loc>https://pro-blog.example.com${path}</loc></url>`)
      .join('');
    const upstream = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages}</urlset>`;
    const root = { ...config, blogSite: 'https://blog.example.com/', articles: undefined };
    const built = { ...root, builtPages: ['/', '/tags/astro/', '/blog/a/'] };
    expect(locsOf((await buildSitemap(upstream, built, [])).xml)).toEqual([
      'https://blog.example.com/',
      'https://blog.example.com/tags/astro',
      'https://blog.example.com/blog/a',
    ]);
    // On demand: the build's page routes decide (here the home and the articles' route).
    const routes = { ...root, pageRoutes: [String.raw`^\/$`, String.raw`^\/blog\/([^/]+?)$`] };
    expect(locsOf((await buildSitemap(upstream, routes, [])).xml)).toEqual([
      'https://blog.example.com/',
      'https://blog.example.com/blog/a',
    ]);
  });

  it('rss: the item of an article the blog lacks is left out; links in descriptions use the same mapping', () => {
    const out = buildRss(rss, config);
    expect(out).not.toContain('<title>B</title>');
    expect(out).toContain('<link>https://blog.example.com/docs/blog/a</link>');
    // b: the blog does not have it, so the link keeps the service's public URL; c: the blog's page.
    expect(out).toContain('<a href="https://pro-blog.example.com/blog/b/">b</a>');
    expect(out).toContain('<a href="https://blog.example.com/docs/blog/c#x">c</a>');
  });

  it('rss: a link to an article the service stopped publishing loses its address, as in the pages', () => {
    const articles = { slugs: ['a', 'c'], origins: ['https://pro-blog.example.com'], unpublished: [':b'] };
    const out = buildRss(rss, { ...config, articles });
    expect(out).toContain('<a>b</a>');
    expect(out).not.toContain('/blog/b/');
    expect(out).toContain('<a href="https://blog.example.com/docs/blog/c#x">c</a>');
  });

  it("rss: a link naming no language in an item's HTML goes to the item's language, as in the article's page", () => {
    // The service in two languages (/en/blog/<slug>/, /fr/blog/<slug>/); the blog has x in both, a in English.
    const articles = {
      slugs: ['a', 'x'],
      origins: ['https://pro-blog.example.com'],
      languages: { a: ['en'], x: ['en', 'fr'] },
    };
    const multi = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://pro-blog.example.com/</link><description>d</description>
<item><title>A</title><link>https://pro-blog.example.com/en/blog/a/</link><description><![CDATA[<a href="/blog/x/">x</a> <a href="https://pro-blog.example.com/fr/blog/x/">fr</a>]]></description></item></channel></rss>`;
    const out = buildRss(multi, { ...config, articlePattern: '/[lang]/blog/[slug]/', articles });
    expect(out).toContain('<link>https://blog.example.com/docs/en/blog/a</link>');
    // Not the service's /blog/x/, which answers 404 there (its articles are under /en/ and /fr/).
    expect(out).toContain('<a href="https://blog.example.com/docs/en/blog/x">x</a>');
    // A link naming its language keeps it.
    expect(out).toContain('<a href="https://blog.example.com/docs/fr/blog/x">fr</a>');
  });
});

describe('endpointHtmlPages', () => {
  const dir = new URL('file:///site/dist/');
  it('names the HTML files of the given endpoint routes below the output, decoded', () => {
    const outputs = new Map<string, URL[]>([
      ['/blog/[slug].html', [new URL('blog/caf%C3%A9.html', dir), new URL('blog/one.html', dir)]],
      ['/feed/[slug].json', [new URL('feed/one.json', dir)]],
      ['/blog/[slug]', [new URL('blog/page/index.html', dir)]],
      ['/outside/[slug].html', [new URL('file:///elsewhere/x.html')]],
    ]);
    const endpoints = new Set(['/blog/[slug].html', '/feed/[slug].json', '/outside/[slug].html']);
    expect(endpointHtmlPages(outputs, dir, endpoints)).toEqual(['blog/café.html', 'blog/one.html']);
    expect(endpointHtmlPages(outputs, new URL('file:///site/dist'), endpoints)).toHaveLength(2);
  });
});
