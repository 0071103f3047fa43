/**
 * Issue 11 item 4 and issue 13 ("coexistence with @astrojs/sitemap"): real builds of
 * test/fixtures/sitemap-coexist with the real `@astrojs/sitemap` beside the integration, in each
 * combination the README documents, and the real `@astrojs/rss` in the theme's own /rss.xml route.
 * Asserted: one warning naming the conflict and the fix, never two sitemaps at one path, the files each
 * combination publishes, the other index listing ours through `customSitemaps`, every URL of every sitemap
 * file answering 200 from `astro preview`, and robots.txt naming a sitemap that is published.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import sitemap from '@astrojs/sitemap';
import { build, preview, type AstroInlineConfig } from 'astro';
import { afterAll, beforeAll, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureRoot } from './loader-harness.js';
import { checkLinks } from './truth-harness.js';

const ROOT = fixtureRoot('sitemap-coexist');
const SITE = 'https://blog.example.com';
const OURS = `${SITE}/sitemap.xml`;
const SITEMAP_FILES = ['sitemap.xml', 'sitemap-index.xml', 'sitemap-0.xml'];
const CONFLICT = '@astrojs/sitemap is also in `integrations`: the blog then has two sitemaps';
let sim: Simulator;
const dirs: string[] = [];

beforeAll(async () => {
  // The fixture has a package.json of its own (the integration reads a project's dependencies to name
  // @astrojs/rss), which ends the self-reference the other fixtures use: this package is linked in instead.
  const link = join(ROOT, 'node_modules', 'astro-content-publisher');
  if (!existsSync(link)) {
    await mkdir(join(ROOT, 'node_modules'), { recursive: true });
    await symlink(join(ROOT, '..', '..', '..'), link, 'dir');
  }
  sim = await startSimulator({ articles: 8, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const count = (text: string, needle: string) => text.split(needle).length - 1;
const locsOf = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

/** Builds the fixture with `integrations`; returns the output directory and everything Astro logged. */
async function buildWith(name: string, integrations: AstroInlineConfig['integrations'], publicDir = 'public') {
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  const outDir = await mkdtemp(join(ROOT, 'dist', `${name}-`));
  const cacheDir = join(ROOT, '.astro', `${name}-${outDir.slice(-6)}`);
  dirs.push(outDir, cacheDir);
  const saved = { ...process.env };
  Object.assign(process.env, {
    PUBLISHER_BASE_URL: sim.url,
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
  });
  // Vitest sets BASE_URL=/, which Astro would prefer to the config's base in the fixture's pages.
  delete process.env.BASE_URL;
  const chunks: string[] = [];
  const outWrite = process.stdout.write.bind(process.stdout);
  const errWrite = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  const config: AstroInlineConfig = {
    root: ROOT,
    outDir,
    cacheDir,
    site: SITE,
    publicDir: join(ROOT, publicDir),
    logLevel: 'info',
    integrations,
  };
  try {
    await build(config);
  } finally {
    process.stdout.write = outWrite;
    process.stderr.write = errWrite;
    for (const key of ['BASE_URL', 'PUBLISHER_BASE_URL', 'PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  const logs = chunks.join('');
  if (process.env.SHOW_LOGS) console.log(logs);
  return { outDir, config, logs };
}

/** The sitemap files present in the output (of sitemap.xml, sitemap-index.xml, sitemap-0.xml). */
const sitemapFiles = (outDir: string) => SITEMAP_FILES.filter((file) => existsSync(join(outDir, file)));

/** The `Sitemap:` lines of the built robots.txt. */
async function robotsSitemaps(outDir: string): Promise<string[]> {
  const robots = await readFile(join(outDir, 'robots.txt'), 'utf8');
  return [...robots.matchAll(/^sitemap:\s*(\S+)/gim)].map((m) => m[1] ?? '');
}

/**
 * From `astro preview`: every URL of every sitemap file in the output (an index's parts, a sitemap's pages),
 * every Sitemap line of robots.txt, and the harness's checks (our sitemap, the feed, the article pages'
 * links). Returns the URLs that did not answer 200 and how many were checked.
 */
async function previewCheck(outDir: string, config: AstroInlineConfig) {
  const saved = { ...process.env };
  // publisher() resolves its options again in preview.
  Object.assign(process.env, { PUBLISHER_BASE_URL: sim.url, PUBLISHER_SITE_ID: '12' });
  const server = await preview({ ...config, logLevel: 'silent', server: { port: 0, host: '127.0.0.1' } }).finally(
    () => {
      for (const key of ['PUBLISHER_BASE_URL', 'PUBLISHER_SITE_ID']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    },
  );
  const local = `http://127.0.0.1:${server.port}`;
  try {
    const urls = new Set<string>(await robotsSitemaps(outDir));
    for (const file of sitemapFiles(outDir))
      for (const loc of locsOf(await readFile(join(outDir, file), 'utf8'))) urls.add(loc);
    const failures: string[] = [];
    for (const url of urls) {
      const response = await fetch(url.replace(SITE, local), { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status !== 200) failures.push(`${response.status} ${url}`);
    }
    const links = await checkLinks({
      local,
      outDir,
      base: '/',
      site: SITE,
      articleDir: 'blog',
      serviceOrigin: 'https://pro-blog.example.com',
      ownSlugs: new Set(),
    });
    // The figures of the closing note (printed by `vitest run test/astro/sitemap-coexist.test.ts`).
    console.log(
      `[sitemap-coexist] ${outDir.split('/').at(-1)}: ${urls.size} sitemap/robots URLs and ${links.checked} harness URLs checked, ${failures.length + links.failures.length} did not answer 200`,
    );
    return {
      failures: [...failures, ...links.failures.map((f) => `${f.status} ${f.url}`)],
      checked: urls.size + links.checked,
    };
  } finally {
    await server.stop();
  }
}

it('both integrations as they come: one warning naming the conflict and both fixes, two sitemaps at two paths, robots.txt names ours', async () => {
  const { outDir, config, logs } = await buildWith('default', [publisher(), sitemap()]);
  expect(count(logs, CONFLICT)).toBe(1);
  expect(logs).toContain('Either keep ours only (remove @astrojs/sitemap');
  expect(logs).toContain(
    `set publisher({ sitemap: { includeLocalPages: false } }), add ours to the other's index with sitemap({ customSitemaps: ["${OURS}"] }) and leave the article pages out of the other's with its \`filter\` option`,
  );
  expect(sitemapFiles(outDir)).toEqual(SITEMAP_FILES);
  // Ours has the service's articles and the local pages; the other one the local pages only.
  expect(locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8')).filter((u) => u.includes('/blog/')).length).toBe(
    8,
  );
  expect(locsOf(await readFile(join(outDir, 'sitemap-index.xml'), 'utf8'))).toEqual([`${SITE}/sitemap-0.xml`]);
  expect(await robotsSitemaps(outDir)).toEqual([OURS]);
  const { failures, checked } = await previewCheck(outDir, config);
  expect(checked).toBeGreaterThan(10);
  expect(failures).toEqual([]);
});

it("ours only (the package still installed, not in integrations): no sitemap warning (the theme's @astrojs/rss route is named), one sitemap, robots.txt names it, every URL answers 200", async () => {
  const { outDir, config, logs } = await buildWith('ours', [publisher()]);
  expect(count(logs, CONFLICT)).toBe(0);
  // Ours under the name themes link to as well (issue 38): the same file.
  expect(sitemapFiles(outDir)).toEqual(['sitemap.xml', 'sitemap-index.xml']);
  expect(await readFile(join(outDir, 'sitemap-index.xml'), 'utf8')).toBe(
    await readFile(join(outDir, 'sitemap.xml'), 'utf8'),
  );
  const locs = locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8'));
  // The blog's own pages are in ours: nothing is lost by removing @astrojs/sitemap.
  expect(locs).toContain(`${SITE}/`);
  expect(locs).toContain(`${SITE}/about/`);
  expect(locs.filter((u) => u.includes('/blog/')).length).toBe(8);
  expect(await robotsSitemaps(outDir)).toEqual([OURS]);
  // The theme's /rss.xml, written with the real @astrojs/rss: named once in the warning with the fix, and kept.
  expect(count(logs, 'src/pages/rss.xml.js serves /rss.xml')).toBe(1);
  expect(logs).toContain(
    '(replacing @astrojs/rss there), set publisher({ rss: false }) and export GET = rssHandler({ ... })',
  );
  expect(await readFile(join(outDir, 'rss.xml'), 'utf8')).toContain('<title>Theme feed</title>');
  const { failures } = await previewCheck(outDir, config);
  expect(failures).toEqual([]);
});

// Both orders of `integrations`: the two write in astro:build:done one after the other.
it.each(['publisher first', 'sitemap first'])(
  'both, as the README combines them (%s): the other index lists ours via customSitemaps, each page in one sitemap, every URL answers 200',
  async (order) => {
    const both = [
      publisher({ sitemap: { includeLocalPages: false } }),
      sitemap({ customSitemaps: [OURS], filter: (page) => !page.startsWith(`${SITE}/blog/`) }),
    ];
    const { outDir, config, logs } = await buildWith(
      order === 'publisher first' ? 'both' : 'both-reversed',
      order === 'publisher first' ? both : both.reverse(),
      'public-both',
    );
    // The integration cannot read the other's options, so the warning stays (once) after the fix.
    expect(count(logs, CONFLICT)).toBe(1);
    expect(sitemapFiles(outDir)).toEqual(SITEMAP_FILES);
    const index = locsOf(await readFile(join(outDir, 'sitemap-index.xml'), 'utf8'));
    expect(index).toEqual(expect.arrayContaining([OURS, `${SITE}/sitemap-0.xml`]));
    expect(index).toHaveLength(2);
    const ours = locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8'));
    const theirs = locsOf(await readFile(join(outDir, 'sitemap-0.xml'), 'utf8'));
    expect(ours.length).toBe(8);
    expect(ours.every((u) => u.startsWith(`${SITE}/blog/`))).toBe(true);
    expect(theirs).toContain(`${SITE}/about/`);
    // No page listed twice across the two sitemaps.
    expect(ours.filter((u) => theirs.includes(u))).toEqual([]);
    // The blog's robots.txt (public-both/) names the index and ours: kept, and no warning about it.
    expect(await robotsSitemaps(outDir)).toEqual([`${SITE}/sitemap-index.xml`, OURS]);
    expect(logs).not.toContain('robots.txt has no');
    const { failures } = await previewCheck(outDir, config);
    expect(failures).toEqual([]);
  },
);
