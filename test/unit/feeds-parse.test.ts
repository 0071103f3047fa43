import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRssFeed, parseSitemapEntries, slugFromArticleUrl, XmlSafetyError } from '../../src/feeds/index.js';
import { fastestMs } from '../support/timing.js';

const CORPORA = join(import.meta.dirname, '../corpora/xml');
const URL_SITEMAP = 'https://api.example.com/api/sites/12/sitemap.xml';
const URL_RSS = 'https://api.example.com/api/sites/12/rss.xml';

interface ManifestEntry {
  file: string;
  well_formed: boolean;
  root: string | null;
  parse_error?: string;
}
const manifest = (dir: string): ManifestEntry[] =>
  JSON.parse(readFileSync(join(CORPORA, dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
const read = (dir: string, file: string): string => readFileSync(join(CORPORA, dir, file), 'utf8');

function rejection(fn: () => unknown): XmlSafetyError {
  try {
    fn();
  } catch (error) {
    if (error instanceof XmlSafetyError) return error;
    throw error;
  }
  throw new Error('expected an XmlSafetyError');
}

describe('hostile XML (corpora/xml/xxe)', () => {
  const files = readdirSync(join(CORPORA, 'xxe')).filter((f) => f.endsWith('.xml'));
  it('has the corpus', () => expect(files.length).toBeGreaterThan(10));
  for (const file of files) {
    it(`${file}: refused quickly as a sitemap and as an RSS feed, nothing expanded`, () => {
      const xml = read('xxe', file);
      for (const [parse, url] of [
        [parseSitemapEntries, URL_SITEMAP],
        [parseRssFeed, URL_RSS],
      ] as const) {
        const error = rejection(() => parse(xml, { url }));
        expect(fastestMs(() => rejection(() => parse(xml, { url })))).toBeLessThan(200);
        expect(error.message).toContain(url);
        expect(error.message).not.toMatch(/lollol|dosdos|root:x:0/);
        if (/<!DOCTYPE/.test(xml) && !/<html/.test(xml)) {
          expect(error.reason).toBe('doctype');
          expect(error.message).toContain('No entity was expanded');
        }
      }
    });
  }
  it('a DOCTYPE in a sitemap is refused with the URL and reason in the message', () => {
    const error = rejection(() => parseSitemapEntries(read('xxe', 'patt-billion-laughs.xml'), { url: URL_SITEMAP }));
    expect(error.message).toBe(
      `[astro-content-publisher] The sitemap at ${URL_SITEMAP} is not safe to parse: it declares a DOCTYPE/entities (possible XML bomb or XXE). No entity was expanded. A sitemap never needs one; check that the URL points at the service's public feed. (line 1, column 1)`,
    );
  });
  it('the text "<!DOCTYPE html>" inside CDATA is content, not a declaration', () => {
    const xml =
      '<rss version="2.0"><channel><title>t</title><item><description><![CDATA[<pre>&lt;!DOCTYPE html&gt; <!DOCTYPE html></pre>]]></description></item></channel></rss>';
    expect(parseRssFeed(xml, { url: URL_RSS }).items[0]?.description).toContain('<!DOCTYPE html>');
  });
});

describe('broken upstream documents', () => {
  for (const entry of manifest('sitemap').filter((e) => !e.well_formed)) {
    it(`${entry.file}: not well-formed, refused with the URL and the position`, () => {
      const error = rejection(() => parseSitemapEntries(read('sitemap', entry.file), { url: URL_SITEMAP }));
      expect(error.reason).toBe('not-well-formed');
      expect(error.message).toContain(URL_SITEMAP);
      expect(error.message).toMatch(/not well-formed XML: .+ \(line \d+, column \d+\)$/);
    });
  }
  it('an HTML error page is named as such', () => {
    const error = rejection(() =>
      parseSitemapEntries('<!DOCTYPE html><html><head><title>502</title></head><body>Bad gateway</body></html>', {
        url: URL_SITEMAP,
      }),
    );
    expect(error.reason).toBe('html');
    expect(error.message).toContain('is an HTML page, not XML');
  });
  it('a truncated document says it looks truncated', () => {
    const xml = read('sitemap', 'sitemapjs-alltags.xml');
    const error = rejection(() => parseSitemapEntries(xml.slice(0, Math.floor(xml.length / 2)), { url: URL_SITEMAP }));
    expect(['truncated', 'not-well-formed']).toContain(error.reason);
    expect(error.message).toContain(URL_SITEMAP);
    const cut = rejection(() =>
      parseSitemapEntries(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url>',
        { url: URL_SITEMAP },
      ),
    );
    expect(cut.reason).toBe('truncated');
  });
  it('an empty body and plain text are refused', () => {
    expect(rejection(() => parseSitemapEntries('  ', { url: URL_SITEMAP })).reason).toBe('empty');
    expect(rejection(() => parseRssFeed('Service unavailable', { url: URL_RSS })).reason).toBe('not-well-formed');
  });
  it('over the size cap: refused before parsing, with the cap in the message', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/</loc></url>'.repeat(100)}</urlset>`;
    const error = rejection(() => parseSitemapEntries(xml, { url: URL_SITEMAP, maxBytes: 1000 }));
    expect(error.reason).toBe('too-large');
    expect(error.message).toContain('1000-byte size cap');
  });
  it('a sitemap index and an Atom feed are refused clearly', () => {
    expect(
      rejection(() => parseSitemapEntries(read('sitemap', 'sitemapjs-alltags-index.xml'), { url: URL_SITEMAP })).reason,
    ).toBe('sitemap-index');
    const atom = rejection(() => parseRssFeed(read('sitemap', 'crawlercommons-atom.xml'), { url: URL_RSS }));
    expect(atom.reason).toBe('unexpected-root');
    expect(atom.message).toContain('Atom feeds are not supported');
  });
  it('pathological shapes (deep nesting, huge start tags) are refused quickly as too complex', () => {
    const deep = `<urlset>${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}</urlset>`;
    const hugeTag = `<urlset ${Array.from({ length: 50_000 }, (_, i) => `a${i}="x"`).join(' ')}/>`;
    for (const xml of [deep, hugeTag]) {
      const error = rejection(() => parseSitemapEntries(xml, { url: URL_SITEMAP }));
      expect(fastestMs(() => rejection(() => parseSitemapEntries(xml, { url: URL_SITEMAP })))).toBeLessThan(500);
      expect(error.reason).toBe('too-complex');
      expect(error.message).toContain(
        `The sitemap at ${URL_SITEMAP} is not safe to parse: it is not shaped like a sitemap`,
      );
    }
  });
  it('adversarial prologs (many comments, unclosed CDATA before a DOCTYPE) stay linear', () => {
    for (const xml of [
      '<!---->'.repeat(10_000) + '<!--'.repeat(10_000) + '<urlset/>',
      `<urlset>${'<![CDATA['.repeat(200_000)}<!DOCTYPE x>`,
    ]) {
      expect(rejection(() => parseSitemapEntries(xml, { url: URL_SITEMAP })).message).toContain(URL_SITEMAP);
      expect(fastestMs(() => rejection(() => parseSitemapEntries(xml, { url: URL_SITEMAP })))).toBeLessThan(1000);
    }
    const html = rejection(() =>
      parseSitemapEntries('<?xml version="1.0"?>\n<!-- x -->\n<html><body>x</body></html>', { url: URL_SITEMAP }),
    );
    expect(html.reason).toBe('html');
  });
  it('a second root element is refused', () => {
    expect(
      rejection(() => parseSitemapEntries('<urlset></urlset><urlset></urlset>', { url: URL_SITEMAP })).reason,
    ).toBe('not-well-formed');
  });
});

describe('parseSitemapEntries', () => {
  it('reads loc and lastmod, decoding the predefined entities and CDATA, trimming whitespace', () => {
    const entries = parseSitemapEntries(read('sitemap', 'sitemapjs-alltags.cdata.xml'), { url: URL_SITEMAP });
    expect(entries[0]?.loc).toBe(`https://roosterteeth.com/episode/rouletsplay-2018-goldeneye-source&%3E%3C'%22`);
    const badns = parseSitemapEntries(read('sitemap', 'crawlercommons-sitemap.badns.xml'), { url: URL_SITEMAP });
    expect(badns[1]?.loc).toBe('http://www.example.com/2');
  });
  it('reads prefixed sitemaps', () => {
    const entries = parseSitemapEntries(read('sitemap', 'crawlercommons-sitemap.ns.xml'), { url: URL_SITEMAP });
    expect(entries).toEqual([{ loc: 'http://www.example.com/1' }, { loc: 'http://www.example.com/2' }]);
  });
  it('reads every well-formed urlset of the corpus', () => {
    for (const entry of manifest('sitemap').filter((e) => e.well_formed && e.root === 'urlset')) {
      expect(parseSitemapEntries(read('sitemap', entry.file), { url: URL_SITEMAP }).length, entry.file).toBeGreaterThan(
        0,
      );
    }
  });
  it('numeric character references are decoded, unknown named references left as text', () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/caf&#233;?x=1&amp;y=&#x32;</loc><lastmod>2026-11-21</lastmod></url></urlset>';
    expect(parseSitemapEntries(xml, { url: URL_SITEMAP })).toEqual([
      { loc: 'https://a.example/café?x=1&y=2', lastmod: '2026-11-21' },
    ]);
  });
});

describe('parseRssFeed', () => {
  it('reads channel and items of a real feed with content:encoded', () => {
    const feed = parseRssFeed(read('rss', 'rssparser-content-encoded.rss'), { url: URL_RSS });
    expect(feed.title).toBeTruthy();
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.some((i) => (i.contentEncoded ?? '').includes('<'))).toBe(true);
  });
  it("reads each item's categories (CDATA in Medium's feed, plain in the feed validator's case), in order", () => {
    const medium = parseRssFeed(read('rss', 'rssparser-content-encoded.rss'), { url: URL_RSS });
    expect(medium.items[0]!.categories).toEqual(['plants', 'environment', 'nature', 'foraging', 'food']);
    const validator = parseRssFeed(read('rss', 'feedvalidator/rss20/element-channel-item/multiple_item_category.xml'), {
      url: URL_RSS,
    });
    expect(validator.items[0]!.categories).toEqual(['Weblogging', 'Navel-gazing']);
    // Only unprefixed, non-empty <category> children: no categories, no field.
    const bare = parseRssFeed(
      '<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item><link>https://a.example/blog/x/</link><category> </category><media:category>m</media:category></item></channel></rss>',
      { url: URL_RSS },
    );
    expect(bare.items[0]!.categories).toBeUndefined();
  });
  it('reads every well-formed feed of the corpus', () => {
    for (const entry of manifest('rss').filter((e) => e.well_formed)) {
      const feed = parseRssFeed(read('rss', entry.file), { url: URL_RSS });
      expect(feed.items.length, entry.file).toBeGreaterThan(0);
    }
  });
  it('refuses the not-well-formed feeds of the corpus with the URL', () => {
    // (the other one is only broken at the byte level, an encoding problem a string input cannot show)
    const error = rejection(() => parseRssFeed(read('rss', 'rssparser-unrecognized.rss'), { url: URL_RSS }));
    expect(error.reason).toBe('html');
    expect(error.message).toContain(URL_RSS);
  });
});

describe('slugFromArticleUrl', () => {
  it('takes the last non-empty path segment, decoded', () => {
    expect(slugFromArticleUrl('https://pro-blog.example.com/blog/my-post/')).toBe('my-post');
    expect(slugFromArticleUrl('https://pro-blog.example.com/blog/caf%C3%A9')).toBe('café');
    expect(slugFromArticleUrl('https://pro-blog.example.com/')).toBeUndefined();
    expect(slugFromArticleUrl('not a url')).toBeUndefined();
  });
});
