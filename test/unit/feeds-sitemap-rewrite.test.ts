import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeContent, countNs, parseStrict } from './feeds-xml-check.js';
import {
  makeArticleUrlMapper,
  parseSitemapEntries,
  rewriteSitemap,
  XmlSafetyError,
  type RewriteSitemapOptions,
} from '../../src/feeds/index.js';
import { validateAgainstXsd } from '../support/xmllint.js';

const CORPORA = join(import.meta.dirname, '../corpora/xml');
const UPSTREAM = 'https://api.example.com/api/sites/12/sitemap.xml';
const SITE = 'https://pro-blog.example.com';

/**
 * `xmllint --schema` (libxml2 in WebAssembly); '' when valid, the error output otherwise. Urlsets are checked
 * against sitemap-with-extensions.xsd: sitemap-0.9.xsd has strict wildcards, so extension elements (image,
 * video, news, xhtml:link) validate only when their schemas are loaded too.
 */
async function xsdErrors(
  xml: string,
  schema: 'sitemap-0.9.xsd' | 'siteindex-0.9.xsd',
  name = 'out.xml',
): Promise<string> {
  const xsd = schema === 'sitemap-0.9.xsd' ? 'sitemap-with-extensions.xsd' : schema;
  return validateAgainstXsd(xml, xsd, name).then(
    () => '',
    (error: unknown) => String(error),
  );
}

const mapUrl = makeArticleUrlMapper({
  blogSite: 'https://blog.example.com/base/',
  articlePattern: '/blog/[slug]/',
  upstreamOrigins: [SITE],
});
const options = (extra: Partial<RewriteSitemapOptions> = {}): RewriteSitemapOptions => ({
  url: UPSTREAM,
  upstreamOrigins: [SITE],
  mapUrl,
  partUrl: (n) => `https://blog.example.com/base/sitemap-${n}.xml`,
  ...extra,
});
const urlset = (body: string, ns = ''): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${ns}>\n${body}\n</urlset>\n`;

function single(result: ReturnType<typeof rewriteSitemap>): string {
  if (result.kind !== 'urlset') throw new Error('expected a single urlset');
  return result.xml;
}

describe('rewriteSitemap: URLs', () => {
  const upstream = urlset(
    [
      `<url><loc>${SITE}/blog/first-post/</loc><lastmod>2026-11-20T10:00:00Z</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>`,
      `<url><loc>${SITE}/about/?a=1&amp;b=2</loc></url>`,
      `<url><loc>https://elsewhere.example.org/page/</loc></url>`,
      `<url><loc>${SITE}/blog/with-alternates/</loc>` +
        `<xhtml:link rel="alternate" hreflang="fr" href="${SITE}/blog/avec-alternatives/"/>` +
        `<xhtml:link rel="alternate" hreflang="de" href="https://other.example.net/de/"/>` +
        `<image:image><image:loc>${SITE}/images/cover.png</image:loc><image:caption><![CDATA[A <b>cover</b> & more]]></image:caption></image:image>` +
        `<image:image><image:loc>https://cdn.example.com/pic.jpg</image:loc></image:image></url>`,
    ].join('\n'),
    ' xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
  );
  const xml = single(rewriteSitemap(upstream, options()));

  it('maps article locs to the blog article route under the base path, keeping lastmod/changefreq/priority', () => {
    expect(xml).toContain(
      '<url><loc>https://blog.example.com/base/blog/first-post/</loc><lastmod>2026-11-20T10:00:00Z</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>',
    );
  });
  it('maps other pages of the service domain to the same path on the blog origin, escaping &', () => {
    expect(xml).toContain('<loc>https://blog.example.com/about/?a=1&amp;b=2</loc>');
  });
  it('leaves URLs on other origins alone', () => {
    expect(xml).toContain('<loc>https://elsewhere.example.org/page/</loc>');
    expect(xml).toContain('href="https://other.example.net/de/"');
    expect(xml).toContain('<image:loc>https://cdn.example.com/pic.jpg</image:loc>');
  });
  it('rewrites xhtml:link hreflang alternates on the service domain; image:loc is a file the blog does not have, kept', () => {
    expect(xml).toContain('hreflang="fr" href="https://blog.example.com/base/blog/avec-alternatives/"');
    expect(xml).toContain(`<image:loc>${SITE}/images/cover.png</image:loc>`);
    expect(xml).toContain('<image:caption>A &lt;b&gt;cover&lt;/b&gt; &amp; more</image:caption>');
  });
  it('declares the sitemap namespace and its extensions on the root and validates against sitemap-0.9.xsd', async () => {
    expect(xml).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
    );
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml">');
    expect(await xsdErrors(xml, 'sitemap-0.9.xsd')).toBe('');
    expect(parseSitemapEntries(xml, { url: 'https://blog.example.com/sitemap.xml' })).toHaveLength(4);
  });
});

