// Undefined entity references (`&nbsp;`, `&uuml;`, an HTML page's habits) and bare `&`s pass
// fast-xml-parser's validator; copied verbatim they make the rewritten feed ill-formed (xmllint and feed
// readers reject it). The rewriters escape them to `&amp;`: the text then reads literally, nothing expanded.
import { describe, expect, it } from 'vitest';
import { makeArticleUrlMapper, rewriteRss, rewriteSitemap } from '../../src/feeds/index.js';
import { scanReferences } from '../../src/feeds/xml-references.js';

const strayAmpersandOffsets = (xml: string): number[] => scanReferences(xml).stray;

const SITE = 'https://pro-blog.example.com';
const origins = [SITE];
const mapUrl = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: origins });

describe('stray ampersands', () => {
  it('a reference to a character XML forbids is refused, naming it', () => {
    const rss = `<rss version="2.0"><channel><title>alpha&#26;amp;omega</title><link>${SITE}/</link></channel></rss>`;
    expect(() =>
      rewriteRss(rss, {
        url: `${SITE}/rss.xml`,
        upstreamOrigins: origins,
        mapUrl,
        selfUrl: 'https://blog.example.com/rss.xml',
      }),
    ).toThrow(/not well-formed XML: the character reference &#26; names a character XML does not allow/);
  });

  it('a forbidden character after stray ampersands is placed in the escaped text, as written out', () => {
    const rss = `<rss version="2.0"><channel>\n<title>Fish & Chips&nbsp;&amp; &#26;</title><link>${SITE}/</link></channel></rss>`;
    let error: unknown;
    try {
      rewriteRss(rss, {
        url: `${SITE}/rss.xml`,
        upstreamOrigins: origins,
        mapUrl,
        selfUrl: 'https://blog.example.com/rss.xml',
      });
    } catch (caught) {
      error = caught;
    }
    // "<title>Fish &amp; Chips&amp;nbsp;&amp; " is 39 characters: &#26; starts at column 40 of line 2.
    expect(error).toMatchObject({ reason: 'not-well-formed', line: 2, column: 40 });
    expect((error as Error).message).toContain('the character reference &#26; names a character XML does not allow');
  });

  it('finds undefined entities and bare ampersands, not predefined ones, character references, CDATA or comments', () => {
    const xml =
      '<a x="&uuml;&amp;"><!-- &nbsp; --><![CDATA[&nbsp;]]>&lt;&#233;&#x10FFFF;&nbsp;& x;<?pi &x; ?>&copy;</a>';
    const found = strayAmpersandOffsets(xml).map((at) => xml.slice(at, xml.indexOf(';', at) + 1));
    expect(found).toEqual(['&uuml;', '&nbsp;', '& x;', '&copy;']);
    expect(scanReferences(xml).invalidCharacter).toBe(-1);
    expect(scanReferences('<a>ok &#233; bad &#26; &#0;</a>').invalidCharacter).toBe(17);
    expect(strayAmpersandOffsets('<a>no references</a>')).toEqual([]);
  });

  it('rewriteRss escapes them in text and attributes and leaves CDATA alone', () => {
    const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Caf&eacute; &amp; Co</title><link>${SITE}/</link>
<item><title>M&uuml;nchen&nbsp;guide</title><link>${SITE}/blog/munich/</link><category domain="a&b">x</category>
<description>&lt;p&gt;a&amp;nbsp;b&lt;/p&gt;</description><content:encoded xmlns:content="http://purl.org/rss/1.0/modules/content/"><![CDATA[<p>&nbsp;kept</p>]]></content:encoded></item>
</channel></rss>`;
    const out = rewriteRss(rss, {
      url: `${SITE}/rss.xml`,
      upstreamOrigins: origins,
      mapUrl,
      selfUrl: 'https://blog.example.com/rss.xml',
    });
    expect(out).toContain('<title>Caf&amp;eacute; &amp; Co</title>');
    expect(out).toContain('<title>M&amp;uuml;nchen&amp;nbsp;guide</title>');
    expect(out).toContain('domain="a&amp;b"');
    // HTML entities in article HTML are the sanitiser's to read: it writes them as characters or references.
    expect(out).toMatch(/<!\[CDATA\[<p>(?:&nbsp;|\u00a0)kept<\/p>\]\]>/);
    expect(out).toContain('<link>https://blog.example.com/blog/munich/</link>');
    expect(strayAmpersandOffsets(out)).toEqual([]);
  });

  it('rewriteSitemap escapes them in every written <url>; root attributes and comments are not written', () => {
    const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" data-x="&nbsp;">
<url><loc>${SITE}/blog/a/</loc><priority>&nbsp;0.5</priority></url>
<url><loc>https://other.example.org/&uuml;</loc><!-- &nbsp; --></url>
</urlset>`;
    const result = rewriteSitemap(sitemap, {
      url: `${SITE}/sitemap.xml`,
      upstreamOrigins: origins,
      mapUrl,
      partUrl: (n) => `https://blog.example.com/sitemap-${n}.xml`,
    });
    expect(result.kind).toBe('urlset');
    expect(result.xml).not.toContain('data-x');
    expect(result.xml).toContain('<loc>https://other.example.org/&amp;uuml;</loc></url>');
    // "&nbsp;0.5" is not a priority the schema accepts: dropped rather than published.
    expect(result.xml).toContain('<url><loc>https://blog.example.com/blog/a/</loc></url>');
    expect(strayAmpersandOffsets(result.xml)).toEqual([]);
  });
});
