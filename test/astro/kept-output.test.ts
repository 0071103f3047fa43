/**
 * Builds over the output of an earlier build (`vite.build.emptyOutDir: false`, which the deploy guide keeps
 * `dist` with for incremental builds): the sitemap the earlier build wrote is ours to replace, not a file of
 * the blog's own. Before, the second build found its own sitemap of the first build, took it for the blog's,
 * warned "The build already has /sitemap.xml" and left it as it was: an unpublished article stayed listed,
 * and parts of an earlier index stayed served. A `public/sitemap.xml` of the blog's own is still kept.
 * And the page of an article that left the service is removed (Astro leaves it in a kept output: the guide
 * called that the price of `emptyOutDir: false`), by incremental builds of the model site.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import publisher from 'astro-content-publisher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { fixtureArticles } from '../fixtures/integration-helpers/index.js';
import {
  admin,
  buildFixture,
  fixtureRoot,
  isolatedSite,
  modelSiteBuild,
  publishModelArticle,
  tempDirs,
} from './loader-harness.js';

vi.setConfig({ testTimeout: 120_000 });
const SERVICE = 'https://pro-blog.example.com';
const BLOG = 'https://blog.example.com';
const root = fixtureRoot('integration-ssr');

const urlset = (slugs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${slugs
    .map((slug) => `<url><loc>${SERVICE}/blog/${slug}/</loc></url>`)
    .join('\n')}\n</urlset>\n`;

/** What the service's sitemap is: an index of two parts, or one urlset. */
let upstreamShape: 'index' | 'urlset' = 'index';
let upstream: Server;
let upstreamUrl = '';
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let publicDir = '';

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const match = /^\/api\/sites\/12\/sitemap(?:-part-(\d))?\.xml$/.exec(req.url ?? '');
    if (!match) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/xml' });
    if (match[1] === '1') return res.end(urlset(['kept', 'gone']));
    if (match[1] === '2') return res.end(urlset(['second-part']));
    if (upstreamShape === 'urlset') return res.end(urlset(['kept']));
    const parts = [1, 2].map((n) => `<sitemap><loc>${upstreamUrl}/api/sites/12/sitemap-part-${n}.xml</loc></sitemap>`);
    return res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.join('\n')}\n</sitemapindex>\n`,
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dirs = await tempDirs('kept-output', root);
  publicDir = await mkdtemp(join(tmpdir(), 'kept-output-public-'));
});
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  await dirs?.cleanup();
  if (publicDir) await rm(publicDir, { recursive: true, force: true });
});

/** One build into the kept output directory (same outDir and cacheDir every time), with pages for `served`. */
const build = (served = ['kept']) =>
  buildFixture({
    root,
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: {},
    inline: {
      site: BLOG,
      output: 'static',
      publicDir,
      vite: { build: { emptyOutDir: false } },
      integrations: [
        publisher({ siteId: 12, baseUrl: upstreamUrl, rss: false }),
        fixtureArticles(served, 'prerendered'),
      ],
    },
  });

const read = (file: string) => readFile(join(dirs.outDir, file), 'utf8');

describe('a build over the output an earlier build left (emptyOutDir: false)', () => {
  it('writes its sitemap over the earlier one, and removes the parts the new one no longer has', async () => {
    upstreamShape = 'index';
    const first = await build(['kept', 'gone', 'second-part']);
    expect(first.error).toBeUndefined();
    expect(await read('sitemap.xml')).toContain('<sitemapindex');
    expect(await read('sitemap-1.xml')).toContain(`${BLOG}/blog/gone/`);
    expect(existsSync(join(dirs.outDir, 'sitemap-3.xml'))).toBe(true);

    // The service now lists one article in one urlset: "gone" was unpublished, the parts are no more.
    upstreamShape = 'urlset';
    const second = await build();
    expect(second.error).toBeUndefined();
    expect(second.logs).not.toContain('The build already has /sitemap.xml');
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain('<urlset');
    expect(sitemap).toContain(`<loc>${BLOG}/blog/kept/</loc>`);
    expect(sitemap).not.toContain('/blog/gone/');
    for (const part of ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml'])
      expect(existsSync(join(dirs.outDir, part)), part).toBe(false);
  });

  it("keeps a public/sitemap.xml of the blog's own, with one warning", async () => {
    await writeFile(join(publicDir, 'sitemap.xml'), urlset(['the-blogs-own']));
    const third = await build();
    expect(third.error).toBeUndefined();
    expect(third.logs).toContain('The build already has /sitemap.xml');
    expect(await read('sitemap.xml')).toContain(`${SERVICE}/blog/the-blogs-own/`);
  });
});

describe('incremental builds over a kept output (emptyOutDir: false)', () => {
  it('the page of an article that left the service is removed, the others kept, the sitemap without it', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
    const site = await isolatedSite('model-site', 'kept-pages');
    try {
      for (const slug of ['stay', 'gone', 'more', 'extra']) await publishModelArticle(sim.url, slug, 'en');
      const build = modelSiteBuild(site, sim, 10, { vite: { build: { emptyOutDir: false } } });
      const page = (slug: string) => join(site.outDir, 'en', 'blog', slug, 'index.html');
      const first = await build();
      expect(first.error).toBeUndefined();
      expect(existsSync(page('gone'))).toBe(true);

      await admin(sim.url, 'DELETE', 'articles/12/gone?language=en');
      const second = await build();
      expect(second.error).toBeUndefined();
      expect(second.logs).toMatch(/lang-en\] 3 articles: 0 new, 0 changed, 1 removed/);
      expect(second.logs).toContain('Removed 1 page(s) at article paths that an earlier build left');
      expect(existsSync(page('gone'))).toBe(false);
      // Its folder too: no empty `blog/gone/` left in the output (found by a trial).
      expect(existsSync(join(site.outDir, 'en', 'blog', 'gone'))).toBe(false);
      for (const slug of ['stay', 'more', 'extra']) expect(existsSync(page(slug)), slug).toBe(true);
      const sitemap = await readFile(join(site.outDir, 'sitemap.xml'), 'utf8');
      expect(sitemap).toContain(`${BLOG}/en/blog/stay/`);
      expect(sitemap).not.toContain('/en/blog/gone/');
      expect(second.logs).not.toContain('The build already has /sitemap.xml');
    } finally {
      await sim.close();
      await site.cleanup();
    }
  });
});
