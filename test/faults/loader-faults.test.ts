/**
 * The fault matrix at the loader level: articlesLoader against the simulator over HTTP (in-memory loader
 * context from test/astro/loader-context.ts; the real Astro builds are in interrupted-build.test.ts). For
 * every fault on the list call, the detail calls and the two feeds, after upstream changes:
 * - default: the build passes, and every stored article is its previous version or its new good version
 *   (nothing dropped, nothing half-written), with a warning whenever something was not fetched;
 * - strict: the build fails with one line naming the endpoint (and the status), and the store obeys the
 *   same rule;
 * - the request count stays within the budget; once the fault is gone the next build converges.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublisherError, TimeoutError } from '../../src/client/index.js';
import { articlesLoader, liveArticlesLoader, StrictModeError } from '../../src/loader/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fakeContext, type FakeContext } from '../astro/loader-context.js';
import { addFault, clearFaults, type Endpoint, hits, patchArticle, publish, ROUTES, timed } from './helpers.js';

const MAX_REQUESTS = 10;
let sim: Simulator;
let before: FakeContext;
let good: FakeContext;
let listItems: unknown[];
let reportDir: string;
const loader = (extra: Record<string, unknown> = {}) =>
  articlesLoader({
    siteId: 12,
    baseUrl: sim.url,
    apiKey: sim.tokens.pro,
    budget: { maxRequests: MAX_REQUESTS, reserve: 0 },
    ...extra,
  });

/** A copy of a context's store and meta, so each scenario starts from the same previous build. */
function copyOf(source: FakeContext): FakeContext {
  const ctx = fakeContext(loader().schema);
  for (const [id, entry] of source.entries) ctx.entries.set(id, structuredClone(entry));
  for (const [key, value] of source.meta) ctx.meta.set(key, value);
  return ctx;
}

/** What a reader sees of an entry (the view count moves on every detail GET and is not content). */
const seen = (entry: { data: Record<string, unknown>; rendered?: { html: string } } | undefined) =>
  entry && { title: entry.data.title, html: entry.rendered?.html };

