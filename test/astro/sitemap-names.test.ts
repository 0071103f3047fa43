/**
 * Issue 38 item 3: the sitemap under the names themes use. Real builds of test/fixtures/sitemap-names, a theme
 * written for @astrojs/sitemap: its head and footer link to /sitemap-index.xml, another layout's footer to
 * /sitemap-0.xml, and its robots.txt names /sitemap_index.xml. Asserted from the output and `astro preview`:
 * /sitemap-index.xml serves the blog's sitemap as well, a file of the blog's own there is kept, and every link
 * to a sitemap the build does not write (not only a home page's `<link rel="sitemap">`) is named with its fix.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { preview } from 'astro';
import { afterAll, beforeAll, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureArticles, locsOf } from '../fixtures/integration-helpers/index.js';
import { buildFixture, fixtureRoot, tempDirs } from './loader-harness.js';

const ROOT = fixtureRoot('sitemap-names');
const SITE = 'https://blog.example.com';
let sim: Simulator;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  sim = await startSimulator({ articles: 5, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
  for (const cleanup of cleanups) await cleanup();
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

async function buildTheme(name: string, publicDir = 'public') {
  const dirs = await tempDirs(name, ROOT);
  cleanups.push(dirs.cleanup);
  const upstream = await (await fetch(`${sim.url}/api/sites/12/sitemap.xml`)).text();
  const slugs = locsOf(upstream).map((url) => /\/blog\/([^/]+)\/$/.exec(url)?.[1] ?? '');
  const inline = {
    publicDir: join(ROOT, publicDir),
    integrations: [publisher({ siteId: 12 }), fixtureArticles(slugs, 'prerendered')],
  };
  const result = await buildFixture({
    root: ROOT,
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_SITE_ID: '12', BASE_URL: undefined },
    inline,
  });
  expect(result.error).toBeUndefined();
  if (process.env.SHOW_LOGS) console.log(result.logs);
  return { ...dirs, logs: result.logs, inline };
}

let theme: Awaited<ReturnType<typeof buildTheme>>;
beforeAll(async () => {
  theme = await buildTheme('sitemap-names');
}, 120_000);

it("/sitemap-index.xml is the blog's sitemap as well: the same file, every article and page, served as XML by astro preview", async () => {
  const ours = await readFile(join(theme.outDir, 'sitemap.xml'), 'utf8');
  expect(await readFile(join(theme.outDir, 'sitemap-index.xml'), 'utf8')).toBe(ours);
  const locs = locsOf(ours);
  expect(locs.filter((url) => url.startsWith(`${SITE}/blog/`))).toHaveLength(5);
  expect(locs).toContain(`${SITE}/tags/`);
  expect(theme.logs).toContain(`and the same at ${SITE}/sitemap-index.xml, the name themes link to`);
  process.env.PUBLISHER_BASE_URL = sim.url;
  const server = await preview({
    root: ROOT,
    outDir: theme.outDir,
    cacheDir: theme.cacheDir,
    ...theme.inline,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
  }).finally(() => delete process.env.PUBLISHER_BASE_URL);
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/sitemap-index.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    expect(await response.text()).toBe(ours);
  } finally {
    await server.stop();
  }
});

it("the theme's links to /sitemap-index.xml (head and footer) are fine: the warning names only the sitemaps the build does not write", () => {
  expect(theme.logs).not.toContain('sitemap-index.xml (');
  expect(theme.logs).not.toContain('with <link rel="sitemap">');
});

it('a footer <a href> on a page other than the home page, to a sitemap the build does not write: one warning naming the link, the page and the fix', () => {
  expect(
    count(
      theme.logs,
      `The blog's pages link to ${SITE}/sitemap-0.xml (<a href> in /tags/index.html), which the build does not write (it answers 404). ` +
        "Point the link at /sitemap.xml in the component that renders it (the layout's head, often BaseHead.astro, or the footer), " +
        'or serve the sitemap under that name: publisher({ sitemap: { path: "/sitemap-0.xml" } }).',
    ),
  ).toBe(1);
});

it('robots.txt naming a sitemap the build does not write: kept, one warning that says so and names the line to add', async () => {
  expect(
    count(
      theme.logs,
      `has no "Sitemap: ${SITE}/sitemap.xml" line (it names ${SITE}/sitemap_index.xml; the build does not write ${SITE}/sitemap_index.xml: it answers 404)`,
    ),
  ).toBe(1);
  expect(await readFile(join(theme.outDir, 'robots.txt'), 'utf8')).toContain('sitemap_index.xml');
});

it('a sitemap-index.xml of the blog\'s own (public/) is kept as it is, and the theme\'s <link rel="sitemap"> to it is named: it does not list the articles', async () => {
  const own = await buildTheme('sitemap-names-own', 'public-own');
  expect(await readFile(join(own.outDir, 'sitemap-index.xml'), 'utf8')).toBe(
    await readFile(join(ROOT, 'public-own', 'sitemap-index.xml'), 'utf8'),
  );
  expect(own.logs).not.toContain('the same at');
  expect(own.logs).toContain(
    `${SITE}/sitemap-index.xml (<link rel="sitemap"> in /index.html), which does not list the service's articles`,
  );
}, 120_000);
