/**
 * articlesLoader in real Astro builds of test/fixtures/loader-site against the simulator: one simulator and
 * one cacheDir for the whole chain (cold build, no-change build, publish/update/unpublish, list faults,
 * strict), so the persisted data store carries over exactly as it does for a user.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import type { SimulatorStats } from '../../src/simulator/index.js';
import { admin, buildFixture, fixtureRoot, readTree, summaryOf, tempDirs, loaderSiteEnv } from './loader-harness.js';

const LIST = 'GET /api/v1/sites/:id/articles/';
const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';
const root = fixtureRoot('loader-site');

let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;
const allLogs: string[] = [];
const allRequests: SimulatorStats['requests'] = [];
let pagesAfterCold = new Map<string, string>();
let storeAfterUpdate = '';

async function run(extraEnv: Record<string, string | undefined> = {}, paths = dirs) {
  sim.resetStats();
  const result = await buildFixture({
    root,
    outDir: paths.outDir,
    cacheDir: paths.cacheDir,
    env: loaderSiteEnv(sim, extraEnv),
  });
  const stats = sim.stats();
  allLogs.push(result.logs, result.error ? `${result.error.message}\n${result.error.stack ?? ''}` : '');
  allRequests.push(...stats.requests);
  return { ...result, stats, summary: summaryOf(result.logs) };
}

const hits = (stats: SimulatorStats, route: string) =>
  Object.values(stats.routes[route] ?? {}).reduce((a, b) => a + b, 0);

async function pages(): Promise<Map<string, string>> {
  const blog = join(dirs.outDir, 'blog');
  const out = new Map<string, string>();
  for (const slug of await readdir(blog)) out.set(slug, await readFile(join(blog, slug, 'index.html'), 'utf8'));
  return out;
}

async function storeText(): Promise<string> {
  return [...(await readTree(dirs.cacheDir)).entries()]
    .filter(([path]) => path.includes('data-store'))
    .map(([, text]) => text)
    .join('\n');
}

beforeAll(async () => {
  sim = await startSimulator({ rateLimitOverride: 100_000 });
  dirs = await tempDirs('loader-build', root);
});

const extraDirs: Array<Awaited<ReturnType<typeof tempDirs>>> = [];

afterAll(async () => {
  await sim?.close();
  // A failed build still flushes Astro's debounced store write a moment later: let it land before removing.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await Promise.all([dirs, ...extraDirs].map((d) => d?.cleanup()));
});

describe('articlesLoader in an Astro build', () => {
  it('cold build: every article stored with sanitised HTML and headings, 1 list call + 1 detail call each', async () => {
    const r = await run();
    expect(r.error).toBeUndefined();
    expect(r.summary).toMatch(
      /^30 articles: 30 new, 0 changed, 0 removed, 0 unchanged, 0 pending; 31 requests, \d+ left this hour$/,
    );
    expect(hits(r.stats, LIST)).toBe(1);
    expect(r.stats.routes[DETAIL]).toEqual({ 200: 30 });
    expect(r.stats.authenticated).toBe(31);

    pagesAfterCold = await pages();
    expect(pagesAfterCold.size).toBe(30);
    for (const [slug, html] of pagesAfterCold) {
      const article = html.slice(html.indexOf('<article>'));
      expect(article, slug).not.toMatch(/<script|onerror=|javascript:/i);
      // render(entry).headings: a table of contents whose every link has its target heading.
      const toc = [...html.matchAll(/<li data-depth="(\d)"><a href="#([^"]+)">/g)];
      expect(toc.length, slug).toBeGreaterThan(0);
      for (const [, depth, id] of toc) expect(article, `${slug} #${id}`).toContain(`<h${depth} id="${id}"`);
      expect(html, slug).toContain(`data-url="https://pro-blog.example.com/blog/${slug}/"`);
    }
    // The data store on disk holds the sanitised HTML (iframes sandboxed, no script) and the headings.
    const store = await storeText();
    for (const slug of pagesAfterCold.keys()) expect(store).toContain(`"${slug}"`);
    expect(store).toContain('sandbox=\\"allow-scripts allow-same-origin allow-presentation\\"');
    expect(store).toContain('"headings"');
    expect(store).not.toMatch(/<script/i);
  });

  it('second build with nothing changed: the list call only, no detail call', async () => {
    const r = await run();
    expect(r.error).toBeUndefined();
    expect(r.summary).toMatch(
      /^30 articles: 0 new, 0 changed, 0 removed, 30 unchanged, 0 pending; 1 request, \d+ left this hour$/,
    );
    expect(r.stats.authenticated).toBe(1);
    expect(r.stats.routes[DETAIL]).toBeUndefined();
  });

  it('publish, update and unpublish upstream: exactly those change; 1 list call + 1 detail per new/changed, none where the RSS carried it', async () => {
    const [contentSlug, titleSlug, goneSlug] = [...pagesAfterCold.keys()].sort();
    const created = (await admin(sim.url, 'POST', 'articles', {
      site: 12,
      title: 'Freshly published by the loader test',
      content: '<h2>Brand new section</h2><p>Hello<img src="x" onerror="alert(1)"></p><script>alert(1)</script>',
    })) as { slug: string };
    // The service writes the meta description from the title and the body: the edit below gives a new one.
    const detailOf = async (slug: string) =>
      (await (
        await fetch(`${sim.url}/api/v1/sites/12/articles/${slug}/`, {
          headers: { authorization: `Bearer ${sim.tokens.pro}` },
        })
      ).json()) as { meta_description: string };
    const oldMeta = (await detailOf(contentSlug!)).meta_description;
    expect((await storeText()).includes(JSON.stringify(oldMeta).slice(1, -1)), 'the store holds it').toBe(true);
    await admin(sim.url, 'PATCH', `articles/12/${contentSlug}`, {
      content: '<h2>Rewritten section</h2><p>Updated body.</p>',
    });
    expect((await detailOf(contentSlug!)).meta_description).not.toBe(oldMeta);
    await admin(sim.url, 'PATCH', `articles/12/${titleSlug}`, { title: 'A retitled article' });
    await admin(sim.url, 'DELETE', `articles/12/${goneSlug}`);

    const r = await run();
    expect(r.error).toBeUndefined();
    // One list call and one detail per new or changed article: the feed shows the content change, and only the
    // detail carries the whole edit (its meta description, featured image and keywords with the body).
    expect(r.summary).toMatch(/^30 articles: 1 new, 2 changed, 1 removed, 27 unchanged, 0 pending; 4 requests, /);
    expect(r.stats.authenticated).toBe(4);
    const details = r.stats.requests
      .filter((q) => q.route === DETAIL)
      .map((q) => q.path)
      .sort();
    expect(details).toEqual(
      [
        `/api/v1/sites/12/articles/${created.slug}/`,
        `/api/v1/sites/12/articles/${titleSlug}/`,
        `/api/v1/sites/12/articles/${contentSlug}/`,
      ].sort(),
    );

    const after = await pages();
    expect(after.has(goneSlug!)).toBe(false);
    expect(after.get(created.slug)).toContain('<h2 id="brand-new-section">Brand new section</h2>');
    expect(after.get(created.slug)).not.toMatch(/<script|onerror/i);
    expect(after.get(contentSlug!)).toContain('<a href="#rewritten-section">Rewritten section</a>');
    expect(after.get(titleSlug!)).toContain('<h1>A retitled article</h1>');
    // The edit came from the feed, which has no meta description: the one written for the old body is not kept.
    expect((await storeText()).includes(JSON.stringify(oldMeta).slice(1, -1)), 'the old meta description').toBe(false);
    for (const [slug, html] of after) {
      if ([contentSlug, titleSlug, created.slug].includes(slug)) continue;
      expect(html, slug).toBe(pagesAfterCold.get(slug));
    }
    storeAfterUpdate = await storeText();
  });

  const faults: Array<[string, Record<string, unknown>, number]> = [
    ['500', { status: 500 }, 3],
    ['429 with a Retry-After over the cap', { status: 429, retryAfter: 3600 }, 1],
    ['connection dropped', { drop: 'before-headers' }, 3],
  ];
  for (const [name, fault, requests] of faults) {
    it(`list call fault (${name}): the store stays as it was and the build passes with a warning`, async () => {
      await admin(sim.url, 'POST', 'faults', { route: LIST, ...fault });
      try {
        const r = await run();
        expect(r.error).toBeUndefined();
        expect(r.logs).toMatch(
          /Could not list the articles of site 12: \[GET\] \/api\/v1\/sites\/12\/articles\/.*Kept the 30 stored articles as they were/,
        );
        expect(r.summary).toMatch(
          new RegExp(`^30 articles: 0 new, 0 changed, 0 removed, 30 unchanged, 0 pending; ${requests} requests?, `),
        );
        expect(r.stats.authenticated).toBe(requests);
        expect(await storeText()).toBe(storeAfterUpdate);
        expect((await pages()).size).toBe(30);
      } finally {
        await admin(sim.url, 'DELETE', 'faults');
      }
    });
  }

  it('strict: true turns the list failure into a build failure naming the endpoint, the status and the hint', async () => {
    await admin(sim.url, 'POST', 'faults', { route: LIST, status: 500 });
    try {
      const r = await run({ LOADER_TEST_STRICT: '1' });
      expect(r.error).toBeDefined();
      const text = `${r.error!.message}\n${r.logs}`;
      expect(text).toContain('[GET] /api/v1/sites/12/articles/: 500 Internal Server Error');
      expect(text).toContain('The service failed: retry later.');
      expect(text).toContain('strict: true');
      expect(await storeText()).toBe(storeAfterUpdate);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it("a first build with nothing stored fails with the client's error when the list call fails", async () => {
    const fresh = await tempDirs('loader-build-first', root);
    extraDirs.push(fresh);
    await admin(sim.url, 'POST', 'faults', { route: LIST, status: 503 });
    try {
      const r = await run({}, fresh);
      expect(r.error).toBeDefined();
      expect(`${r.error!.message}\n${r.logs}`).toContain('[GET] /api/v1/sites/12/articles/: 503');
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it('a refused key fails the build with its advice once: in the message, which Astro prints without a hint', async () => {
    const fresh = await tempDirs('loader-build-401', root);
    extraDirs.push(fresh);
    const r = await run({ PUBLISHER_API_KEY: 'btb_unknown_token_1' }, fresh);
    const error = r.error as (Error & { hint?: string }) | undefined;
    expect(error?.name).toBe('UnauthorizedError');
    expect(error?.message).toMatch(
      /^\[GET\] \/api\/v1\/sites\/12\/articles\/: 401 Unauthorized: .*\. The API key is not valid \(unknown or revoked\): create one in the dashboard at \/account\/api-keys \(it starts with btb_\) and set it as PUBLISHER_API_KEY or the `apiKey` option\.$/,
    );
    // Astro prints a hint after the message: none, or the advice would be printed twice.
    expect(error?.hint).toBe('');
    // The copy Astro gets keeps the stack trace (Astro prints it, and finds the error's location in it).
    expect(error?.stack).toMatch(/\n\s+at .*errorForStatus/);
  });

  it('a bad option fails the build with a message naming the option and the fix', async () => {
    const fresh = await tempDirs('loader-build-option', root);
    extraDirs.push(fresh);
    const r = await run({ PUBLISHER_SITE_ID: 'twelve' }, fresh);
    expect(r.error).toBeDefined();
    // Astro wraps the loader's message and ends it with its own period: one, not two. Its hint is where every
    // option is described, not Astro's own advice about a syntax error in the content config.
    expect(r.error!.message).toMatch(
      /: `siteId` must be a positive integer \(got "twelve"\)\. Set it in articlesLoader\(\{ siteId \}\) or the environment variable PUBLISHER_SITE_ID\.$/,
    );
    expect((r.error as Error & { hint?: string }).hint).toBe(
      'Every option and its default: https://www.npmjs.com/package/astro-content-publisher#articlesloader-options',
    );
    expect(sim.stats().authenticated).toBe(0);
  });

  it('the API key appears nowhere: not in the data store, the build output, the logs or any unauthenticated request', async () => {
    const key = sim.tokens.pro;
    expect(allLogs.join('\n')).toContain('articles: 0 new'); // the logs were captured
    expect(allLogs.join('\n')).not.toContain(key);
    for (const [path, text] of await readTree(dirs.cacheDir)) expect(text.includes(key), path).toBe(false);
    for (const [path, text] of await readTree(dirs.outDir)) expect(text.includes(key), path).toBe(false);
    for (const request of allRequests) {
      if (request.path.startsWith('/api/v1/')) expect(request.tokenIn).toEqual(['header']);
      else expect(request.authorization, request.path).toBe(false);
    }
  });
});