describe('rewriteSitemap: extraUrls, duplicates, order', () => {
  const upstream = urlset(
    [`${SITE}/blog/b/`, `${SITE}/blog/a/`, `${SITE}/blog/b`, `${SITE}/blog/c/`]
      .map((loc, i) => `<url><loc>${loc}</loc><lastmod>2026-11-0${i + 1}</lastmod></url>`)
      .join('\n'),
  );
  const result = rewriteSitemap(
    upstream,
    options({
      extraUrls: [
        { loc: 'https://blog.example.com/base/zeta/' },
        { loc: 'https://blog.example.com/base/blog/a/', lastmod: '2030-01-01' },
        { loc: 'https://blog.example.com/base/', lastmod: '2026-11-21' },
        { loc: 'https://blog.example.com/base/zeta/' },
      ],
    }),
  );
  const entries = parseSitemapEntries(single(result), { url: 'https://blog.example.com/sitemap.xml' });

  it('upstream order first, then the extra URLs sorted; first one wins on a duplicate rewritten loc', () => {
    expect(entries).toEqual([
      { loc: 'https://blog.example.com/base/blog/b/', lastmod: '2026-11-01' },
      { loc: 'https://blog.example.com/base/blog/a/', lastmod: '2026-11-02' },
      { loc: 'https://blog.example.com/base/blog/c/', lastmod: '2026-11-04' },
      { loc: 'https://blog.example.com/base/', lastmod: '2026-11-21' },
      { loc: 'https://blog.example.com/base/zeta/' },
    ]);
  });
  it('is deterministic', () => {
    expect(rewriteSitemap(upstream, options({ extraUrls: [{ loc: 'https://blog.example.com/base/zeta/' }] }))).toEqual(
      rewriteSitemap(upstream, options({ extraUrls: [{ loc: 'https://blog.example.com/base/zeta/' }] })),
    );
  });
  it('an empty upstream plus the blog pages is a valid urlset', async () => {
    const xml = single(rewriteSitemap(urlset(''), options({ extraUrls: [{ loc: 'https://blog.example.com/base/' }] })));
    expect(await xsdErrors(xml, 'sitemap-0.9.xsd')).toBe('');
  });
});

