import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Parser from 'rss-parser';
import type { AstroIntegration } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, tempDirs } from './loader-harness.js';
import {
  buildSite,
  fixtureArticles,
  fixtureRoot,
  locsOf,
  removeBuilds,
  RSS_ROUTE,
  SITEMAP_ROUTE,
  xmllint,
} from '../fixtures/integration-helpers/index.js';

// Static output: /rss.xml is prerendered by the route, /sitemap.xml is written once every page is built.
describe('integration, static output', () => {
  let sim: Simulator;
  let outDir: string;
  let upstreamSitemap: string;
  let upstreamRss: string;
  /** Three articles of the feed whose page the blog does not build: listed nowhere, linked to on the service. */
  let unserved: string[];
  const slugOf = (url: string | undefined) => /\/blog\/([^/]+)\/$/.exec(url ?? '')?.[1] ?? '';

  beforeAll(async () => {
    sim = await startSimulator({ articles: 60 });
    upstreamSitemap = await (await fetch(`${sim.url}/api/sites/12/sitemap.xml`)).text();
    upstreamRss = await (await fetch(`${sim.url}/api/sites/12/rss.xml`)).text();
    sim.resetStats();
    const feedLinks = [...upstreamRss.matchAll(/<link>([^<]+)<\/link>/g)].map((m) => m[1]).slice(1);
    unserved = [feedLinks[0], feedLinks[10], feedLinks[49]].map(slugOf);
    const served = locsOf(upstreamSitemap)
      .map(slugOf)
      .filter((slug) => !unserved.includes(slug));
    outDir = await buildSite('integration-site', {
      site: 'https://blog.example.com',
      base: '/docs',
      integrations: [
        publisher({
          siteId: 12,
          baseUrl: sim.url,
          sitemap: { filter: (url) => !url.includes('/secret/'), customPages: ['https://blog.example.com/docs/shop/'] },
        }),
        fixtureArticles(served),
      ],
    });
  });
  afterAll(async () => {
    await sim.close();
    await removeBuilds();
  });

  it('fetches each public feed once, without an Authorization header', () => {
    const stats = sim.stats();
    expect(stats.routes[SITEMAP_ROUTE]).toEqual({ 200: 1 });
    expect(stats.routes[RSS_ROUTE]).toEqual({ 200: 1 });
    expect(stats.authenticated).toBe(0);
    expect(stats.requests.every((r) => !r.authorization)).toBe(true);
  });

  it('sitemap: every upstream article the blog built points at the blog, with site, base and article pattern', async () => {
    const xml = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
    const upstream = locsOf(upstreamSitemap);
    expect(upstream).toHaveLength(60);
    const expected = upstream
      .filter((loc) => !unserved.includes(slugOf(loc)))
      .map((loc) => loc.replace('https://pro-blog.example.com/blog/', 'https://blog.example.com/docs/blog/'));
    const locs = locsOf(xml);
    expect(locs.slice(0, 57)).toEqual(expected);
    expect(xml).not.toContain('pro-blog.example.com');
    // lastmod kept
    expect(xml.match(/<lastmod>/g)?.length).toBe(57);
  });

  it('without an articles loader, an article whose page the build did not write is listed nowhere', async () => {
    const sitemap = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
    const feed = await readFile(join(outDir, 'rss.xml'), 'utf8');
    for (const slug of unserved) {
      expect(sitemap, slug).not.toContain(`/blog/${slug}/`);
      expect(feed, slug).not.toContain(`blog.example.com/docs/blog/${slug}/`);
    }
  });

  it("sitemap: merges the blog's own pages, with its own posts under the article pattern, without status pages or files", async () => {
    const locs = locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8'));
    expect(locs.slice(57)).toEqual([
      'https://blog.example.com/docs/',
      'https://blog.example.com/docs/about/',
      'https://blog.example.com/docs/blog/',
      // A page of the blog's own under /blog/[slug]/ that is no service article (issue 11, item 3).
      'https://blog.example.com/docs/blog/local-only-article/',
      // sitemap.customPages: a page Astro does not build.
      'https://blog.example.com/docs/shop/',
      'https://blog.example.com/docs/tags/astro/',
      'https://blog.example.com/docs/tags/seo/',
    ]);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it('filter: leaves out the pages it rejects', async () => {
    const xml = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
    expect(xml).not.toContain('/secret/');
  });

  it('leaves out the pages that carry <meta name="robots" content="noindex">, which are still built', async () => {
    const xml = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
    expect(xml).not.toContain('/drafts/');
    await expect(readFile(join(outDir, 'drafts', 'index.html'), 'utf8')).resolves.toContain('<h1>Drafts</h1>');
  });

  it('sitemap: validates against the sitemap 0.9 schema', async () => {
    await expect(xmllint(join(outDir, 'sitemap.xml'), 'sitemap-0.9.xsd')).resolves.toContain('validates');
  });

  it('rss: a feed reader reads the items of the built articles in the upstream order, with links on the blog', async () => {
    const parser = new Parser();
    const ours = await parser.parseString(await readFile(join(outDir, 'rss.xml'), 'utf8'));
    const upstream = await parser.parseString(upstreamRss);
    // The three items whose page the blog did not build are left out.
    const theirs = { ...upstream, items: upstream.items.filter((i) => !unserved.includes(slugOf(i.link))) };
    expect(theirs.items).toHaveLength(47);
    expect(ours.items).toHaveLength(47);
    expect(ours.items.map((i) => i.title)).toEqual(theirs.items.map((i) => i.title));
    expect(ours.link).toBe('https://blog.example.com/docs/');
    for (const [i, item] of ours.items.entries()) {
      expect(item.link).toBe(
        theirs.items[i]?.link?.replace('https://pro-blog.example.com/blog/', 'https://blog.example.com/docs/blog/'),
      );
      expect(item.guid).toBe(item.link);
    }
    const raw = await readFile(join(outDir, 'rss.xml'), 'utf8');
    expect(raw).toContain('<atom:link href="https://blog.example.com/docs/rss.xml" rel="self"');
    expect(raw).toContain('<![CDATA[');
  });

  it('maxUrlsPerFile: above it, /sitemap.xml is an index and the parts are beside it, all valid', async () => {
    const split = await buildSite('integration-site', {
      site: 'https://blog.example.com',
      integrations: [
        publisher({ siteId: 12, baseUrl: sim.url, rss: false, sitemap: { maxUrlsPerFile: 25 } }),
        fixtureArticles(locsOf(upstreamSitemap).map(slugOf)),
      ],
    });
    const index = await readFile(join(split, 'sitemap.xml'), 'utf8');
    expect(index).toContain('<sitemapindex');
    // 60 articles + 6 local pages (no filter this time) + the local post under /blog/ = 67 URLs -> 3 parts
    expect(locsOf(index)).toEqual([1, 2, 3].map((n) => `https://blog.example.com/sitemap-${n}.xml`));
    await expect(xmllint(join(split, 'sitemap.xml'), 'siteindex-0.9.xsd')).resolves.toContain('validates');
    const all: string[] = [];
    for (const n of [1, 2, 3]) {
      const file = join(split, `sitemap-${n}.xml`);
      await expect(xmllint(file, 'sitemap-0.9.xsd')).resolves.toContain('validates');
      all.push(...locsOf(await readFile(file, 'utf8')));
    }
    expect(all).toHaveLength(67);
    expect(all).toContain('https://blog.example.com/secret/');
  });
});

// Quick start 3 on a blog that has no route for the service's articles: before, the sitemap listed every article
// at the blog's URLs (12 pages answering 404) and the feed linked to them.
describe('integration alone, on a blog without article pages', () => {
  let sim: Simulator;
  const root = fixtureRoot('integration-ssr');
  beforeAll(async () => {
    sim = await startSimulator({ articles: 12 });
  });
  afterAll(async () => {
    await sim.close();
  });

  /** A static build of integration-ssr (no article route of its own) with `extra` integrations. */
  async function build(extra: AstroIntegration[], base?: string) {
    const dirs = await tempDirs('no-article-pages', root);
    const result = await buildFixture({
      root,
      outDir: dirs.outDir,
      cacheDir: dirs.cacheDir,
      env: {},
      inline: {
        site: 'https://blog.example.com',
        ...(base ? { base } : {}),
        integrations: [publisher({ siteId: 12, baseUrl: sim.url }), ...extra],
      },
    });
    const sitemap = await readFile(join(dirs.outDir, 'sitemap.xml'), 'utf8');
    const feed = await readFile(join(dirs.outDir, 'rss.xml'), 'utf8');
    await dirs.cleanup();
    expect(result.error).toBeUndefined();
    return { logs: result.logs, locs: locsOf(sitemap), feed };
  }

  it('under a base, the log names the files by their URLs, and says that crawlers read robots.txt only at the root', async () => {
    // Found by a new user migrating a blog under '/docs': "Wrote /sitemap.xml" and "Wrote robots.txt" hid both.
    const { logs } = await build([], '/docs');
    expect(logs).toMatch(/Wrote https:\/\/blog\.example\.com\/docs\/sitemap\.xml \(\d+ local pages merged\)/);
    expect(logs).toContain(
      'Wrote https://blog.example.com/docs/robots.txt naming https://blog.example.com/docs/sitemap.xml; crawlers read only https://blog.example.com/robots.txt: add the Sitemap line to the robots.txt served there.',
    );
  });

  it('no route at articlePattern: only its own pages are listed, no article linked, and the build says so', async () => {
    const { logs, locs, feed } = await build([]);
    expect(locs).toEqual(['https://blog.example.com/', 'https://blog.example.com/about/']);
    expect(feed).not.toContain('<item>');
    expect(feed).not.toContain('https://blog.example.com/blog/');
    expect(logs).toContain('No page route of the blog matches articlePattern "/blog/[slug]/"');
    expect(logs).not.toContain("of the service's articles have no page");
  });

  it('a route that builds other pages: the articles without one are counted, with an example and the fix', async () => {
    const { logs, locs } = await build([fixtureArticles(['a-page-of-its-own'], 'prerendered')]);
    expect(locs).toEqual([
      'https://blog.example.com/',
      'https://blog.example.com/about/',
      'https://blog.example.com/blog/a-page-of-its-own/',
    ]);
    expect(logs).toContain(
      `12 of the service's articles have no page on the blog at articlePattern "/blog/[slug]/" (e.g. /blog/`,
    );
    expect(logs).toContain('set publisher({ articlePattern }) to the route that serves them');
    expect(logs).not.toContain('No page route of the blog matches');
  });
});
