import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { XmlSafetyError } from '../../src/feeds/index.js';
import { buildRss, buildSitemap } from '../../src/integration/proxy/feed-transform.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { locsOf, XXE_DIR, xmllintString } from '../fixtures/integration-helpers/index.js';
import { fastestMsAsync } from '../support/timing.js';

const CORPUS = fileURLToPath(new URL('../corpora/xml/', import.meta.url));

const config: RouteConfig = {
  siteId: 12,
  serviceOrigin: 'https://service.example.com',
  sitemapUrl: 'https://service.example.com/api/sites/12/sitemap.xml',
  rssUrl: 'https://service.example.com/api/sites/12/rss.xml',
  blogSite: 'https://blog.example.com/',
  articlePattern: '/articles/[slug]/',
  trailingSlash: 'ignore',
  timeoutMs: 1000,
  sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
  rss: { path: '/feed.xml' },
  dev: false,
  localPages: [],
};

function urlset(count: number): string {
  const urls: string[] = [];
  for (let i = 0; i < count; i++)
    urls.push(
      `<url><loc>https://pro-blog.example.com/blog/post-${i}/</loc><lastmod>2025-01-01T00:00:00Z</lastmod></url>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

describe('integration feed transform', () => {
  it('sitemap: article URLs follow the article pattern; local pages are appended', async () => {
    const files = await buildSitemap(urlset(2), config, [
      'https://blog.example.com/',
      'https://blog.example.com/about/',
    ]);
    expect(files.kind).toBe('urlset');
    expect(locsOf(files.xml)).toEqual([
      'https://blog.example.com/articles/post-0/',
      'https://blog.example.com/articles/post-1/',
      'https://blog.example.com/',
      'https://blog.example.com/about/',
    ]);
  });

  it('sitemap: above 50,000 URLs, an index at /sitemap.xml and the parts beside it, all schema-valid', async () => {
    // 50,000 upstream URLs (the most one upstream file is read for) and the blog's own two pages.
    const files = await buildSitemap(urlset(50_000), config, [
      'https://blog.example.com/',
      'https://blog.example.com/about/',
    ]);
    expect(files.kind).toBe('index');
    if (files.kind !== 'index') return;
    expect(locsOf(files.xml)).toEqual([
      'https://blog.example.com/sitemap-1.xml',
      'https://blog.example.com/sitemap-2.xml',
    ]);
    // Each part carries the newest lastmod of its URLs; the blog's own page has none.
    expect(files.xml).toContain(
      '<loc>https://blog.example.com/sitemap-1.xml</loc><lastmod>2025-01-01T00:00:00Z</lastmod>',
    );
    expect(files.parts.map((part) => locsOf(part).length)).toEqual([50_000, 2]);
    await expect(xmllintString(files.xml, 'siteindex-0.9.xsd')).resolves.toContain('validates');
    await expect(xmllintString(files.parts[1] ?? '', 'sitemap-0.9.xsd')).resolves.toContain('validates');
  }, 30_000);

  it('rss: links, guid and self link point at the blog', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title><link>https://pro-blog.example.com/</link><description>d</description>
<atom:link href="https://service.example.com/api/sites/12/rss.xml" rel="self" type="application/rss+xml"/>
<item><title>A</title><link>https://pro-blog.example.com/blog/a/</link><guid isPermaLink="true">https://pro-blog.example.com/blog/a/</guid></item></channel></rss>`;
    const out = buildRss(rss, config);
    expect(out).toContain('<link>https://blog.example.com/</link>');
    expect(out).toContain('<link>https://blog.example.com/articles/a/</link>');
    expect(out).toContain('<guid isPermaLink="true">https://blog.example.com/articles/a/</guid>');
    expect(out).toContain('href="https://blog.example.com/feed.xml"');
  });

  describe('hostile input: refused with the URL, quickly, nothing expanded', async () => {
    const files = (await readdir(XXE_DIR)).filter((f) => f.endsWith('.xml'));
    for (const file of files) {
      it(file, async () => {
        const xml = await readFile(join(XXE_DIR, file), 'utf8');
        const refuse = async () => {
          for (const run of [() => buildSitemap(xml, config, []), () => buildRss(xml, config)]) {
            let error: unknown;
            try {
              await run();
            } catch (e) {
              error = e;
            }
            expect(error).toBeInstanceOf(XmlSafetyError);
            expect((error as Error).message).toContain('https://service.example.com/api/sites/12/');
            expect((error as Error).message).not.toContain('root:x:0');
          }
        };
        // The fastest of three runs (test/support/timing.ts): load only slows a run, an expansion every one.
        expect(await fastestMsAsync(refuse)).toBeLessThan(1000);
      });
    }
  });

  describe('real-world sitemaps pass through with every URL', async () => {
    const manifest = JSON.parse(await readFile(join(CORPUS, 'sitemap', 'manifest.json'), 'utf8')) as Array<{
      file: string;
      well_formed: boolean;
      root: string;
    }>;
    for (const entry of manifest.filter((e) => e.well_formed && e.root === 'urlset')) {
      it(entry.file, async () => {
        const xml = await readFile(join(CORPUS, 'sitemap', entry.file), 'utf8');
        const files = await buildSitemap(xml, config, []);
        expect(files.kind).toBe('urlset');
        const urls = (s: string) => s.match(/<(?:\w+:)?url[\s>]/g)?.length ?? 0;
        expect(urls(files.xml)).toBe(urls(xml));
        // Whatever validated against the sitemap 0.9 schema before the rewrite still does after it.
        const before = await xmllintString(xml, 'sitemap-0.9.xsd').then(
          () => true,
          () => false,
        );
        if (before) await expect(xmllintString(files.xml, 'sitemap-0.9.xsd')).resolves.toContain('validates');
      });
    }
  });

  describe('real-world RSS feeds pass through with every item', async () => {
    const manifest = JSON.parse(await readFile(join(CORPUS, 'rss', 'manifest.json'), 'utf8')) as Array<{
      file: string;
      well_formed: boolean;
      root: string;
    }>;
    for (const entry of manifest.filter((e) => e.well_formed && e.root === 'rss')) {
      it(entry.file, async () => {
        const xml = await readFile(join(CORPUS, 'rss', entry.file), 'utf8');
        const parser = new Parser();
        const before = await parser.parseString(xml);
        const after = await parser.parseString(buildRss(xml, config));
        expect(after.items.map((i) => i.title)).toEqual(before.items.map((i) => i.title));
      });
    }
  });
});
