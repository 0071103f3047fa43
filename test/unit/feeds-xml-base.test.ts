/**
 * Relative links of a feed that declares `xml:base` (on the root, the channel or an item) resolve against the
 * declared base, not the feed's URL (issue 37, "Also"). The two real-world documents of test/corpora/feeds/rss
 * that declare one with relative links came out wrong: item links, comments and the image kept relative (so a
 * reader resolved them against the blog's feed), and the item HTML's links pointed under the service's feed URL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteRss } from '../../src/feeds/rss-rewrite.js';

const DIR = join(import.meta.dirname, '../corpora/feeds/rss');
const FEED_URL = 'https://service.example.com/api/sites/12/rss.xml';
const rewrite = (xml: string, upstreamOrigins = ['https://service.example.com']) =>
  rewriteRss(xml, {
    url: FEED_URL,
    upstreamOrigins,
    mapUrl: (url) => url.replace('https://pro-blog.example.com/', 'https://blog.example.com/'),
    selfUrl: 'https://blog.example.com/rss.xml',
  });

describe('xml:base in feeds', () => {
  it('gofeed rss_channel_item_xml_base: the item link, its comments and the image URL, against the root base', () => {
    const out = rewrite(readFileSync(join(DIR, 'gofeed-rss-rss_channel_item_xml_base.xml'), 'utf8'));
    expect(out).toContain('<link>http://example.org/feeds/post/1</link>');
    expect(out).toContain('<comments>http://example.org/feeds/post/1/comments</comments>');
    expect(out).toContain('<url>http://example.org/feeds/logo.png</url>');
    expect(out).not.toContain('xml:base');
  });

  it('feedparser base-rel_uri_with_unicode_character: a link in the item HTML, against the root base', () => {
    const out = rewrite(readFileSync(join(DIR, 'feedparser-base-rel_uri_with_unicode_character.xml'), 'utf8'));
    expect(out).toContain('<a href="http://any.test/%C3%80">uri</a>');
    expect(out).not.toContain('service.example.com/api/sites/12/');
  });

  it('a base on the channel and one on an item (relative to it); a guid that is no permalink stays as it is', () => {
    const out = rewrite(
      `<rss version="2.0"><channel xml:base="https://pro-blog.example.com/blog/"><title>t</title><link>./</link><description>d</description>
<item xml:base="post-a/"><title>a</title><link>./</link><guid isPermaLink="false">abc</guid>
<description>&lt;a href="../post-b/"&gt;b&lt;/a&gt; &lt;img src="cover.png"&gt;</description></item>
<item><title>c</title><link>post-c/</link><enclosure url="c.mp3" length="1" type="audio/mpeg"/></item></channel></rss>`,
      ['https://service.example.com', 'https://pro-blog.example.com'],
    );
    // Links to the service's site are then mapped to the blog, as absolute ones always were.
    expect(out).toContain('<link>https://blog.example.com/blog/</link>');
    expect(out).toContain('<link>https://blog.example.com/blog/post-a/</link>');
    expect(out).toContain('<guid isPermaLink="false">abc</guid>');
    expect(out).toContain('href="https://blog.example.com/blog/post-b/"');
    expect(out).toContain('src="https://pro-blog.example.com/blog/post-a/cover.png"');
    expect(out).toContain('<link>https://blog.example.com/blog/post-c/</link>');
    expect(out).toContain('url="https://pro-blog.example.com/blog/c.mp3"');
  });

  it('a base of another scheme (javascript:, data:) is ignored; without xml:base nothing changes', () => {
    const hostile = rewrite(
      `<rss version="2.0" xml:base="javascript:alert(1)//"><channel><title>t</title><link>x</link><description>d</description></channel></rss>`,
    );
    expect(hostile).not.toContain('javascript:');
    expect(hostile).toContain('<link>x</link>');
    const plain = rewrite(
      `<rss version="2.0"><channel><title>t</title><link>post/1</link><description>d</description></channel></rss>`,
    );
    expect(plain).toContain('<link>post/1</link>');
  });
});
