// A blog built from hostile articles runs no injected script in a real browser.
// Every payload of test/corpora/xss/ is published into the simulator (in batches, one batch per
// article, with the batch's first payload in the title too), the playground's pages are built over them,
// and every page is opened in Chromium with a trap installed before any script of the page.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from 'astro-content-publisher/simulator';
import { loadPayloads } from '../fixtures/e2e-xss/payloads.mjs';
import { collectErrors, isolateFromNetwork, launchChromium } from './helpers/browser.js';
import { armTrap, fireHandlers, scriptCapableMarkup } from './helpers/trap.js';
import { buildAndServe, REPO_ROOT, type BuiltSite } from './helpers/site.js';

const FIXTURE_ROOT = join(REPO_ROOT, 'test/fixtures/e2e-xss');
const BATCH = 8;
const LANGUAGES = ['en', 'fr', 'de', 'es'];

let simulator: Simulator;
let site: BuiltSite;
let browser: Browser | undefined;
const slugs: string[] = [];
const payloads: Array<{ source: string; payload: string }> = loadPayloads();

beforeAll(async () => {
  browser = await launchChromium();
  simulator = await startSimulator({ articles: 0 });
  const siteId = simulator.sites.agence[0]!;
  for (let start = 0, n = 1; start < payloads.length; start += BATCH, n += 1) {
    const batch = payloads.slice(start, start + BATCH);
    const slug = `xss-batch-${String(n).padStart(3, '0')}`;
    const content = batch
      .map(({ source, payload }) => `<h2>Vector ${source.replace(/[<>&"]/g, '')}</h2>\n<div>${payload}</div>`)
      .join('\n');
    const response = await fetch(`${simulator.url}/__simulator/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        site: siteId,
        slug,
        title: `XSS batch ${n}: ${batch[0]!.payload.slice(0, 120)}`,
        language: LANGUAGES[n % LANGUAGES.length],
        content,
      }),
    });
    expect(response.status, `publishing ${slug}: ${await response.clone().text()}`).toBe(201);
    slugs.push(slug);
  }
  site = await buildAndServe(FIXTURE_ROOT, {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
    PLAYGROUND_MAX_REQUESTS: '500',
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await simulator?.close();
});

describe('XSS corpus in Chromium', () => {
  it(`no payload of the corpus runs on any page (${payloads.length} payloads)`, async () => {
    expect(payloads.length).toBeGreaterThan(500);
    const pages = [
      '/',
      ...Array.from({ length: Math.ceil(slugs.length / 10) - 1 }, (_, i) => `/${i + 2}/`),
      ...slugs.map((slug) => `/blog/${slug}/`),
      ...LANGUAGES.map((language) => `/lang/${language}/`),
      '/seo/',
    ];
    const page = await browser!.newPage();
    const errors = collectErrors(page);
    await isolateFromNetwork(page, site.url);
    const trap = await armTrap(page);
    // The pages' timers run on a clock the test moves: a payload's setTimeout or setInterval, however long
    // its delay, fires before the page is judged, on a slow machine too (not within a wall-clock moment).
    await page.clock.install();
    /** What the page at `path` shows of a script that ran, once its handlers fired and a minute of its time passed. */
    const judge = async (path: string, before?: () => Promise<unknown>): Promise<string[]> => {
      const found: string[] = [];
      const response = await page.goto(site.url + path, { waitUntil: 'load' });
      if (response?.status() !== 200) found.push(`${path}: HTTP ${response?.status()}`);
      await before?.();
      await fireHandlers(page);
      // A minute of the page's time: every timer a payload set (setTimeout, setInterval) fires now. A meta refresh
      // is not a timer of the page: scriptCapableMarkup reports any <meta http-equiv> in the body.
      await page.clock.runFor(60_000);
      if (page.url() !== site.url + path) found.push(`${path}: navigated away to ${page.url()}`);
      found.push(...(await trap.hits()).map((hit) => `${path}: trap hit ${hit}`));
      found.push(...(await scriptCapableMarkup(page)).map((markup) => `${path}: ${markup}`));
      found.push(...errors.splice(0).map((error) => `${path}: ${error}`));
      if ((await page.locator('h1').count()) === 0) found.push(`${path}: no <h1>, the page did not render`);
      return found;
    };
    // The judge catches a script that waits: a timer of 30 s, set as a payload's handler would set it, is a hit
    // (a judge that looked within a wall-clock moment would miss it and pass any such payload).
    const control = await judge('/', () =>
      page.evaluate(() => setTimeout(() => window.alert('delayed control'), 30_000)),
    );
    expect(control.join('\n')).toMatch(/trap hit .*alert\(delayed control\)/);
    const problems: string[] = [];
    for (const path of pages) problems.push(...(await judge(path)));
    problems.push(...trap.dialogs.map((dialog) => `dialog opened: ${dialog}`));
    expect(problems).toEqual([]);
    // The payload articles really were rendered: their vector headings made it into the page.
    await page.goto(`${site.url}/blog/${slugs[0]}/`);
    expect(await page.locator('.prose h2').count()).toBeGreaterThan(0);
    await page.close();
    // Dozens of pages in one browser: on a busy 2-core machine this can pass the default 60 s.
  }, 180_000);
});
