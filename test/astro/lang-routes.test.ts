/**
 * Issue 18, "multilingual services": real builds against the simulator's `multilingual` profile (one slug
 * in several languages, article URLs /<lang>/blog/<slug>/ on the service). Three blog shapes: one page per
 * slug with the README's `language: 'en'` (test/fixtures/truth-site), language-prefixed routes with
 * `articlePattern: '/[lang]/blog/[slug]/'` (test/fixtures/lang-prefixed) and one pattern per language
 * (test/fixtures/lang-map). After each build, from `astro preview`: every URL of the sitemap, its hreflang
 * alternates, the feed and the pages' links answers 200; the sitemap lists exactly the article pages
 * built and validates against the sitemap schemas; the same article in two languages carries hreflang
 * alternates naming both pages; links inside an article to another language's article go to that
 * language's page on the blog.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, preview, type AstroInlineConfig } from 'astro';
import { afterAll, beforeAll, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { validateAgainstXsd } from '../support/xmllint.js';
import { fixtureRoot } from './loader-harness.js';

const SITE = 'https://blog.example.com';
const SERVICE = 'https://pro-blog.example.com';
const PAIR = 'lang-pair-article';
let sim: Simulator;
const dirs: string[] = [];

async function publish(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sim.url}/__simulator/articles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ site: 12, ...body }),
  });
  if (!response.ok) throw new Error(`publish: ${response.status} ${await response.text()}`);
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 20, profile: 'multilingual', rateLimitOverride: 100_000 });
  // One article in two languages under one slug, each linking to the other language's version (with the
  // language in the URL) and to the slug without a language (which the page's own language settles).
  await publish({
    title: 'A pair of articles',
    slug: PAIR,
    language: 'en',
    content: `<p>Read it <a href="${SERVICE}/fr/blog/${PAIR}/">in French</a> or <a href="${SERVICE}/blog/${PAIR}/#top">here</a>.</p>`,
  });
  await publish({
    title: "Une paire d'articles",
    slug: PAIR,
    language: 'fr',
    content: `<p>Lire <a href="${SERVICE}/en/blog/${PAIR}/">en anglais</a> ou <a href="${SERVICE}/blog/${PAIR}/#top">ici</a>.</p>`,
  });
});
afterAll(async () => {
  await sim?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function buildSite(name: string, integrationOptions: Record<string, unknown>, env: Record<string, string> = {}) {
  const root = fixtureRoot(name);
  await mkdir(join(root, 'dist'), { recursive: true });
  const outDir = await mkdtemp(join(root, 'dist', 'lang-'));
  const cacheDir = join(root, '.astro', `lang-${outDir.slice(-6)}`);
  dirs.push(outDir, cacheDir);
  const config: AstroInlineConfig = {
    site: SITE,
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, ...integrationOptions })],
  };
  const saved = { ...process.env };
  Object.assign(process.env, {
    PUBLISHER_BASE_URL: sim.url,
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
    ...env,
  });
  delete process.env.BASE_URL;
  try {
    await build({ root, outDir, cacheDir, logLevel: 'silent', ...config });
  } finally {
    for (const key of [
      'BASE_URL',
      'PUBLISHER_BASE_URL',
      'PUBLISHER_API_KEY',
      'PUBLISHER_SITE_ID',
      ...Object.keys(env),
    ]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  return { root, outDir, config };
}

/** The blog's article pages in the output: `{ lang, slug, url }` from their path under `layout`. */
async function articlePages(
  outDir: string,
  layout: (path: string) => { lang: string; slug: string } | undefined,
): Promise<Map<string, { lang: string; slug: string }>> {
  const pages = new Map<string, { lang: string; slug: string }>();
  for (const entry of await readdir(outDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== 'index.html') continue;
    const path = relative(outDir, entry.parentPath);
    const article = layout(path);
    if (article) pages.set(`${SITE}/${path}/`, article);
  }
  return pages;
}

interface Served {
  sitemap: string;
  locs: string[];
  rssLinks: string[];
  /** hreflang alternates per <loc>. */
  alternates: Map<string, Array<{ hreflang: string; href: string }>>;
  /** Every link of every page, by page URL. */
  links: Map<string, string[]>;
  failures: string[];
  checked: number;
}

