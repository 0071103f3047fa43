/**
 * Issue 38 item 2, article metadata in one call: a real build of test/fixtures/head-site (two languages, one
 * collection through the blog starter's mapping, pages at /<lang>/blog/<slug>/ with the shipped
 * components/ArticleHead.astro) against the simulator's `multilingual` profile, read with htmlparser2 and
 * served by `astro preview`. Every article page's head has one JSON-LD `BlogPosting` that parses and round-trips
 * and carries what Google's Article documentation recommends (headline, image, datePublished and dateModified
 * in ISO 8601 with an offset, author with name and url), the canonical URL, Open Graph, `article:` and Twitter
 * tags; the article in two languages has hreflang links to both pages; and an article titled
 * `</script><script>alert(1)</script> & "x"` gives exactly one script element, which parses back to that title.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, preview, type AstroInlineConfig } from 'astro';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureRoot } from './loader-harness.js';

const SITE = 'https://blog.example.com';
const ROOT = fixtureRoot('head-site');
const PAIR = 'head-pair-article';
const HOSTILE = '</script><script>alert(1)</script> & "x"';
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

let sim: Simulator;
let outDir: string;
let cacheDir: string;
let config: AstroInlineConfig;
/** Each article page's document, by its URL on the blog. */
const pages = new Map<string, ReturnType<typeof parseDocument>>();
const html = new Map<string, string>();

async function publish(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sim.url}/__simulator/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ site: 12, ...body }),
  });
  if (!response.ok) throw new Error(`publish: ${response.status} ${await response.text()}`);
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 6, profile: 'multilingual', rateLimitOverride: 100_000 });
  await publish({ title: 'A pair of articles', slug: PAIR, language: 'en', content: '<p>English.</p>' });
  await publish({ title: "Une paire d'articles", slug: PAIR, language: 'fr', content: '<p>Français.</p>' });
  await publish({ title: HOSTILE, slug: 'hostile-title', language: 'en', content: '<p>Body.</p>' });
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  outDir = await mkdtemp(join(ROOT, 'dist', 'head-'));
  cacheDir = join(ROOT, '.astro', `head-${outDir.slice(-6)}`);
  config = {
    root: ROOT,
    outDir,
    cacheDir,
    site: SITE,
    logLevel: 'silent',
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, articlePattern: '/[lang]/blog/[slug]/' })],
  };
  const saved = { ...process.env };
  Object.assign(process.env, {
    PUBLISHER_BASE_URL: sim.url,
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
  });
  delete process.env.BASE_URL;
  try {
    await build(config);
  } finally {
    for (const key of ['BASE_URL', 'PUBLISHER_BASE_URL', 'PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  for (const entry of await readdir(outDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const path = relative(outDir, entry.parentPath);
    if (!/^(en|fr)\/blog\/[^/]+$/.test(path)) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    html.set(`${SITE}/${path}/`, text);
    pages.set(`${SITE}/${path}/`, parseDocument(text));
  }
}, 300_000);
afterAll(async () => {
  await sim?.close();
  await rm(outDir, { recursive: true, force: true });
  await rm(cacheDir, { recursive: true, force: true });
});

type Doc = ReturnType<typeof parseDocument>;
const elements = (doc: Doc, name: string) => DomUtils.getElementsByTagName(name, doc);
const metaOf = (doc: Doc, key: string) =>
  elements(doc, 'meta')
    .filter((m) => m.attribs.property === key || m.attribs.name === key)
    .map((m) => m.attribs.content);
const jsonLdOf = (doc: Doc) => elements(doc, 'script').filter((s) => s.attribs.type === 'application/ld+json');

it('builds a page per article and language, the pair in both', () => {
  expect(pages.size).toBeGreaterThan(6);
  expect(pages.has(`${SITE}/en/blog/${PAIR}/`)).toBe(true);
  expect(pages.has(`${SITE}/fr/blog/${PAIR}/`)).toBe(true);
});

