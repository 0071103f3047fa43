import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeArticleUrlMapper,
  parseRssFeed,
  rewriteRss,
  XmlSafetyError,
  type RewriteRssOptions,
} from '../../src/feeds/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';

const CORPORA = join(import.meta.dirname, '../corpora/xml');
const UPSTREAM = 'https://api.example.com/api/sites/12/rss.xml';
const SITE = 'https://pro-blog.example.com';
const SELF = 'https://blog.example.com/base/rss.xml';
const mapUrl = makeArticleUrlMapper({
  blogSite: 'https://blog.example.com/base/',
  upstreamOrigins: [SITE, 'https://api.example.com'],
});
const options = (extra: Partial<RewriteRssOptions> = {}): RewriteRssOptions => ({
  url: UPSTREAM,
  upstreamOrigins: [SITE, 'https://api.example.com'],
  mapUrl,
  selfUrl: SELF,
  ...extra,
});
const count = (text: string, needle: string): number => text.split(needle).length - 1;

const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Pro &amp; Co</title>
    <link>${SITE}/</link>
    <atom:link href="https://api.example.com/api/sites/12/rss.xml" rel="self" type="application/rss+xml"/>
    <atom:link href="https://hub.example.com/" rel="hub"/>
    <item>
      <title>First</title>
      <link>${SITE}/blog/first/</link>
      <guid isPermaLink="true">${SITE}/blog/first/</guid>
      <dc:creator>Ann</dc:creator>
      <description>See &lt;a href="/blog/second/"&gt;the second&lt;/a&gt;</description>
      <content:encoded><![CDATA[<p><a href="/blog/second/">second</a> <a href="../third/">third</a> <a href="#top">top</a>
<img src="/images/a.png" srcset="/images/a.png 1x, https://cdn.example.com/a2.png 2x"> <a href="mailto:x@example.com">mail</a>
<a href="${SITE}/blog/fourth/">fourth</a> <a href="https://elsewhere.example.org/x">out</a></p>]]></content:encoded>
    </item>
    <item>
      <title>Second</title>
      <link>${SITE}/blog/second/</link>
      <guid isPermaLink="false">${SITE}/blog/second/</guid>
    </item>
    <item>
      <title>Third</title>
      <link>${SITE}/blog/third/</link>
      <guid>${SITE}/blog/third/</guid>
    </item>
  </channel>
</rss>
`;

describe('rewriteRss: URL rules', () => {
  const out = rewriteRss(feed, options());
  const parsed = parseRssFeed(out, { url: SELF });

  it('channel link -> the blog home; atom:link rel="self" -> selfUrl; other atom:links kept', () => {
    expect(parsed.link).toBe('https://blog.example.com/base/');
    expect(out).toContain(`<atom:link href="${SELF}" rel="self" type="application/rss+xml"/>`);
    // Written from the allow-list under the conventional prefixes, each declared once on the root.
    expect(out).toContain('<atom:link href="https://hub.example.com/" rel="hub"/>');
  });
  it('item links and permalink guids (explicit or default) point at the blog; isPermaLink="false" guids are kept', () => {
    expect(parsed.items.map((i) => i.link)).toEqual([
      'https://blog.example.com/base/blog/first/',
      'https://blog.example.com/base/blog/second/',
      'https://blog.example.com/base/blog/third/',
    ]);
    expect(parsed.items.map((i) => i.guid)).toEqual([
      'https://blog.example.com/base/blog/first/',
      `${SITE}/blog/second/`,
      'https://blog.example.com/base/blog/third/',
    ]);
  });
  it('relative URLs in content:encoded are made absolute against the item link; links to the service point at the blog', () => {
    const html = parsed.items[0]?.contentEncoded ?? '';
    expect(html).toContain('<a href="https://blog.example.com/base/blog/second/">second</a>');
    expect(html).toContain('<a href="https://blog.example.com/base/blog/third/">third</a>');
    expect(html).toContain('<a href="https://blog.example.com/base/blog/fourth/">fourth</a>');
    expect(html).toContain('<a href="#top">top</a>');
    expect(html).toContain('<a href="mailto:x@example.com">mail</a>');
    expect(html).toMatch(/<a href="https:\/\/elsewhere\.example\.org\/x"[^>]*>out<\/a>/);
    // Images are files on the service's CDN: made absolute, not moved to the blog.
    expect(html).toContain(`src="${SITE}/images/a.png"`);
    expect(html).toContain(`srcset="${SITE}/images/a.png 1x, https://cdn.example.com/a2.png 2x"`);
  });
  it('escaped HTML in description is sanitised like content:encoded and written as CDATA, with absolute URLs', () => {
    expect(parsed.items[0]?.description).toBe(
      'See <a href="https://blog.example.com/base/blog/second/">the second</a>',
    );
    expect(out).toContain(
      '<description><![CDATA[See <a href="https://blog.example.com/base/blog/second/">the second</a>]]></description>',
    );
  });
  it('keeps CDATA, namespaces, extension elements, items and their order', () => {
    expect(count(out, '<![CDATA[')).toBe(2);
    expect(out).toContain('<dc:creator>Ann</dc:creator>');
    expect(out.split('\n')[1]).toBe(
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    );
    expect(parsed.items.map((i) => i.title)).toEqual(['First', 'Second', 'Third']);
  });
  it('hostile input is refused', () => {
    const bomb = readFileSync(join(CORPORA, 'xxe', 'defusedxml-xmlbomb.xml'), 'utf8');
    expect(() => rewriteRss(bomb, options())).toThrow(XmlSafetyError);
    expect(() => rewriteRss(bomb, options())).toThrow(`The RSS feed at ${UPSTREAM} is not safe to parse`);
  });
  it('a bad selfUrl is named in a TypeError', () => {
    expect(() => rewriteRss(feed, options({ selfUrl: '/rss.xml' }))).toThrow(/rewriteRss\(\): `selfUrl`/);
  });
});

describe('rewriteRss: the simulator feed, read by rss-parser', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ articles: 60 });
  });
  afterAll(async () => sim.close());

  it('50 items in the same order, every link on the blog, CDATA kept, rss-parser reads it', async () => {
    const upstreamUrl = `${sim.url}/api/sites/12/rss.xml`;
    const upstream = await (await fetch(upstreamUrl)).text();
    const origins = [SITE, sim.url];
    const out = rewriteRss(upstream, {
      url: upstreamUrl,
      upstreamOrigins: origins,
      mapUrl: makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: origins }),
      selfUrl: 'https://blog.example.com/rss.xml',
    });
    const before = parseRssFeed(upstream, { url: upstreamUrl });
    const reader = await new Parser().parseString(out);
    expect(reader.items).toHaveLength(50);
    expect(reader.link).toBe('https://blog.example.com/');
    expect(reader.items.map((i) => i.link)).toEqual(
      before.items.map((i) => i.link?.replace(SITE, 'https://blog.example.com')),
    );
    expect(reader.items.map((i) => i.guid)).toEqual(reader.items.map((i) => i.link));
    // Article HTML (description and content:encoded) goes out sanitised, as CDATA.
    expect(count(out, '<![CDATA[')).toBe(count(upstream, '<description>') - 1 + count(upstream, '<content:encoded>'));
    expect(out).toContain('<atom:link href="https://blog.example.com/rss.xml" rel="self"');
    // Article images stay on the service's CDN (the simulator serves it under /media/); nothing else names it.
    expect(out.replaceAll(`${sim.url}/media/`, '')).not.toContain(sim.url);
    expect(out).toContain(`src="${sim.url}/media/sites/12/`);
    const contents = parseRssFeed(out, { url: 'x' }).items.map((i) => i.contentEncoded ?? '');
    // No relative href/src survives, and no link to the service's domain either.
    expect(contents.join('\n')).not.toMatch(/(?:href|src)="\/(?!\/)/);
    expect(contents.join('\n')).not.toContain(`href="${SITE}`);
  });
});

