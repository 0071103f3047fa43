// Issue 13's corpus test: every RSS feed and sitemap of test/corpora/feeds/ (test documents of feed and
// sitemap libraries in other languages, see SOURCES.md) through the same code as the routes. Each one is
// either written well-formed (namespace-aware), read by two third-party readers with the input's items,
// titles and text, every page URL on the blog, nothing active; or refused with a reason a person can act
// on, and only when an independent parser finds the input is what the refusal says (feeds-corpus-refusals.ts).
// The outcomes are pinned: which files are refused and why, and how many of each outcome per corpus.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFeed } from 'feedsmith';
import { DomUtils, parseDocument } from 'htmlparser2';
import Parser from 'rss-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { isXmlSafetyError, makeArticleUrlMapper, parseRssFeed, rewriteRss } from '../../src/feeds/index.js';
import { decodeXmlBytes } from '../../src/feeds/decode-xml.js';
import { buildSitemap } from '../../src/integration/proxy/feed-transform.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { xmllintString } from '../fixtures/integration-helpers/index.js';
import { independentEvidence, RSS_REFUSED, SITEMAP_REFUSED } from './feeds-corpus-refusals.js';
import { activeContent, parseStrict } from './feeds-xml-check.js';

const DIR = join(import.meta.dirname, '../corpora/feeds');
const BLOG = 'https://blog.example.com/';
const outcomes = new Map<string, number>();
const encodings = new Map<string, number>();
const count = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);

afterAll(() => {
  // The figures of the closing note: the corpus by kind and encoding, and the outcomes.
  console.info(`feeds corpus: ${JSON.stringify(Object.fromEntries([...encodings].sort()))}`);
  console.info(`feeds corpus outcomes: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}`);
});

