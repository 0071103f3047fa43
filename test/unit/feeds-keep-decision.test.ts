// The writers' per-entry decision (keep or leave out a <url> or an <item>) on the document's one parse: what the
// sitemap and feed routes use instead of cutting the text and parsing it again.
import { describe, expect, it } from 'vitest';
import { parseRssDocument } from '../../src/feeds/rss-parse.js';
import { rewriteRssDocument } from '../../src/feeds/rss-rewrite.js';
import { parseSitemapDocument } from '../../src/feeds/sitemap-parse.js';
import { writeSitemapUrls } from '../../src/feeds/sitemap-rewrite.js';
import { textOf } from '../../src/feeds/xml-scan.js';

const SITE = 'https://pro-blog.example.com';
const toBlog = (url: string) => url.replace(SITE, 'https://blog.example.com');

describe('writers: keep or leave out each entry', () => {
  it('sitemap: a <url> whose (trimmed) <loc> keep refuses is not written, and does not count as seen', () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      `<url><loc> ${SITE}/blog/a/ </loc></url><url><loc>${SITE}/blog/b/</loc><lastmod>2026-01-02</lastmod></url>` +
      `<url><loc>${SITE}/blog/c/</loc></url></urlset>`;
    const asked: string[] = [];
    const seen = new Set<string>();
    const written = writeSitemapUrls(parseSitemapDocument(xml, { url: `${SITE}/sitemap.xml` }), {
      url: `${SITE}/sitemap.xml`,
      upstreamOrigins: [SITE],
      mapUrl: toBlog,
      seen,
      keep: (loc) => (asked.push(loc), !loc.endsWith('/b/')),
    });
    expect(asked).toEqual([`${SITE}/blog/a/`, `${SITE}/blog/b/`, `${SITE}/blog/c/`]);
    expect(written.map((url) => url.xml)).toEqual([
      '<url><loc>https://blog.example.com/blog/a/</loc></url>',
      '<url><loc>https://blog.example.com/blog/c/</loc></url>',
    ]);
    // The left-out entry's lastmod is not carried, and its loc stays free for a later part of an index.
    expect(written.map((url) => url.lastmod)).toEqual([undefined, undefined]);
    expect([...seen]).toEqual(['https://blog.example.com/blog/a/', 'https://blog.example.com/blog/c/']);
  });

  it('rss: an <item> keepItem refuses is not written, nor read (no warning about what it holds)', () => {
    const xml =
      `<rss version="2.0"><channel><title>T</title><link>${SITE}/</link>` +
      `<item><title>a</title><link>${SITE}/blog/a/</link></item>` +
      `<item><title>b</title><link>${SITE}/blog/b/</link><x:odd>?</x:odd><h:script xmlns:h="http://www.w3.org/1999/xhtml"/></item>` +
      '</channel></rss>';
    const doc = parseRssDocument(xml, { url: `${SITE}/rss.xml` });
    const warnings: string[] = [];
    const options = {
      url: `${SITE}/rss.xml`,
      upstreamOrigins: [SITE],
      mapUrl: toBlog,
      selfUrl: 'https://blog.example.com/rss.xml',
      onWarning: (message: string) => warnings.push(message),
    };
    const linkOf = (item: (typeof doc.items)[number]) =>
      textOf(
        doc.xml,
        item.children.find((c) => c.local === 'link')!,
      );
    const out = rewriteRssDocument(doc, options, (item) => !linkOf(item).endsWith('/b/'));
    expect(out).toContain('<link>https://blog.example.com/blog/a/</link>');
    expect(out).not.toContain('/blog/b/');
    expect(warnings).toEqual([]);
    // The same document with every item kept: the left-out item's contents would have been reported.
    rewriteRssDocument(doc, options, () => true);
    expect(warnings).toEqual([expect.stringContaining('x:'), expect.stringContaining('XHTML')]);
  });
});
