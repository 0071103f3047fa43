/**
 * A service outage during a static build: the loaders keep their articles (stale beats failing), and the feed and
 * the sitemap are written from the copies the last good build kept in cacheDir, with a warning, instead of failing
 * the build (found by a trial on Astro Micro: every build failed on the prerendered /rss.xml, and with the feed
 * off on the sitemap, leaving a half-written output). Real builds of the model site (every feature on).
 */
import { readdir, readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LAST_GOOD_MAX_AGE_MS } from '../../src/integration/cache/last-good-files.js';
import { startSimulator } from '../../src/simulator/index.js';
import { admin, closedAfterEach, isolatedSite, modelSiteBuild, publishModelArticle } from './loader-harness.js';

vi.setConfig({ testTimeout: 300_000 });
const own = closedAfterEach();

describe('a static build while the service is down', () => {
  it('writes /rss.xml and /sitemap.xml from the last good build’s copies, and says so', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
    const site = await isolatedSite('model-site', 'outage');
    own(sim, site);
    for (const slug of ['a1', 'a2']) await publishModelArticle(sim.url, slug, 'en');
    const build = modelSiteBuild(site, sim);
    const read = (file: string) => readFile(join(site.outDir, file), 'utf8');

    const first = await build();
    expect(first.error).toBeUndefined();
    const rss = await read('rss.xml');
    const sitemap = await read('sitemap.xml');
    expect(rss).toContain('https://blog.example.com/en/blog/a2/');
    expect(sitemap).toContain('<loc>https://blog.example.com/en/blog/a2/</loc>');

    // The copies are older than the month after which unused ones are removed (a blog rebuilt rarely): an outage
    // still finds them, and a build that used them keeps them.
    const copies = join(site.cacheDir, 'astro-content-publisher', 'feeds');
    const old = (Date.now() - LAST_GOOD_MAX_AGE_MS - 86_400_000) / 1000;
    for (const name of await readdir(copies)) await utimes(join(copies, name), old, old);
    // Every request to the service is dropped before it answers: the API, the feed, the sitemap.
    await admin(sim.url, 'POST', 'faults', { route: '*', drop: 'before-headers' });
    // Under `watch --run`, the build tells the watcher that it used copies: the change is kept for its next run.
    const report = join(site.cacheDir, 'watch-report.jsonl');
    process.env.PUBLISHER_WATCH_REPORT = report;
    const second = await build().finally(() => delete process.env.PUBLISHER_WATCH_REPORT);
    expect(second.error).toBeUndefined();
    const undone = (await readFile(report, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { undone: string }).undone);
    expect(undone).toEqual(
      expect.arrayContaining([
        'the RSS feed was written from a kept copy',
        'the sitemap was written from a kept copy',
        expect.stringMatching(/^could not list the articles: /),
      ]),
    );
    expect(second.logs).toMatch(/Kept the 2 stored articles as they were/);
    expect(second.logs).toMatch(/lang-fr\] .*The collection stays empty, as the last build left it/);
    expect(second.logs).toMatch(
      /Could not get http:\/\/127\.0\.0\.1:\d+\/api\/sites\/12\/rss\.xml: .* This build used the copy an earlier build kept \(20\d\d-/,
    );
    expect(second.logs).toMatch(/sitemap\.xml: .* This build used the copy an earlier build kept/);
    expect(await read('rss.xml')).toBe(rss);
    expect(await read('sitemap.xml')).toBe(sitemap);
    expect(await read('en/blog/a2/index.html')).toContain('a2 en');
    expect((await readdir(copies)).length).toBeGreaterThanOrEqual(2);
  });

  it('without a copy (a first build), or when the service answers 404, the build still fails and names the URL', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
    const site = await isolatedSite('model-site', 'outage-cold');
    own(sim, site);
    await publishModelArticle(sim.url, 'a1', 'en');
    const build = modelSiteBuild(site, sim);
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 503 });
    const cold = await build();
    expect(cold.error?.message).toMatch(
      /The RSS feed was not built: Could not get http:\/\/127\.0\.0\.1:\d+\/api\/sites\/12\/rss\.xml/,
    );
    // What to do, as the hint Astro prints after the message (found by a trial: the feed's failure had none).
    expect((cold.error as Error & { hint?: string }).hint).toBe(
      'The build stops rather than publish a broken feed, and no earlier build kept a copy of it: retry once the service answers, or set publisher({ rss: false }).',
    );
    await admin(sim.url, 'DELETE', 'faults');

    expect((await build()).error).toBeUndefined();
    // A 404 says the address is wrong (a site id, a base URL), not that the service is unwell: no copy hides it.
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 404 });
    const missing = await build();
    expect(missing.error?.message).toMatch(/The sitemap was not built: Could not get .*sitemap\.xml/);
    expect((missing.error as Error & { hint?: string }).hint).toBe(
      'The build stops rather than publish a broken sitemap. Check `siteId` (the site must exist and be active) and `baseUrl`, or set publisher({ sitemap: false }).',
    );
    // A body that is not a feed points at the address, or at the service's feed itself.
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', body: 'html' });
    const html = await build();
    expect(html.error?.message).toMatch(/The RSS feed was not built: .*HTML page/);
    expect((html.error as Error & { hint?: string }).hint).toBe(
      "The build stops rather than publish a broken feed. Check that `baseUrl` is the service's address; if it is, the service's feed is broken: retry once it is whole again, or set publisher({ rss: false }).",
    );
  });
});