describe('rewriteSitemap: splitting', () => {
  it('50,001 URLs: a sitemap index and two parts, all valid against the 0.9 schemas', async () => {
    const body = Array.from(
      { length: 50_000 },
      (_, i) => `<url><loc>${SITE}/blog/post-${i}/</loc><lastmod>2026-11-21T10:00:00Z</lastmod></url>`,
    ).join('\n');
    const result = rewriteSitemap(urlset(body), options({ extraUrls: [{ loc: 'https://blog.example.com/base/' }] }));
    if (result.kind !== 'index') throw new Error('expected an index');
    expect(result.parts).toHaveLength(2);
    // Each part carries the newest lastmod of its URLs (the blog's page has none).
    expect(result.xml).toContain(
      '<sitemap><loc>https://blog.example.com/base/sitemap-0.xml</loc><lastmod>2026-11-21T10:00:00Z</lastmod></sitemap>\n<sitemap><loc>https://blog.example.com/base/sitemap-1.xml</loc></sitemap>',
    );
    expect(await xsdErrors(result.xml, 'siteindex-0.9.xsd', 'index.xml')).toBe('');
    const [first = '', second = ''] = result.parts;
    expect(await xsdErrors(first, 'sitemap-0.9.xsd', 'part-0.xml')).toBe('');
    expect(await xsdErrors(second, 'sitemap-0.9.xsd', 'part-1.xml')).toBe('');
    expect(parseSitemapEntries(first, { url: 'part-0' })).toHaveLength(50_000);
    expect(parseSitemapEntries(second, { url: 'part-1' })).toEqual([{ loc: 'https://blog.example.com/base/' }]);
  });
  it('maxUrlsPerFile and maxBytesPerFile split earlier, never exceeding either', () => {
    const body = Array.from({ length: 25 }, (_, i) => `<url><loc>${SITE}/blog/p${i}/</loc></url>`).join('\n');
    const byCount = rewriteSitemap(urlset(body), options({ maxUrlsPerFile: 10 }));
    expect(byCount.kind === 'index' && byCount.parts.map((p) => parseSitemapEntries(p, { url: 'p' }).length)).toEqual([
      10, 10, 5,
    ]);
    const bySize = rewriteSitemap(urlset(body), options({ maxBytesPerFile: 1024 }));
    if (bySize.kind !== 'index') throw new Error('expected an index');
    for (const part of bySize.parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(1024);
    expect(bySize.parts.flatMap((p) => parseSitemapEntries(p, { url: 'p' })).length).toBe(25);
  });
  it('a bad option is named in a TypeError', () => {
    expect(() => rewriteSitemap(urlset(''), options({ maxUrlsPerFile: 60_000 }))).toThrow(
      /rewriteSitemap\(\): `maxUrlsPerFile`/,
    );
  });
});

interface ManifestEntry {
  file: string;
  well_formed: boolean;
  root: string | null;
  xsd_valid: boolean | null;
}
const manifest = JSON.parse(readFileSync(join(CORPORA, 'sitemap/manifest.json'), 'utf8')) as ManifestEntry[];

describe('rewriteSitemap: real-world sitemaps (corpora/xml/sitemap)', () => {
  const count = (text: string, needle: string): number => text.split(needle).length - 1;
  for (const entry of manifest.filter((e) => e.well_formed && e.root === 'urlset')) {
    it(`${entry.file}: rewritten with CDATA, namespaces and extensions intact${entry.xsd_valid ? ', still XSD-valid' : ''}`, async () => {
      const upstream = readFileSync(join(CORPORA, 'sitemap', entry.file), 'utf8');
      const before = parseSitemapEntries(upstream, { url: UPSTREAM });
      const origins = [...new Set(before.map((e) => new URL(e.loc).origin))];
      const mapper = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: origins });
      const xml = single(rewriteSitemap(upstream, { ...options(), upstreamOrigins: origins, mapUrl: mapper }));
      const after = parseSitemapEntries(xml, { url: 'https://blog.example.com/sitemap.xml' });
      expect(after.map((e) => e.loc)).toEqual([...new Set(before.map((e) => mapper(e.loc)))]);
      expect(after.every((e) => e.loc.startsWith('https://blog.example.com/'))).toBe(true);
      // Every listed element survives (counted namespace-aware), nothing active does.
      const inDoc = parseStrict(upstream.trimStart());
      const outDoc = parseStrict(xml);
      expect(activeContent(outDoc)).toEqual([]);
      const sm = inDoc.documentElement?.namespaceURI ?? '';
      const listed: Array<[string, string, string]> = [
        [sm, 'http://www.sitemaps.org/schemas/sitemap/0.9', 'changefreq'],
        [sm, 'http://www.sitemaps.org/schemas/sitemap/0.9', 'priority'],
        [sm, 'http://www.sitemaps.org/schemas/sitemap/0.9', 'lastmod'],
        ['http://www.google.com/schemas/sitemap-image/1.1', 'http://www.google.com/schemas/sitemap-image/1.1', 'image'],
        ['http://www.google.com/schemas/sitemap-news/0.9', 'http://www.google.com/schemas/sitemap-news/0.9', 'news'],
        ['http://www.google.com/schemas/sitemap-video/1.1', 'http://www.google.com/schemas/sitemap-video/1.1', 'video'],
      ];
      if (new Set(before.map((e) => e.loc)).size === before.length) {
        for (const [inNs, outNs, local] of listed)
          expect(countNs(outDoc, outNs, local), local).toBe(countNs(inDoc, inNs, local));
      }
      expect(count(xml, '<![CDATA[')).toBe(0);
      if (entry.xsd_valid) expect(await xsdErrors(xml, 'sitemap-0.9.xsd', entry.file)).toBe('');
    });
  }
  it("Google's pre-standard namespace is replaced by the sitemap 0.9 namespace", () => {
    const upstream = readFileSync(join(CORPORA, 'sitemap', 'crawlercommons-sitemap.badns.xml'), 'utf8');
    const xml = single(rewriteSitemap(upstream, { ...options(), upstreamOrigins: ['http://www.example.com'] }));
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(xml).not.toContain('http://www.google.com/schemas/sitemap/0.9');
  });
  it('an upstream sitemap index is refused clearly', () => {
    const upstream = readFileSync(join(CORPORA, 'sitemap', 'sitemapjs-alltags-index.xml'), 'utf8');
    expect(() => rewriteSitemap(upstream, options())).toThrow(XmlSafetyError);
    expect(() => rewriteSitemap(upstream, options())).toThrow(
      `The sitemap at ${UPSTREAM} is not safe to parse: it is a <sitemapindex>, not a <urlset>`,
    );
  });
  it('hostile input is refused before any rewriting', () => {
    const bomb = readFileSync(join(CORPORA, 'xxe', 'patt-billion-laughs.xml'), 'utf8');
    expect(() => rewriteSitemap(bomb, options())).toThrow(/declares a DOCTYPE\/entities/);
  });
});