/** Every article of the previous build is still there, as it was or as its new good version; nothing else. */
function expectPreviousOrGood(ctx: FakeContext, label: string): void {
  for (const id of before.entries.keys()) expect(ctx.entries.has(id), `${label}: ${id} dropped`).toBe(true);
  for (const [id, entry] of ctx.entries) {
    const options = [seen(before.entries.get(id)), seen(good.entries.get(id))].filter(Boolean);
    expect(options, `${label}: ${id} is neither its previous nor its good version`).toContainEqual(seen(entry));
  }
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
  before = fakeContext(loader().schema);
  // The previous build fetched every article (each one by its detail: the feed's copy is no stand-in).
  await loader({ budget: { maxRequests: 13, reserve: 0 } }).load(before.context);
  expect(before.entries.size).toBe(12);
  // Upstream changes since that build: one new article, one retitled (needs a detail call), one rewritten
  // (the RSS feed carries it).
  const [first, second] = [...before.entries.keys()];
  await publish(sim, { site: 12, title: 'Published after the last build', content: '<h2>New</h2><p>Fresh.</p>' });
  await patchArticle(sim, 12, first!, { title: 'Retitled upstream' });
  await patchArticle(sim, 12, second!, { content: '<h2>Rewritten</h2><p>New body.</p>' });
  good = copyOf(before);
  await loader().load(good.context);
  reportDir = mkdtempSync(join(tmpdir(), 'watch-report-'));
  expect(good.entries.size).toBe(13);
  listItems = (
    (await (
      await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } })
    ).json()) as { results: unknown[] }
  ).results;
});
afterAll(async () => {
  await sim?.close();
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

const EMPTY_SITEMAP = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>';
const EMPTY_RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>';

interface Row {
  name: string;
  endpoints: Endpoint[];
  fault: (endpoint: Endpoint) => Record<string, unknown>;
  /** HTTP status named in the strict failure, when the fault is a status. */
  status?: number;
  /** The list call waits the 1 s Retry-After, then succeeds. */
  retryAfterHonoured?: boolean;
  /** What the strict failure names instead of the endpoint (a suspect list is not an HTTP failure). */
  strictNames?: string;
}

const ALL: Endpoint[] = ['list', 'detail', 'sitemap', 'rss'];
const ROWS: Row[] = [
  {
    name: '429 with a short Retry-After',
    endpoints: ALL,
    fault: () => ({ status: 429, retryAfter: 1, times: 1 }),
    retryAfterHonoured: true,
  },
  {
    name: '429 with a Retry-After over the cap',
    endpoints: ALL,
    fault: () => ({ status: 429, retryAfter: 3600 }),
    status: 429,
  },
  { name: '429 storm', endpoints: ALL, fault: () => ({ status: 429, retryAfter: 1 }), status: 429 },
  { name: '500', endpoints: ALL, fault: () => ({ status: 500 }), status: 500 },
  { name: '503', endpoints: ALL, fault: () => ({ status: 503 }), status: 503 },
  { name: '502 (CMS unreachable)', endpoints: ALL, fault: () => ({ status: 502 }), status: 502 },
  { name: 'connection dropped mid-body', endpoints: ALL, fault: () => ({ drop: 'mid-body' }) },
  { name: 'truncated body', endpoints: ALL, fault: () => ({ body: 'truncated' }) },
  { name: 'HTML error page with status 200', endpoints: ALL, fault: () => ({ body: 'html' }) },
  {
    name: 'schema drift: a renamed field',
    endpoints: ['list', 'detail'],
    fault: (endpoint) => ({ drift: { rename: endpoint === 'list' ? { slug: 'article_slug' } : { content: 'body' } } }),
  },
  {
    name: 'schema drift: a required field missing',
    endpoints: ['list', 'detail'],
    fault: () => ({ drift: { omit: ['title'] } }),
  },
  {
    name: 'schema drift: article_type and extra fields',
    endpoints: ['list', 'detail'],
    fault: () => ({ drift: { add: { article_type: 'guide', extra: [1, 2] } } }),
  },
  {
    name: 'a list that suddenly comes back empty',
    endpoints: ['list', 'sitemap', 'rss'],
    fault: (endpoint) =>
      endpoint === 'list' ? { json: { results: [] } } : { body: endpoint === 'sitemap' ? EMPTY_SITEMAP : EMPTY_RSS },
    // The sitemap still lists them: the list left them out, nothing is removed.
    strictNames: 'The list of site 12 came back with 0 articles and left out published ones',
  },
  {
    name: 'a list that loses most articles at once',
    endpoints: ['list'],
    fault: () => ({ json: { results: listItems.slice(0, 3) } }),
    strictNames: 'The list of site 12 came back with 3 articles',
  },
  {
    name: 'a huge body',
    endpoints: ALL,
    fault: (endpoint) => ({
      body: 'huge',
      hugeBytes: endpoint === 'list' || endpoint === 'detail' ? 24 * 1024 * 1024 : 64 * 1024 * 1024,
    }),
  },
];

const PATH: Record<Endpoint, string> = {
  list: '/api/v1/sites/12/articles/',
  detail: '/api/v1/sites/12/articles/',
  sitemap: '/api/sites/12/sitemap.xml',
  rss: '/api/sites/12/rss.xml',
};

describe('articlesLoader under faults: stale beats failing, strict fails in one line, nothing is lost', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      for (const endpoint of row.endpoints) {
        const label = `${row.name} on ${endpoint}`;
        await clearFaults(sim);
        await addFault(sim, { route: ROUTES[endpoint], ...row.fault(endpoint) });

        // Default: passes; the store holds previous or good versions only; warns if anything was missed.
        sim.resetStats();
        const lenient = copyOf(before);
        const started = performance.now();
        // As under `content-publisher watch --run`: what the build left undone is written for the watcher.
        const report = join(reportDir, `${row.name.replace(/\W+/g, '-')}-${endpoint}.jsonl`);
        process.env.PUBLISHER_WATCH_REPORT = report;
        await expect(loader().load(lenient.context), label).resolves.toBeUndefined();
        delete process.env.PUBLISHER_WATCH_REPORT;
        const undone = existsSync(report) ? readFileSync(report, 'utf8') : '';
        // Retry-After honoured: the list call waited before its one retry (a detail call never waits).
        if (row.retryAfterHonoured && endpoint === 'list')
          expect(performance.now() - started, label).toBeGreaterThanOrEqual(950);
        const lines = lenient.take();
        const warnings = lines.filter((l) => l.startsWith('warn '));
        // Astro's logger labels each line with the loader's name: no line repeats the package's (the client's
        // retry notices included).
        for (const line of lines) expect(line, label).not.toContain('[astro-content-publisher]');
        if (row.status === 500 && endpoint === 'list') expect(lines.join('\n'), label).toMatch(/retry 1 of \d/);
        expectPreviousOrGood(lenient, label);
        const stats = sim.stats();
        expect(stats.authenticated, `${label}: budget`).toBeLessThanOrEqual(MAX_REQUESTS);
        // No storm: the list call at most 1 + 2 retries; each detail once; each feed at most 1 + 2 retries.
        expect(hits(stats, ROUTES.list), `${label}: list calls`).toBeLessThanOrEqual(3);
        const details = stats.requests.filter((r) => r.route === ROUTES.detail).map((r) => r.path);
        expect(details.length, `${label}: a detail call was repeated`).toBe(new Set(details).size);
        expect(hits(stats, ROUTES.sitemap) + hits(stats, ROUTES.rss), `${label}: feed calls`).toBeLessThanOrEqual(6);
        const missed = [...good.entries.keys()].filter(
          (id) => JSON.stringify(seen(lenient.entries.get(id))) !== JSON.stringify(seen(good.entries.get(id))),
        );
        if (missed.length > 0 || lenient.entries.size !== good.entries.size) {
          expect(
            warnings.length,
            `${label}: something was missed (${missed.join(', ')}) without a warning`,
          ).toBeGreaterThan(0);
        }
        for (const w of warnings) expect(w, `${label}: a warning is one line`).not.toContain('\n');
        if (endpoint === 'list' && row.status) {
          expect(warnings.join('\n')).toContain(
            `Could not list the articles of site 12: [GET] ${PATH.list}: ${row.status} `,
          );
          expect(undone, `${label}: told to the watcher`).toContain(
            `{"site":"site 12","undone":"could not list the articles: [GET] ${PATH.list}: ${row.status} `,
          );
        }
        // A changed article the build kept in its old version (or without) is the watcher's to retry.
        if (missed.length > 0 && endpoint === 'detail')
          expect(undone, `${label}: told to the watcher`).toMatch(/changed article\(s\) not fetched yet/);

        if (endpoint === 'detail' && warnings.length > 0)
          expect(warnings.join('\n')).toMatch(/could not be fetched .*Their previous versions are kept/);

        // strict: the same situation fails the build in one line naming the endpoint; the store obeys the same rule.
        await clearFaults(sim);
        await addFault(sim, { route: ROUTES[endpoint], ...row.fault(endpoint) });
        const strict = copyOf(before);
        let failure: unknown;
        try {
          await loader({ strict: true }).load(strict.context);
        } catch (error) {
          failure = error;
        }
        if (warnings.length > 0) {
          expect(failure, `${label}: strict must fail`).toBeDefined();
          expect(failure instanceof StrictModeError || isPublisherError(failure), label).toBe(true);
          const message = (failure as Error).message;
          expect(message, `${label}: one line`).not.toContain('\n');
          expect(message).toMatch(/^\[astro-content-publisher\] /);
          if (endpoint === 'list' && row.strictNames) expect(message, label).toContain(row.strictNames);
          else if (endpoint === 'list' || endpoint === 'detail')
            expect(message, label).toContain(`[GET] ${PATH[endpoint]}`);
          if (endpoint === 'sitemap' || endpoint === 'rss')
            expect(message, label).toMatch(new RegExp(`public (sitemap|RSS feed) of site 12`));
          if (row.status && endpoint !== 'sitemap' && endpoint !== 'rss')
            expect(message, label).toContain(`: ${row.status} `);
        } else {
          expect(failure, `${label}: nothing was missed, strict passes`).toBeUndefined();
        }
        expectPreviousOrGood(strict, `${label} (strict)`);

        // Once the fault is gone, the next build converges to the good store, and has nothing left for the watcher.
        await clearFaults(sim);
        process.env.PUBLISHER_WATCH_REPORT = `${report}.after`;
        await loader().load(lenient.context);
        delete process.env.PUBLISHER_WATCH_REPORT;
        expect(existsSync(`${report}.after`) ? readFileSync(`${report}.after`, 'utf8') : '', label).toBe('');
        expect(new Map([...lenient.entries].map(([id, e]) => [id, seen(e)])), `${label}: converges`).toEqual(
          new Map([...good.entries].map(([id, e]) => [id, seen(e)])),
        );
      }
    });
  }

  it('timeoutMs bounds a slow list call: stored content and a warning naming the timeout; strict fails in one line', async () => {
    await clearFaults(sim);
    // Far past the timeout: without timeoutMs the build would wait for it (or 30 s on a hung service).
    await addFault(sim, { route: ROUTES.list, delayMs: 5_000 });
    const lenient = copyOf(before);
    const run = await timed(() => loader({ timeoutMs: 300 }).load(lenient.context));
    expect(run.error).toBeUndefined();
    // One attempt (timeouts are not retried) plus the feeds in parallel: well under the 5 s delay.
    expect(run.ms).toBeLessThan(3_000);
    const warnings = lenient.take().filter((l) => l.startsWith('warn '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `Could not list the articles of site 12: [GET] ${PATH.list}: no complete response within 300 ms. Retry later, or raise \`timeoutMs\` (now 300 ms). Kept the 12 stored articles as they were`,
    );
    expect(new Map([...lenient.entries].map(([id, e]) => [id, seen(e)]))).toEqual(
      new Map([...before.entries].map(([id, e]) => [id, seen(e)])),
    );

    const strict = copyOf(before);
    const failed = await timed(() => loader({ timeoutMs: 300, strict: true }).load(strict.context));
    expect(failed.ms).toBeLessThan(3_000);
    expect(failed.error).toBeInstanceOf(StrictModeError);
    const message = (failed.error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      new RegExp(
        `^\\[astro-content-publisher\\] Could not list the articles of site 12: \\[GET\\] ${PATH.list}: no complete response within 300 ms\\.`,
      ),
    );
    expect(message).toContain('`timeoutMs` (now 300 ms)');
    expect(message).not.toContain(sim.tokens.pro);
    expectPreviousOrGood(strict, 'timeout (strict)');

    // The live loader's client gets the same timeout: the error comes back as a value, within the bound.
    const live = liveArticlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro, timeoutMs: 300 });
    const liveRun = await timed(() =>
      live.loadCollection({ filter: undefined } as Parameters<typeof live.loadCollection>[0]),
    );
    expect(liveRun.ms).toBeLessThan(3_000);
    const liveResult = liveRun.value as { error?: unknown };
    expect(liveResult.error).toBeInstanceOf(TimeoutError);
    expect((liveResult.error as Error).message).toContain('no complete response within 300 ms');
    await clearFaults(sim);
  });

  it('an empty list and an empty sitemap are kept until the user confirms with allowMassRemoval', async () => {
    await clearFaults(sim);
    await addFault(sim, { route: ROUTES.list, json: { results: [] } });
    await addFault(sim, { route: ROUTES.sitemap, body: EMPTY_SITEMAP });
    const ctx = copyOf(before);
    await loader().load(ctx.context);
    expect(ctx.take().join('\n')).toContain(
      'came back with 0 articles where 12 are stored: removing 12 at once looks like an upstream accident, so nothing was removed. If it is intended, set articlesLoader({ allowMassRemoval: true })',
    );
    expect(ctx.entries.size).toBe(12);
    await loader({ allowMassRemoval: true }).load(ctx.context);
    expect(ctx.entries.size).toBe(0);
    await clearFaults(sim);
  });
});