/** The text a reader shows of some HTML: tags gone, references decoded, script and style dropped, spaces collapsed. */
function visibleText(html: string | undefined): string {
  const doc = parseDocument(html ?? '');
  // What the sanitiser's policy removes with its content (script, style, SVG, MathML, forms) is not text.
  for (const el of DomUtils.getElementsByTagName((e) => DROPPED.has(e.name), doc.children, true))
    DomUtils.removeElement(el);
  return (
    DomUtils.textContent(doc)
      // Characters XML forbids are dropped on purpose; C1 controls read as windows-1252, as HTML does.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/[\u0080-\u009F]/g, (c) => new TextDecoder('windows-1252').decode(new Uint8Array([c.charCodeAt(0)])))
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const DROPPED = new Set([
  'script',
  'style',
  'svg',
  'math',
  'form',
  'select',
  'textarea',
  'button',
  'object',
  'embed',
  'template',
  'noscript',
  'title',
]);

interface ReaderItems {
  titles: string[];
  texts: string[];
}

/** What a third-party reader makes of a feed; undefined when it cannot read it at all. */
async function readWith(reader: 'rss-parser' | 'feedsmith', xml: string): Promise<ReaderItems | undefined> {
  try {
    if (reader === 'rss-parser') {
      const feed = await new Parser().parseString(xml);
      return {
        titles: feed.items.map((i) => visibleText(i.title)),
        texts: feed.items.map((i) => visibleText(i.content)),
      };
    }
    const { feed } = parseFeed(xml) as { feed: { items?: Array<{ title?: string; description?: string }> } };
    return {
      titles: (feed.items ?? []).map((i) => visibleText(i.title)),
      texts: (feed.items ?? []).map((i) => visibleText(i.description)),
    };
  } catch {
    return undefined;
  }
}

const originOf = (url: string | undefined): string | undefined =>
  url !== undefined && URL.canParse(url.trim()) ? new URL(url.trim()).origin : undefined;

const rssFiles = readdirSync(join(DIR, 'rss')).sort();
const RSS_ROOTS = ['rss', 'RDF'];
/** The outcomes counted so far whose key starts with `prefix`. */
const outcomesOf = (prefix: string): Record<string, number> =>
  Object.fromEntries([...outcomes].filter(([key]) => key.startsWith(prefix)).sort());
const sitemapFiles = readdirSync(join(DIR, 'sitemap')).sort();

describe(`real-world RSS feeds (${rssFiles.length})`, () => {
  it('is a corpus of at least 150 feeds in several encodings', () => {
    expect(rssFiles.length).toBeGreaterThanOrEqual(150);
  });
  for (const file of rssFiles) {
    it(file, async () => {
      const bytes = readFileSync(join(DIR, 'rss', file));
      const url = `https://service.example.com/feeds/${file}`;
      let decoded: string;
      try {
        const result = decodeXmlBytes(bytes, { url, kind: 'RSS feed' });
        decoded = result.text;
        count(encodings, `rss ${result.encoding}`);
      } catch (error) {
        count(encodings, 'rss unknown');
        count(outcomes, `rss refused: encoding`);
        expect((error as Error).message).toMatch(/Fix the encoding declaration upstream/);
        expect(RSS_REFUSED[file], 'refused, as the corpus expects').toBe('encoding');
        expect(independentEvidence('encoding', bytes.toString('latin1'), { roots: RSS_ROOTS })).toBeDefined();
        return;
      }
      let input;
      try {
        input = parseRssFeed(bytes, { url });
      } catch (error) {
        if (!isXmlSafetyError(error)) throw error;
        count(outcomes, `rss refused: ${error.reason}`);
        // A refusal can fail a build, and Astro swaps the hint of an error whose text names "document" or "window"
        // for one about browser APIs (generateHint in astro/dist/core/errors/dev/utils.js).
        expect(String(error)).not.toMatch(/document|window/);
        expect(error.message).toContain(url);
        expect(RSS_REFUSED[file], `refused, as the corpus expects: ${error.message}`).toBe(error.reason);
        expect(independentEvidence(error.reason, decoded, { roots: RSS_ROOTS }), error.message).toBeDefined();
        return;
      }
      const origins = [
        ...new Set([
          'https://service.example.com',
          ...[input.link, ...input.items.map((i) => i.link)]
            .map(originOf)
            .filter((o): o is string => o !== undefined && o !== 'null'),
        ]),
      ];
      const mapUrl = makeArticleUrlMapper({ blogSite: BLOG, upstreamOrigins: origins });
      const out = rewriteRss(bytes, { url, upstreamOrigins: origins, mapUrl, selfUrl: `${BLOG}rss.xml` });
      count(outcomes, 'rss written');
      expect(RSS_REFUSED[file], 'written, though the corpus expects a refusal').toBeUndefined();
      const doc = parseStrict(out);
      expect(activeContent(doc)).toEqual([]);
      expect(out).not.toMatch(/<script|\son[a-z]+\s*=|javascript:/i);
      const after = parseRssFeed(out, { url: `${BLOG}rss.xml` });
      expect(after.items).toHaveLength(input.items.length);
      // Two third-party readers: whatever each reads of the input, it reads the same of the output (a title or
      // text it could not find in the input may appear: an undeclared or odd prefix is written canonically).
      for (const reader of ['rss-parser', 'feedsmith'] as const) {
        const before = await readWith(reader, decoded.replace(/^\s+(?=<\?xml)/, ''));
        if (before === undefined) {
          count(outcomes, `rss unreadable by ${reader} before and after`);
          continue;
        }
        const later = await readWith(reader, out);
        if (later === undefined && /<channel>\s*<\/channel>|<item>\s*<\/item>|<!\[CDATA\[\]\]>/.test(out)) {
          // Everything the channel or item held is outside the allow-list (an unknown namespace, a
          // non-RSS element) or the sanitiser's policy (an SVG or MathML description): feedsmith reads
          // no empty channel or item. Counted; the output is still well-formed and safe.
          count(outcomes, `rss emptied by the allow-list or the sanitiser, unreadable by ${reader}`);
          continue;
        }
        expect(later, `${reader} reads the output`).toBeDefined();
        expect(later?.titles.length, `${reader} item count`).toBe(before.titles.length);
        before.titles.forEach(
          (title, i) => title !== '' && expect(later?.titles[i], `${reader} title ${i}`).toBe(title),
        );
        // SVG and MathML are outside the sanitiser's policy (DESIGN.md): their text goes with them.
        if (/&lt;(?:svg|math)\b|<(?:svg|math)\b/.test(decoded)) continue;
        before.texts.forEach((text, i) => text !== '' && expect(later?.texts[i], `${reader} text ${i}`).toBe(text));
      }
      // Every article URL that pointed at the service points at the blog.
      for (const [i, item] of input.items.entries()) {
        const link = item.link?.trim();
        if (link !== undefined && origins.includes(originOf(link) ?? ''))
          expect(after.items[i]?.link?.startsWith(BLOG)).toBe(true);
      }
    });
  }
  it('outcomes: 597 feeds written, 2 refused as declaring entities, 2 as not well-formed', () => {
    // Counted by the tests above, which vitest runs before this one: it needs the whole file.
    const outcome = outcomesOf('rss ');
    expect(outcome).toEqual({
      'rss written': 597,
      'rss refused: doctype': 2,
      'rss refused: not-well-formed': 2,
      // Where a reader's comparison could not be made: a change here is a change in what is checked.
      'rss unreadable by rss-parser before and after': 150,
      'rss unreadable by feedsmith before and after': 105,
      'rss emptied by the allow-list or the sanitiser, unreadable by feedsmith': 10,
    });
    expect(Object.values(RSS_REFUSED).length).toBe(4);
  });
});

const config = (sitemapUrl: string): RouteConfig => ({
  siteId: 1,
  serviceOrigin: new URL(sitemapUrl).origin,
  sitemapUrl,
  rssUrl: `${new URL(sitemapUrl).origin}/rss.xml`,
  blogSite: BLOG,
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'ignore',
  timeoutMs: 1000,
  sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
  rss: { path: '/rss.xml' },
  dev: false,
  localPages: [],
});

describe(`real-world sitemaps (${sitemapFiles.length})`, () => {
  it('is a corpus of at least 50 sitemaps with indexes and the image, news, video and alternate extensions', () => {
    expect(sitemapFiles.length).toBeGreaterThanOrEqual(50);
    const all = sitemapFiles.map((f) => readFileSync(join(DIR, 'sitemap', f), 'utf8')).join('\n');
    for (const marker of ['<sitemapindex', 'sitemap-image/1.1', 'sitemap-news/0.9', 'sitemap-video/1.1', 'hreflang='])
      expect(all).toContain(marker);
  });
  for (const file of sitemapFiles) {
    it(file, async () => {
      const text = readFileSync(join(DIR, 'sitemap', file), 'utf8');
      const locs = [...text.matchAll(/<(?:\w+:)?loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)/g)].map((m) => m[1] ?? '');
      // The index and its parts live on the origin of the first loc (a relative or odd loc: a fixed one).
      const first =
        locs.find((l) => originOf(l) !== undefined && originOf(l) !== 'null') ?? 'https://service.example.com/';
      const sitemapUrl = `${new URL(first).origin}/sitemap.xml`;
      const fetched: string[] = [];
      let files;
      try {
        files = await buildSitemap(text, config(sitemapUrl), [], async (part) => {
          fetched.push(part);
          return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${new URL(part).origin}/blog/from-part-${fetched.length}/</loc><lastmod>2026-01-0${(fetched.length % 9) + 1}</lastmod></url></urlset>`;
        });
      } catch (error) {
        if (!isXmlSafetyError(error)) throw error;
        count(outcomes, `sitemap refused: ${error.reason}`);
        // A refusal can fail a build, and Astro swaps the hint of an error whose text names "document" or "window"
        // for one about browser APIs (generateHint in astro/dist/core/errors/dev/utils.js).
        expect(String(error)).not.toMatch(/document|window/);
        expect(error.message).toMatch(/ is not safe to parse: .+\./);
        expect(SITEMAP_REFUSED[file], `refused, as the corpus expects: ${error.message}`).toBe(error.reason);
        const context = { roots: ['urlset', 'sitemapindex'], indexUrl: sitemapUrl };
        expect(independentEvidence(error.reason, text, context), error.message).toBeDefined();
        return;
      }
      count(outcomes, `sitemap written: ${files.kind === 'index' ? 'index' : 'urlset'}`);
      expect(SITEMAP_REFUSED[file], 'written, though the corpus expects a refusal').toBeUndefined();
      for (const xml of [files.xml, ...(files.kind === 'index' ? files.parts : [])]) {
        const doc = parseStrict(xml);
        expect(activeContent(doc)).toEqual([]);
        expect(xml).not.toMatch(/<\?xml-stylesheet|<script/i);
      }
      if (files.kind === 'index') {
        await expect(xmllintString(files.xml, 'siteindex-0.9.xsd')).resolves.toContain('validates');
        for (const part of files.parts)
          await expect(xmllintString(part, 'sitemap-0.9.xsd')).resolves.toContain('validates');
        return;
      }
      const written = [...files.xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
      // Every page of the service's origin is on the blog now; nothing else was invented.
      for (const loc of written)
        expect(loc.startsWith(BLOG) || originOf(loc.replaceAll('&amp;', '&')) !== new URL(sitemapUrl).origin).toBe(
          true,
        );
      const before = await xmllintString(text.trimStart(), 'sitemap-0.9.xsd').then(
        () => true,
        () => false,
      );
      if (before) await expect(xmllintString(files.xml, 'sitemap-0.9.xsd')).resolves.toContain('validates');
    });
  }
  it('outcomes: 13 indexes and 35 urlsets written, 1 refused for a part elsewhere, 1 for entities, 2 not well-formed', () => {
    const outcome = outcomesOf('sitemap ');
    expect(outcome).toEqual({
      'sitemap written: index': 13,
      'sitemap written: urlset': 35,
      'sitemap refused: index-part': 1,
      'sitemap refused: doctype': 1,
      'sitemap refused: not-well-formed': 2,
    });
    expect(Object.values(SITEMAP_REFUSED).length).toBe(4);
  });
});