interface ManifestEntry {
  file: string;
  well_formed: boolean;
  encoding: string;
  cdata_sections: number;
}
const manifest = JSON.parse(readFileSync(join(CORPORA, 'rss/manifest.json'), 'utf8')) as ManifestEntry[];

describe('rewriteRss: real-world feeds (corpora/xml/rss)', () => {
  for (const entry of manifest.filter((e) => e.well_formed)) {
    it(`${entry.file}: items, order, CDATA and namespaces intact; rss-parser reads it`, async () => {
      const upstream = readFileSync(
        join(CORPORA, 'rss', entry.file),
        entry.encoding.toLowerCase() === 'iso-8859-1' ? 'latin1' : 'utf8',
      );
      const before = parseRssFeed(upstream, { url: UPSTREAM });
      const origin = URL.canParse(before.link ?? '') ? new URL(before.link ?? '').origin : 'https://unknown.example';
      const out = rewriteRss(upstream, {
        url: UPSTREAM,
        upstreamOrigins: [origin],
        mapUrl: makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: [origin] }),
        selfUrl: SELF,
      });
      const after = parseRssFeed(out, { url: SELF });
      expect(after.items.map((i) => i.title)).toEqual(before.items.map((i) => i.title));
      // Item HTML goes out sanitised, as CDATA; an item with content keeps it.
      expect(after.items.map((i) => i.contentEncoded !== undefined)).toEqual(
        before.items.map((i) => i.contentEncoded !== undefined),
      );
      expect(after.items.map((i) => i.description !== undefined)).toEqual(
        before.items.map((i) => i.description !== undefined),
      );
      const blogMapper = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: [origin] });
      expect(after.items.map((i) => i.link)).toEqual(
        before.items.map((i) => (i.link === undefined ? undefined : blogMapper(i.link))),
      );
      expect(out).toMatch(/^(?:<\?xml[^>]*encoding="UTF-8"|(?!<\?xml[^>]*encoding))/i);
      const reader = await new Parser().parseString(out);
      expect(reader.items.length).toBe(before.items.length);
    });
  }
  it('an ISO-8859-1 feed is declared UTF-8 after the rewrite (the output is a string served as UTF-8)', () => {
    const upstream = readFileSync(join(CORPORA, 'rss', 'rssparser-encoding.rss'), 'latin1');
    const out = rewriteRss(upstream, options());
    expect(upstream).toMatch(/^<\?xml[^>]*encoding="ISO-8859-1"/i);
    expect(out).toMatch(/^<\?xml[^>]*encoding="UTF-8"/);
    expect(parseRssFeed(out, { url: SELF }).title).toBe(parseRssFeed(upstream, { url: UPSTREAM }).title);
    expect(parseRssFeed(out, { url: SELF }).title).toMatch(/[\u00c0-\u00ff]/);
  });
});