it("every page: one JSON-LD BlogPosting that parses, round-trips and carries Google's recommended Article properties", () => {
  for (const [url, doc] of pages) {
    const [script, ...more] = jsonLdOf(doc);
    expect(more, url).toEqual([]);
    const raw = DomUtils.textContent(script!);
    // Escaped at the JSON level: nothing in the element can close it or open a comment.
    expect(raw).not.toMatch(/[<>]/);
    const ld = JSON.parse(raw) as Record<string, unknown>;
    expect(JSON.parse(JSON.stringify(ld))).toEqual(ld);
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('BlogPosting');
    expect(ld.headline).toBe(DomUtils.textContent(elements(doc, 'title')[0]!));
    expect(typeof ld.description).toBe('string');
    expect(ld.datePublished).toMatch(ISO_WITH_OFFSET);
    if (ld.dateModified !== undefined) expect(ld.dateModified).toMatch(ISO_WITH_OFFSET);
    expect(ld.mainEntityOfPage).toEqual({ '@type': 'WebPage', '@id': url });
    expect(ld.url).toBe(url);
    expect(ld.inLanguage).toBe(url.includes('/fr/') ? 'fr' : 'en');
    expect(ld.author).toEqual({ '@type': 'Person', name: 'Jane Doe', url: `${SITE}/about/` });
    expect(ld.publisher).toEqual({
      '@type': 'Organization',
      name: 'Example Blog',
      url: `${SITE}/`,
      logo: { '@type': 'ImageObject', url: `${SITE}/logo.png` },
    });
    for (const image of (ld.image as string[] | undefined) ?? []) expect(new URL(image).href).toBe(image);
    // Absent fields are left out, never written as "undefined" or null.
    expect(raw).not.toContain('undefined');
    expect(raw).not.toContain('null');
  }
  // Articles with a featured image have it in the JSON-LD (the simulator gives most one).
  expect(
    [...pages.values()].filter((doc) => JSON.parse(DomUtils.textContent(jsonLdOf(doc)[0]!)).image).length,
  ).toBeGreaterThan(3);
});

it("every page: canonical URL (the blog's), description, og:type article, og:image absolute, article: times, twitter:card", () => {
  for (const [url, doc] of pages) {
    const canonical = elements(doc, 'link').filter((l) => l.attribs.rel === 'canonical');
    expect(
      canonical.map((l) => l.attribs.href),
      url,
    ).toEqual([url]);
    expect(metaOf(doc, 'description')[0]?.length).toBeGreaterThan(0);
    expect(metaOf(doc, 'og:type')).toEqual(['article']);
    expect(metaOf(doc, 'og:url')).toEqual([url]);
    expect(metaOf(doc, 'article:published_time')[0]).toMatch(ISO_WITH_OFFSET);
    const ld = JSON.parse(DomUtils.textContent(jsonLdOf(doc)[0]!)) as { image?: string[]; datePublished: string };
    expect(metaOf(doc, 'article:published_time')).toEqual([ld.datePublished]);
    expect(metaOf(doc, 'og:image')).toEqual(ld.image ?? []);
    expect(metaOf(doc, 'twitter:card')).toEqual([ld.image ? 'summary_large_image' : 'summary']);
    expect(html.get(url)).not.toMatch(/content="undefined"|href="undefined"/);
  }
});

it('og:image is the optimised local copy (under /_astro/, absolute), and every image, canonical and alternate URL answers 200 from astro preview', async () => {
  const images = [...pages.values()].flatMap((doc) => metaOf(doc, 'og:image'));
  expect(images.length).toBeGreaterThan(3);
  for (const image of images) expect(image).toMatch(new RegExp(`^${SITE}/_astro/[^/]+\\.webp$`));
  const urls = new Set([
    ...images,
    ...[...pages.values()].flatMap((doc) => elements(doc, 'link').map((l) => l.attribs.href!)),
    `${SITE}/logo.png`,
    `${SITE}/about/`,
  ]);
  const server = await preview({ ...config, server: { port: 0, host: '127.0.0.1' } });
  try {
    const failures: string[] = [];
    for (const url of urls) {
      const response = await fetch(url.replace(SITE, `http://127.0.0.1:${server.port}`), { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${url}`);
    }
    expect(failures).toEqual([]);
  } finally {
    await server.stop();
  }
});

it('the article in two languages: hreflang links to both pages, itself included; an article in one language has none', () => {
  const alternates = (url: string) =>
    elements(pages.get(url)!, 'link')
      .filter((l) => l.attribs.rel === 'alternate' && l.attribs.hreflang)
      .map((l) => [l.attribs.hreflang, l.attribs.href]);
  const both = [
    ['en', `${SITE}/en/blog/${PAIR}/`],
    ['fr', `${SITE}/fr/blog/${PAIR}/`],
  ];
  expect(alternates(`${SITE}/en/blog/${PAIR}/`)).toEqual(both);
  expect(alternates(`${SITE}/fr/blog/${PAIR}/`)).toEqual(both);
  expect(alternates(`${SITE}/en/blog/hostile-title/`)).toEqual([]);
});

it(`an article titled ${HOSTILE}: exactly one script element, which parses back to that title`, () => {
  const doc = pages.get(`${SITE}/en/blog/hostile-title/`)!;
  const scripts = elements(doc, 'script');
  expect(scripts).toHaveLength(1);
  expect(scripts[0]!.attribs.type).toBe('application/ld+json');
  const ld = JSON.parse(DomUtils.textContent(scripts[0]!)) as { headline: string };
  expect(ld.headline).toBe(HOSTILE);
  expect(DomUtils.textContent(elements(doc, 'title')[0]!)).toBe(HOSTILE);
  expect(metaOf(doc, 'og:title')).toEqual([HOSTILE]);
});
