/**
 * Issue 11 item 4 and issue 13 (robots.txt): what the blog already has is detected, kept, and explained in
 * one warning each, in a real build of test/fixtures/conflict-site (a theme with its own /rss.xml and
 * /sitemap.xml routes and a robots.txt naming another sitemap).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, fixtureRoot, tempDirs } from './loader-harness.js';

let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let logs: string;

beforeAll(async () => {
  sim = await startSimulator({ articles: 5 });
  dirs = await tempDirs('conflicts', fixtureRoot('conflict-site'));
  const result = await buildFixture({
    root: fixtureRoot('conflict-site'),
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_SITE_ID: '12' },
  });
  expect(result.error).toBeUndefined();
  logs = result.logs;
  if (process.env.SHOW_LOGS) console.log(logs);
});
afterAll(async () => {
  await sim?.close();
  await dirs?.cleanup();
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

it("a route of the blog's own at /rss.xml: one warning naming the file and the fixes (rss: false + rssHandler, or another path)", () => {
  expect(count(logs, 'src/pages/rss.xml.js serves /rss.xml')).toBe(1);
  expect(logs).toContain(
    'set publisher({ rss: false }) and export GET = rssHandler({ ... }) from "astro-content-publisher/rss"',
  );
  expect(logs).toContain('publisher({ rss: { path: "/articles.xml" } })');
});

it("the blog's own feed is the one built at /rss.xml (ours is not injected beside it)", async () => {
  expect(await readFile(join(dirs.outDir, 'rss.xml'), 'utf8')).toContain('<title>Theme feed</title>');
  expect(logs).not.toContain('A static route cannot be defined more than once');
});

it("a sitemap of the blog's own at /sitemap.xml: warned about and never overwritten (no two sitemaps at one path)", async () => {
  expect(count(logs, 'src/pages/sitemap.xml.js serves /sitemap.xml')).toBe(1);
  expect(logs).not.toContain('The build already has /sitemap.xml');
  const sitemap = await readFile(join(dirs.outDir, 'sitemap.xml'), 'utf8');
  expect(sitemap).toContain('<loc>https://blog.example.com/</loc>');
  expect(sitemap).not.toContain('/blog/');
});

it("a robots.txt of the blog's own without our Sitemap line: kept as it is, one warning with the line to add", async () => {
  expect(
    count(
      logs,
      'has no "Sitemap: https://blog.example.com/sitemap.xml" line (it names https://blog.example.com/sitemap-index.xml; the build does not write https://blog.example.com/sitemap-index.xml: it answers 404)',
    ),
  ).toBe(1);
  expect(await readFile(join(dirs.outDir, 'robots.txt'), 'utf8')).toBe(
    'User-agent: *\nAllow: /\n\nSitemap: https://blog.example.com/sitemap-index.xml\n',
  );
});

it('a <link rel="sitemap"> of the theme naming a sitemap nobody writes (ours is not written: the blog has its own): one warning naming the layout to fix', () => {
  expect(
    count(
      logs,
      'The blog\'s pages link to https://blog.example.com/sitemap-index.xml (<link rel="sitemap"> in /index.html), which the build does not write (it answers 404). Point the link at /sitemap.xml',
    ),
  ).toBe(1);
});