/** Serves the output with `astro preview` and requests every URL the site names. */
async function serve(site: { root: string; outDir: string; config: AstroInlineConfig }): Promise<Served> {
  const server = await preview({
    ...site.config,
    root: site.root,
    outDir: site.outDir,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
  });
  const local = `http://127.0.0.1:${server.port}`;
  const get = (url: string) => fetch(url.replace(SITE, local), { redirect: 'manual' });
  try {
    const sitemap = await (await get(`${SITE}/sitemap.xml`)).text();
    const rss = await (await get(`${SITE}/rss.xml`)).text();
    const alternates = new Map<string, Array<{ hreflang: string; href: string }>>();
    const locs: string[] = [];
    for (const url of sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
      const loc = /<loc>([^<]*)<\/loc>/.exec(url[1] ?? '')?.[1] ?? '';
      locs.push(loc);
      const links = [...(url[1] ?? '').matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)];
      if (links.length > 0)
        alternates.set(
          loc,
          links.map((m) => ({ hreflang: m[1] ?? '', href: m[2] ?? '' })),
        );
    }
    const rssLinks = [...rss.matchAll(/<item>[\s\S]*?<link>([^<]*)<\/link>/g)].map((m) => m[1] ?? '');
    const links = new Map<string, string[]>();
    for (const entry of await readdir(site.outDir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
      const file = join(entry.parentPath, entry.name);
      const pageUrl = new URL(relative(site.outDir, file).replace(/index\.html$/, ''), `${SITE}/`).href;
      const html = await readFile(file, 'utf8');
      links.set(
        pageUrl,
        [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((m) => new URL(m[1] ?? '', pageUrl).href),
      );
    }
    const targets = new Set([...locs, ...rssLinks, ...[...alternates.values()].flat().map((a) => a.href)]);
    for (const pageLinks of links.values())
      for (const link of pageLinks) if (link.startsWith(`${SITE}/`)) targets.add(link.replace(/#.*$/, ''));
    const failures: string[] = [];
    for (const url of targets) {
      const response = await get(url);
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${url}`);
    }
    return { sitemap, locs, rssLinks, alternates, links, failures, checked: targets.size };
  } finally {
    await server.stop();
  }
}

function report(name: string, served: Served): void {
  console.log(
    `[lang-routes] ${name}: ${served.checked} URLs checked, ${served.failures.length} did not answer 200 (${served.locs.length} sitemap URLs, ${served.rssLinks.length} feed items)`,
  );
}

/** The checks shared by the two bilingual layouts. */
async function expectBilingual(
  served: Served,
  pages: Map<string, { lang: string; slug: string }>,
  urlOf: (lang: string, slug: string) => string,
) {
  expect(served.failures).toEqual([]);
  await expect(validateAgainstXsd(served.sitemap, 'sitemap-with-extensions.xsd')).resolves.toContain('validates');
  // Exactly the article pages built, in both languages (and nothing of the German and Spanish articles).
  const listed = served.locs.filter((loc) => pages.has(loc) || /\/blog\//.test(loc));
  expect(listed.sort()).toEqual([...pages.keys()].sort());
  expect(new Set([...pages.values()].map((p) => p.lang))).toEqual(new Set(['en', 'fr']));
  for (const link of served.rssLinks) expect(pages.has(link), link).toBe(true);
  expect(served.rssLinks).toEqual(expect.arrayContaining([urlOf('en', PAIR), urlOf('fr', PAIR)]));
  // hreflang: the pair names both its pages on each of them; every slug built in both languages has them.
  const pair = [
    { hreflang: 'en', href: urlOf('en', PAIR) },
    { hreflang: 'fr', href: urlOf('fr', PAIR) },
  ];
  expect(served.alternates.get(urlOf('en', PAIR))).toEqual(pair);
  expect(served.alternates.get(urlOf('fr', PAIR))).toEqual(pair);
  const bySlug = new Map<string, string[]>();
  for (const page of pages.values()) bySlug.set(page.slug, [...(bySlug.get(page.slug) ?? []), page.lang]);
  for (const [url, page] of pages) {
    const both = (bySlug.get(page.slug) ?? []).length === 2;
    expect(served.alternates.get(url), url).toEqual(
      both
        ? [
            { hreflang: 'en', href: urlOf('en', page.slug) },
            { hreflang: 'fr', href: urlOf('fr', page.slug) },
          ]
        : undefined,
    );
  }
  // Links inside the articles: to the other language's page, and a link without a language to the page's own.
  expect(served.links.get(urlOf('en', PAIR))).toEqual(
    expect.arrayContaining([urlOf('fr', PAIR), `${urlOf('en', PAIR)}#top`]),
  );
  expect(served.links.get(urlOf('fr', PAIR))).toEqual(
    expect.arrayContaining([urlOf('en', PAIR), `${urlOf('fr', PAIR)}#top`]),
  );
  // No link to the service's URL of an article the blog has in that language.
  const stale: string[] = [];
  for (const [page, links] of served.links)
    for (const link of links) {
      const m = /^https:\/\/pro-blog\.example\.com\/(en|fr)\/blog\/([^/]+)\/$/.exec(link);
      if (m && pages.has(urlOf(m[1] ?? '', decodeURIComponent(m[2] ?? '')))) stale.push(`${page}: ${link}`);
    }
  expect(stale).toEqual([]);
}

it("language-prefixed routes (articlePattern '/[lang]/blog/[slug]/', two loaders): every URL answers 200, hreflang alternates", async () => {
  const site = await buildSite('lang-prefixed', { articlePattern: '/[lang]/blog/[slug]/' });
  const pages = await articlePages(site.outDir, (path) => {
    const m = /^(en|fr)\/blog\/([^/]+)$/.exec(path);
    return m ? { lang: m[1] ?? '', slug: decodeURIComponent(m[2] ?? '') } : undefined;
  });
  const served = await serve(site);
  report("'/[lang]/blog/[slug]/'", served);
  expect(pages.size).toBeGreaterThan(4);
  await expectBilingual(served, pages, (lang, slug) => `${SITE}/${lang}/blog/${slug}/`);
});

it("a theme's strict schema that keeps only the title (no language, no url in the entry's data): the same pages, links and alternates", async () => {
  const site = await buildSite('lang-prefixed', { articlePattern: '/[lang]/blog/[slug]/' }, { LANG_THEME_SCHEMA: '1' });
  const pages = await articlePages(site.outDir, (path) => {
    const m = /^(en|fr)\/blog\/([^/]+)$/.exec(path);
    return m ? { lang: m[1] ?? '', slug: decodeURIComponent(m[2] ?? '') } : undefined;
  });
  const served = await serve(site);
  report('strict theme schema', served);
  expect(pages.size).toBeGreaterThan(4);
  await expectBilingual(served, pages, (lang, slug) => `${SITE}/${lang}/blog/${slug}/`);
});

it("rss: { title, language }: the injected feed carries the blog's title and <language>, and only that language's articles", async () => {
  const site = await buildSite('lang-prefixed', {
    articlePattern: '/[lang]/blog/[slug]/',
    rss: { title: 'Un blog & ses <articles>', language: 'fr' },
  });
  const served = await serve(site);
  expect(served.failures).toEqual([]);
  const rss = await readFile(join(site.outDir, 'rss.xml'), 'utf8');
  expect(rss).toMatch(/<channel>\s*<title>Un blog &amp; ses &lt;articles&gt;<\/title>/);
  expect(rss.match(/<language>[^<]*<\/language>/g)).toEqual(['<language>fr</language>']);
  expect(served.rssLinks.length).toBeGreaterThan(2);
  for (const link of served.rssLinks) expect(link).toMatch(new RegExp(`^${SITE}/fr/blog/`));
});

it("one pattern per language (articlePattern { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' }): the same, at each language's route", async () => {
  const site = await buildSite('lang-map', { articlePattern: { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' } });
  const pages = await articlePages(site.outDir, (path) => {
    const m = /^(fr\/)?blog\/([^/]+)$/.exec(path);
    return m ? { lang: m[1] ? 'fr' : 'en', slug: decodeURIComponent(m[2] ?? '') } : undefined;
  });
  const served = await serve(site);
  report('one pattern per language', served);
  const urlOf = (lang: string, slug: string) => `${SITE}${lang === 'fr' ? '/fr' : ''}/blog/${slug}/`;
  await expectBilingual(served, pages, urlOf);
});

it("one page per slug with the README's language: 'en' (test/fixtures/truth-site): only English articles, at /blog/<slug>/, all answering 200", async () => {
  const site = await buildSite('truth-site', {}, { TRUTH_MAX_REQUESTS: '100', TRUTH_LANGUAGE: 'en' });
  const pages = await articlePages(site.outDir, (path) => {
    const m = /^blog\/([^/]+)$/.exec(path);
    return m ? { lang: 'en', slug: decodeURIComponent(m[1] ?? '') } : undefined;
  });
  const served = await serve(site);
  report("language: 'en', '/blog/[slug]/'", served);
  expect(served.failures).toEqual([]);
  await expect(validateAgainstXsd(served.sitemap, 'sitemap-with-extensions.xsd')).resolves.toContain('validates');
  expect(pages.size).toBeGreaterThan(0);
  expect(served.locs.filter((loc) => loc.includes('/blog/')).sort()).toEqual([...pages.keys()].sort());
  for (const link of served.rssLinks) expect(pages.has(link), link).toBe(true);
  expect(served.rssLinks.length).toBeGreaterThan(0);
  // One language on the blog: no alternates.
  expect(served.alternates.size).toBe(0);
  for (const [url] of pages)
    expect(await readFile(join(site.outDir, new URL(url).pathname, 'index.html'), 'utf8')).toContain('lang="en"');
});
