/**
 * The loaders against the real simulator over HTTP, with an in-memory loader context: the rate-limit reserve,
 * a fingerprint change, the mass-removal guard, detail failures, the data loaders and the live loader.
 */
import { parseRssFeed } from '../../src/feeds/index.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  articlesLoader,
  digestLoader,
  keywordsLoader,
  liveArticlesLoader,
  StrictModeError,
} from '../../src/loader/index.js';
import { ConfigError, createClient, PublisherError, UnauthorizedError } from '../../src/client/index.js';
import { admin } from './loader-harness.js';
import { fakeContext } from './loader-context.js';

const LIST = 'GET /api/v1/sites/:id/articles/';
const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';
let sim: Simulator;
const conn = () => ({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro });
const fingerprints = (meta: Map<string, string>) => {
  const state = JSON.parse([...meta.entries()].find(([k]) => k.endsWith(':state'))![1]) as {
    entries: Record<string, { fingerprint: string }>;
  };
  return [...new Set(Object.values(state.entries).map((e) => e.fingerprint))];
};
const summary = (lines: string[]) => lines.find((l) => /articles?: \d+ new/.test(l))?.replace(/^info /, '');

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  await admin(sim.url, 'POST', 'reset');
});

/** A loader on a small window that keeps 4 requests in reserve. */
const reserveOf4 = (small: Simulator) =>
  articlesLoader({
    siteId: 12,
    baseUrl: small.url,
    apiKey: small.tokens.pro,
    budget: { maxRequests: 100, reserve: 4 },
  });

describe('articlesLoader: request budget against X-RateLimit-Remaining', () => {
  it('never spends more than remaining - reserve, and says how many are left', async () => {
    const small = await startSimulator({ articles: 12, rateLimitOverride: 10 });
    try {
      const loader = reserveOf4(small);
      const ctx = fakeContext(loader.schema);
      await loader.load(ctx.context);
      // 10 an hour: the list call leaves 9, minus the reserve of 4 leaves 5 detail calls.
      expect(small.stats().authenticated).toBe(6);
      const first = ctx.take();
      expect(summary(first)).toBe(
        '5 articles: 5 new, 0 changed, 0 removed, 0 unchanged, 7 pending; 6 requests, 4 left this hour',
      );
      // The 7 beyond the budget are not on the blog until their detail calls (the feed's copy is no stand-in:
      // it may be cut, a teaser or another language's, and lacks the featured image).
      expect(ctx.entries.size).toBe(5);
      // The next build in this process knows 4 are left (= the reserve): even the list call would eat into it,
      // so it sends nothing and keeps the store; the 7 the last build left pending are still pending (a new user
      // read "0 pending" here as a complete site).
      await loader.load(ctx.context);
      expect(small.stats().authenticated).toBe(6);
      const lines = ctx.take();
      expect(summary(lines)).toBe(
        '5 articles: 0 new, 0 changed, 0 removed, 5 unchanged, 7 pending; 0 requests, 4 left this hour',
      );
      // The count it saw, when it lists again, and a lower reserve as a way out while requests are left.
      expect(lines.join('\n')).toMatch(
        /Did not list the articles of site 12: .* no request above budget.reserve \(4\) this hour \(4 left\)\. Kept the 5 stored articles; the first build after the hourly limit resets lists them again \(or raise the plan's limit, or lower budget.reserve\)\./,
      );

      // A collection never synced (a fresh store: a new CI cache, a store Astro cleared after a config change)
      // in that window: empty, it would deploy the blog without its articles (found by a trial on AstroWind,
      // whose build then exited 0 with no article page), so the build stops with a message saying why.
      const fresh = fakeContext(loader.schema);
      const failure = await loader.load(fresh.context).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.name).toBe('BudgetSpentError');
      expect(failure?.message).toMatch(
        /Did not list the articles of site 12: .* and nothing is stored yet .* The build stops rather than deploy the blog without its articles/,
      );
      expect(small.stats().authenticated).toBe(6);
    } finally {
      await small.close();
    }
  });
});

/** What a new process knows of the rate window: nothing (the loaders keep it on globalThis). */
const newProcess = () =>
  (
    (globalThis as Record<symbol, unknown>)[Symbol.for('astro-content-publisher.rate-window')] as Map<string, unknown>
  ).clear();

describe('articlesLoader: budget.reserve across builds', () => {
  it('each build is a new process: the window the last one saw (kept in cacheDir) still holds, so no build lists into the reserve', async () => {
    const small = await startSimulator({ articles: 12, rateLimitOverride: 10 });
    const cacheDir = await mkdtemp(join(tmpdir(), 'acp-window-'));
    try {
      const loader = reserveOf4(small);
      const ctx = fakeContext(loader.schema);
      (ctx.context as { config: object }).config = { cacheDir: pathToFileURL(`${cacheDir}/`) };
      await loader.load(ctx.context);
      expect(small.stats().authenticated).toBe(6);
      ctx.take();
      // Three more builds, each in a process of its own (this process forgets what it saw): before, each sent its
      // list call into the reserve (4 left, then 3, 2, 1).
      for (let build = 0; build < 3; build += 1) {
        newProcess();
        await loader.load(ctx.context);
        // The warning says where the count came from, until when it holds, and how to ask the service now.
        expect(ctx.take().join('\n')).toMatch(
          /Did not list the articles of site 12: the 4 requests left this hour are at or below budget.reserve \(4\) \(what an earlier build saw of this hour's rate limit, which holds until \d\d:\d\d UTC; after a plan upgrade, delete \S+rate-limit\.json to ask the service now\)/,
        );
      }
      expect(small.stats().authenticated).toBe(6);
      expect(ctx.entries.size).toBe(5);
    } finally {
      await small.close();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('articlesLoader: a cold build at the reserve', () => {
  it("fails with a message Astro shows with its own hint: no 'window' nor 'document' in it", async () => {
    // Astro's error display (core/errors/dev/utils.js, generateHint) replaces the hint of any error whose text
    // contains "window" or "document" with "Browser APIs are not available on the server": found on
    // astro-erudite, whose first build after a config change (Astro cleared the store) stopped at the reserve.
    const small = await startSimulator({ articles: 12, rateLimitOverride: 10 });
    const cacheDir = await mkdtemp(join(tmpdir(), 'acp-reserve-'));
    try {
      const loader = reserveOf4(small);
      const warm = fakeContext(loader.schema);
      (warm.context as { config: object }).config = { cacheDir: pathToFileURL(`${cacheDir}/`) };
      await loader.load(warm.context);
      newProcess();
      const cold = fakeContext(loader.schema);
      (cold.context as { config: object }).config = { cacheDir: pathToFileURL(`${cacheDir}/`) };
      const error = await loader.load(cold.context).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.name).toBe('BudgetSpentError');
      expect(String(error)).toMatch(/Did not list the articles of site 12: .*nothing is stored yet/);
      expect(String(error)).toMatch(/retry once the hourly limit resets/);
      expect(String(error)).toMatch(/delete \S+ to ask the service now/);
      expect(String(error).match(/.{0,60}(window|document).{0,60}/)?.[0]).toBeUndefined();
    } finally {
      await small.close();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('articlesLoader: several loaders on one key, a cold build', () => {
  it('share the window above the reserve: every language gets its list call and detail calls, none is left empty', async () => {
    const small = await startSimulator({
      articles: 80,
      profile: 'multilingual',
      variants: { rssContent: 'teaser' },
      rateLimitOverride: 30,
    });
    try {
      // fr, de, es: their details answer their own language (en shares its slugs with fr, whose detail answers).
      // A teaser feed: every article costs a detail call. Before, fr's cold build took the whole window.
      const languages = ['fr', 'de', 'es'] as const;
      const runs = languages.map((language) => {
        const loader = articlesLoader({
          siteId: 12,
          baseUrl: small.url,
          apiKey: small.tokens.pro,
          language,
          budget: { maxRequests: 100, reserve: 5 },
        });
        return { language, loader, ctx: fakeContext(loader.schema) };
      });
      // Side by side, as Astro runs the collections of one build.
      await Promise.all(runs.map(({ loader, ctx }) => loader.load(ctx.context)));
      expect(small.stats().authenticated).toBeLessThanOrEqual(25);
      for (const { language, ctx } of runs) {
        const lines = ctx.take().join('\n');
        expect(lines, language).not.toMatch(/Did not list the articles/);
        expect(ctx.entries.size, language).toBeGreaterThan(0);
      }
    } finally {
      await small.close();
    }
  });
});

describe('articlesLoader: an article built from its feed item', () => {
  it("takes the item's categories as its keywords (a theme's tag pages list it too)", async () => {
    // One slug in en and fr: the detail answers the older (fr), so the en article comes from the feed.
    const shared = await startSimulator({ articles: 8, profile: 'multilingual', rateLimitOverride: 100_000 });
    try {
      const loader = articlesLoader({ siteId: 12, baseUrl: shared.url, apiKey: shared.tokens.pro, language: 'en' });
      const ctx = fakeContext(loader.schema);
      await loader.load(ctx.context);
      const rss = await (await fetch(`${shared.url}/api/sites/12/rss.xml`)).text();
      const categories = new Map(
        parseRssFeed(rss, { url: shared.url }).items.map((item) => [item.link ?? '', item.categories]),
      );
      const fromFeed = [...ctx.entries.values()].filter((entry) => !entry.data.featuredImage);
      expect(fromFeed.length).toBeGreaterThan(0);
      for (const entry of fromFeed) {
        expect(entry.data.keywords, entry.id).toEqual(categories.get(String(entry.data.url)));
        expect((entry.data.keywords as string[]).length, entry.id).toBeGreaterThan(0);
      }
    } finally {
      await shared.close();
    }
  });
});

describe('articlesLoader: fingerprint, removals and failures', () => {
  it('a new fingerprint (sanitise options) re-renders every entry from the feed, without a detail call and without dropping any', async () => {
    const first = articlesLoader({ ...conn() });
    const ctx = fakeContext(first.schema);
    await first.load(ctx.context);
    const before = ctx.entries.get([...ctx.entries.keys()][0]!)!.rendered!.html;
    const [firstFingerprint] = fingerprints(ctx.meta);
    ctx.take();
    sim.resetStats();
    const second = articlesLoader({ ...conn(), sanitize: { allowedTags: ['mark'] } });
    await second.load(ctx.context);
    expect(sim.stats().authenticated).toBe(1);
    expect(ctx.entries.size).toBe(12);
    expect(summary(ctx.take())).toMatch(
      /^12 articles: 0 new, 0 changed, 0 removed, 12 unchanged, 0 pending; 1 request/,
    );
    expect(ctx.entries.get([...ctx.entries.keys()][0]!)!.rendered!.html).toBe(before);
    // The feed was read in full (not a 304) to re-render, and every entry now carries the new fingerprint.
    expect(sim.stats().routes['GET /api/sites/:id/rss.xml']).toEqual({ 200: 1 });
    expect(fingerprints(ctx.meta)).toHaveLength(1);
    expect(fingerprints(ctx.meta)[0]).not.toBe(firstFingerprint);
  });

  it('an upstream list and sitemap that come back empty remove nothing and warn; allowMassRemoval confirms it', async () => {
    const loader = articlesLoader({ ...conn() });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    ctx.take();
    await admin(sim.url, 'POST', 'faults', { route: LIST, json: { results: [] } });
    await admin(sim.url, 'POST', 'faults', {
      route: 'GET /api/sites/:id/sitemap.xml',
      body: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    });
    try {
      await loader.load(ctx.context);
      const lines = ctx.take();
      expect(lines.find((l) => l.startsWith('warn'))).toContain(
        'came back with 0 articles where 12 are stored: removing 12 at once looks like an upstream accident, so nothing was removed. If it is intended, set articlesLoader({ allowMassRemoval: true })',
      );
      expect(ctx.entries.size).toBe(12);
      await expect(articlesLoader({ ...conn(), strict: true }).load(ctx.context)).rejects.toThrow(StrictModeError);
      expect(ctx.entries.size).toBe(12);
      await articlesLoader({ ...conn(), allowMassRemoval: true }).load(ctx.context);
      expect(ctx.entries.size).toBe(0);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it('a failed detail call keeps the previous version, counts as pending and is retried on the next build', async () => {
    const loader = articlesLoader({ ...conn() });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    const slug = [...ctx.entries.keys()][3]!;
    const oldTitle = ctx.entries.get(slug)!.data.title;
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Retitled upstream' });
    await admin(sim.url, 'POST', 'faults', { route: DETAIL, status: 500 });
    ctx.take();
    try {
      await loader.load(ctx.context);
      const lines = ctx.take();
      expect(ctx.entries.get(slug)!.data.title).toBe(oldTitle);
      expect(summary(lines)).toMatch(/^12 articles: 0 new, 0 changed, 0 removed, 11 unchanged, 1 pending; 2 requests/);
      expect(lines.find((l) => l.startsWith('warn'))).toContain(
        `1 article(s) of site 12 could not be fetched (first: "${slug}": [GET] /api/v1/sites/12/articles/${slug}/: 500`,
      );
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
    await loader.load(ctx.context);
    expect(ctx.entries.get(slug)!.data.title).toBe('Retitled upstream');
    expect(summary(ctx.take())).toMatch(
      /^12 articles: 0 new, 1 changed, 0 removed, 11 unchanged, 0 pending; 2 requests/,
    );
  });

  it('an update made while the sitemap was unreadable is caught by the next readable sitemap (lastmod later than the held updated_at)', async () => {
    const loader = articlesLoader({ ...conn() });
    const ctx = fakeContext(loader.schema);
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 500 });
    try {
      await loader.load(ctx.context);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
    const slug = [...ctx.entries.keys()][2]!;
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, {
      content: '<p>Rewritten upstream while the sitemap was down.</p>',
    });
    // The feed would also tell; silence it so that the sitemap is the only signal.
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 500 });
    ctx.take();
    try {
      sim.resetStats();
      await loader.load(ctx.context);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
    expect(ctx.entries.get(slug)!.rendered!.html).toContain('Rewritten upstream');
    expect(sim.stats().routes[DETAIL]).toEqual({ 200: 1 });
    expect(summary(ctx.take())).toMatch(
      /^12 articles: 0 new, 1 changed, 0 removed, 11 unchanged, 0 pending; 2 requests/,
    );
  });

  it('entries carry typed fields, every further detail field, sanitised HTML and headings', async () => {
    const loader = articlesLoader({ ...conn() });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    const entry = [...ctx.entries.values()][0]!;
    expect(entry.data.publishedAt).toBeInstanceOf(Date);
    expect(entry.data).toMatchObject({
      status: 'published',
      url: expect.stringMatching(/^https:\/\/pro-blog\.example\.com\/blog\//),
      keywords: expect.any(Array),
    });
    expect(typeof entry.data.viewCount).toBe('number');
    expect(entry.data).not.toHaveProperty('content');
    expect(entry.rendered!.metadata!.headings!.length).toBeGreaterThan(0);
    expect(entry.rendered!.html).not.toMatch(/<script/i);
    expect(entry.digest).toEqual(expect.any(String));
  });
});

describe('articlesLoader: refresh and revalidation', () => {
  it("refresh 'force' re-fetches within the budget, oldest checked first, and reports the rest as pending", async () => {
    const loader = articlesLoader({ ...conn() });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    ctx.take();
    sim.resetStats();
    const forced = articlesLoader({ ...conn(), refresh: 'force', budget: { maxRequests: 5, reserve: 0 } });
    await forced.load(ctx.context);
    expect(sim.stats().authenticated).toBe(5);
    expect(summary(ctx.take())).toMatch(
      /^12 articles: 0 new, 0 changed, 0 removed, 4 unchanged, 8 pending; 5 requests/,
    );
    // The next forced build takes the 4 entries checked longest ago: none of those just re-fetched.
    const firstRound = new Set(
      sim
        .stats()
        .requests.filter((q) => q.route === DETAIL)
        .map((q) => q.path),
    );
    sim.resetStats();
    await forced.load(ctx.context);
    const secondRound = sim
      .stats()
      .requests.filter((q) => q.route === DETAIL)
      .map((q) => q.path);
    expect(secondRound).toHaveLength(4);
    for (const path of secondRound) expect(firstRound.has(path)).toBe(false);
  });

  it('leftover budget revalidates entries checked longer ago than revalidateAfterHours, without counting them as changed', async () => {
    const loader = articlesLoader({ ...conn(), revalidateAfterHours: 0.00001, budget: { maxRequests: 4, reserve: 0 } });
    const ctx = fakeContext(loader.schema);
    await articlesLoader({ ...conn() }).load(ctx.context);
    ctx.take();
    await new Promise((resolve) => setTimeout(resolve, 60));
    sim.resetStats();
    await loader.load(ctx.context);
    expect(sim.stats().routes[DETAIL]).toEqual({ 200: 3 });
    expect(summary(ctx.take())).toMatch(
      /^12 articles: 0 new, 0 changed, 0 removed, 12 unchanged, 0 pending; 4 requests/,
    );
  });
});

describe('articlesLoader: a site above the list maximum (1000)', () => {
  it('a capped list removes only what the sitemap lacks too, and nothing when the sitemap is unreadable; it warns', async () => {
    const big = await startSimulator({ articles: 1001, rateLimitOverride: 100_000 });
    try {
      const own = { siteId: 12, baseUrl: big.url, apiKey: big.tokens.pro };
      const loader = articlesLoader({ ...own, budget: { maxRequests: 2, reserve: 0 } });
      const ctx = fakeContext(loader.schema);
      await loader.load(ctx.context);
      const listed = new Set(
        (await createClient({ baseUrl: big.url, apiKey: big.tokens.pro }).articles(12)).map((a) => a.slug),
      );
      expect(listed.size).toBe(1000);
      const metaKey = [...ctx.meta.keys()].find((k) => k.endsWith(':state'))!;
      const oldest = Object.keys(
        (JSON.parse(ctx.meta.get(metaKey)!) as { sitemap: { lastmods: Record<string, string> } }).sitemap.lastmods,
      ).find((slug) => !listed.has(slug))!;
      // Stored from an earlier build: the oldest article (published, beyond the list: an earlier build's detail
      // answered it while the list lacked it) and one since unpublished.
      const plant = () => {
        const state = JSON.parse(ctx.meta.get(metaKey)!) as { entries: Record<string, object> };
        const [id, entry] = [...ctx.entries.entries()][0]!;
        for (const slug of [oldest, 'unpublished-long-ago']) {
          ctx.entries.set(slug, { ...structuredClone(entry), id: slug });
          state.entries[slug] = { ...state.entries[id], unlistedSince: 0 };
        }
        ctx.meta.set(metaKey, JSON.stringify(state));
      };
      plant();
      ctx.take();
      await loader.load(ctx.context);
      expect(ctx.entries.has(oldest)).toBe(true);
      expect(ctx.entries.has('unpublished-long-ago')).toBe(false);
      expect(ctx.take()).toContain(
        'warn The list of site 12 came back with 1000 articles and left out published ones: the service cuts the list short. 1 stored article(s) missing from the list are still in the public sitemap and were kept.',
      );

      plant();
      await admin(big.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 500 });
      // Under `watch --run`, the removals it could not confirm are undone work: the watcher runs again.
      const reportDir = mkdtempSync(join(tmpdir(), 'watch-report-'));
      process.env.PUBLISHER_WATCH_REPORT = join(reportDir, 'report.jsonl');
      await loader.load(ctx.context).finally(() => delete process.env.PUBLISHER_WATCH_REPORT);
      expect(readFileSync(join(reportDir, 'report.jsonl'), 'utf8')).toContain(
        '"undone":"2 article(s) missing from the list kept: the public sitemap could not be read"',
      );
      rmSync(reportDir, { recursive: true, force: true });
      expect(ctx.entries.has(oldest)).toBe(true);
      expect(ctx.entries.has('unpublished-long-ago')).toBe(true);
      expect(ctx.take()).toContainEqual(
        expect.stringContaining(
          'The public sitemap could not be read, so none of the 2 stored article(s) missing from the list was removed.',
        ),
      );
    } finally {
      await big.close();
    }
  });
});

describe('keywordsLoader and digestLoader', () => {
  it('one request each, stored as data entries, kept when the request fails; strict fails instead', async () => {
    const keywords = keywordsLoader({ ...conn() });
    const digest = digestLoader({ ...conn() });
    const kctx = fakeContext(keywords.schema);
    const dctx = fakeContext(digest.schema);
    sim.resetStats();
    await keywords.load(kctx.context);
    await digest.load(dctx.context);
    expect(sim.stats().authenticated).toBe(2);
    expect(kctx.entries.size).toBeGreaterThan(0);
    const record = [...kctx.entries.values()][0]!;
    expect(record.id).toBe(record.data.keyword);
    expect(record.data).toHaveProperty('previousPosition');
    expect(dctx.entries.get('latest')!.data).toHaveProperty('positionMovements');
    const kept = structuredClone([...kctx.entries.entries()]);

    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/v1/sites/:id/keywords/', status: 503 });
    try {
      kctx.take();
      sim.resetStats();
      await keywords.load(kctx.context);
      // No retry: a 5xx costs the one request of the build, not two.
      expect(sim.stats().routes['GET /api/v1/sites/:id/keywords/']).toEqual({ 503: 1 });
      expect(kctx.take().find((l) => l.startsWith('warn'))).toContain(
        'Could not fetch the keywords of site 12: [GET] /api/v1/sites/12/keywords/: 503',
      );
      expect([...kctx.entries.entries()]).toEqual(kept);
      await expect(keywordsLoader({ ...conn(), strict: true }).load(kctx.context)).rejects.toThrow(/strict: true/);
      // Nothing stored yet: the client's error, whatever strict says.
      await expect(keywords.load(fakeContext(keywords.schema).context)).rejects.toThrow(PublisherError);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it('budget.reserve: no request once the window seen by the loaders of this process is at or below it; the stored copy stays', async () => {
    const small = await startSimulator({ articles: 12, rateLimitOverride: 10 });
    try {
      const own = { siteId: 12, baseUrl: small.url, apiKey: small.tokens.pro };
      // The articles loader of the same build leaves 4 of 10 (reserve 4).
      const articles = articlesLoader({ ...own, budget: { maxRequests: 100, reserve: 4 } });
      await articles.load(fakeContext(articles.schema).context);
      expect(small.stats().authenticated).toBe(6);

      const digest = digestLoader({ ...own, budget: { reserve: 3 } });
      const dctx = fakeContext(digest.schema);
      await digest.load(dctx.context);
      expect(small.stats().authenticated).toBe(7);
      expect(dctx.entries.has('latest')).toBe(true);
      const kept = structuredClone(dctx.entries.get('latest'));

      // 3 left now, at the reserve: the next build keeps the stored copy and sends nothing.
      dctx.take();
      await digest.load(dctx.context);
      expect(small.stats().authenticated).toBe(7);
      expect(dctx.entries.get('latest')).toEqual(kept);
      expect(dctx.take()).toContain(
        'warn Did not fetch the weekly digest of site 12: only 3 request(s) left this hour, at or below budget.reserve (3). Kept the 1 stored entry; the first build after the hourly limit resets fetches it again (or lower digestLoader({ budget: { reserve } })).',
      );

      const keywords = keywordsLoader({ ...own, budget: { reserve: 5 } });
      const kctx = fakeContext(keywords.schema);
      await keywords.load(kctx.context);
      expect(small.stats().authenticated).toBe(7);
      expect(kctx.entries.size).toBe(0);
      await expect(keywordsLoader({ ...own, budget: { reserve: 5 }, strict: true }).load(kctx.context)).rejects.toThrow(
        StrictModeError,
      );
      // Another key is another window: nothing known about it, so its one request goes out.
      const agence = keywordsLoader({ ...own, siteId: 21, apiKey: small.tokens.agence, budget: { reserve: 5 } });
      await agence.load(fakeContext(agence.schema).context);
      expect(small.stats().authenticated).toBe(8);
    } finally {
      await small.close();
    }
  });

  it('maxAgeMinutes skips the request while the stored copy is young', async () => {
    const loader = digestLoader({ ...conn(), maxAgeMinutes: 60 });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    sim.resetStats();
    await loader.load(ctx.context);
    expect(sim.stats().authenticated).toBe(0);
    expect(ctx.take().at(-1)).toMatch(/kept the stored copy .*0 requests/);
  });
});

describe('liveArticlesLoader', () => {
  it('loadCollection with filters, loadEntry with sanitised HTML and cache hints, errors as values', async () => {
    const live = liveArticlesLoader({ ...conn() });
    const collection = await live.loadCollection({ collection: 'live', filter: { language: 'fr' } });
    if ('error' in collection) throw collection.error;
    expect(collection.entries.length).toBe(3);
    expect(collection.entries.every((e) => e.data.language === 'fr')).toBe(true);
    expect(collection.cacheHint?.tags).toContain('publisher:site-12');
    // One shape with the build-time loader: camelCase fields only, never the API's snake_case beside them.
    expect(collection.entries[0]!.data.publishedAt).toBeInstanceOf(Date);
    expect(Object.keys(collection.entries[0]!.data).filter((k) => k.includes('_'))).toEqual([]);

    const slug = collection.entries[0]!.id;
    const entry = await live.loadEntry({ collection: 'live', filter: { id: slug } });
    if (!entry || 'error' in entry) throw new Error('expected an entry');
    expect(entry.rendered!.html).toContain('<h2 id="');
    expect(entry.rendered!.html).not.toMatch(/<script/i);
    expect(entry.data.headings!.length).toBeGreaterThan(0);
    expect(entry.cacheHint?.lastModified).toBeInstanceOf(Date);
    expect(entry.cacheHint?.tags).toContain(`publisher:site-12:${slug}`);

    expect(await live.loadEntry({ collection: 'live', filter: { id: 'no-such-article' } })).toBeUndefined();
    await admin(sim.url, 'POST', 'faults', { route: LIST, status: 500 });
    try {
      // A fresh loader: `live` answers from its cached list for `cacheSeconds` (test/security/live-loader-budget.test.ts).
      const failed = await liveArticlesLoader({ ...conn() }).loadCollection({ collection: 'live', filter: {} });
      expect('error' in failed && failed.error).toBeInstanceOf(PublisherError);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
    // A slug outside the known list is "not found" without a request, hostile ones included.
    const traversal = await live.loadEntry({ collection: 'live', filter: { id: '../../me' } });
    expect(traversal).toBeUndefined();
  });
});

describe('liveArticlesLoader: PUBLISHER_BASE_URL missing when live.config.ts is evaluated', () => {
  it('is not a throw at import (every page would answer 500) but the error of each call, until it is set', async () => {
    const saved = process.env.PUBLISHER_BASE_URL;
    delete process.env.PUBLISHER_BASE_URL;
    try {
      const live = liveArticlesLoader({ siteId: 12, apiKey: sim.tokens.pro });
      sim.resetStats();
      const collection = await live.loadCollection({ collection: 'live', filter: {} });
      const entry = await live.loadEntry({ collection: 'live', filter: { id: 'any-slug' } });
      const message =
        '`baseUrl` is required. Set it in liveArticlesLoader({ baseUrl }) or the environment variable PUBLISHER_BASE_URL.';
      for (const answer of [collection, entry]) {
        expect(answer && 'error' in answer && answer.error).toBeInstanceOf(ConfigError);
        expect((answer as { error: ConfigError }).error.message).toBe(message);
      }
      expect(sim.stats().authenticated).toBe(0);

      // Set later (a redeploy's environment, a secret binding): the next call uses it, nothing to restart.
      process.env.PUBLISHER_BASE_URL = sim.url;
      const later = await live.loadCollection({ collection: 'live', filter: {} });
      if ('error' in later) throw later.error;
      expect(later.entries.length).toBeGreaterThan(0);
    } finally {
      if (saved === undefined) delete process.env.PUBLISHER_BASE_URL;
      else process.env.PUBLISHER_BASE_URL = saved;
    }
  });
});

describe('a refused key (401)', () => {
  it("the loaders' advice names their `apiKey` option and PUBLISHER_API_KEY, which they read (not createClient)", async () => {
    const refused = { ...conn(), apiKey: 'btb_unknown_token_1' };
    // Not the client's advice about the Authorization header: a loader's user never writes that header.
    const hint =
      'The API key is not valid (unknown or revoked): create one in the dashboard at /account/api-keys (it starts with btb_) and set it as PUBLISHER_API_KEY or the `apiKey` option.';
    const articles = articlesLoader(refused);
    const keywords = keywordsLoader(refused);
    const live = await liveArticlesLoader(refused).loadCollection({ collection: 'live', filter: {} });
    const errors = [
      await articles.load(fakeContext(articles.schema).context).catch((error: unknown) => error),
      await keywords.load(fakeContext(keywords.schema).context).catch((error: unknown) => error),
      'error' in live ? live.error : undefined,
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).message).toMatch(
        /: 401 Unauthorized: .*set it as PUBLISHER_API_KEY or the `apiKey` option\.$/,
      );
    }
    // A build prints an error's hint after its message: the build-time loaders hand Astro a copy whose advice is
    // in its message only (`astro dev` prints the message alone). The live loader's error keeps both fields.
    expect(errors.map((error) => (error as UnauthorizedError).hint)).toEqual(['', '', hint]);
  });
});

describe('articlesLoader: a paged list with a language filter', () => {
  it('a warm build stays at one request, and strict: true does not fail on the pages it did not read', async () => {
    // Found by a trial on Astro Micro: the fr loader of a paged service spent two list calls on every build (the
    // sitemap's other languages looked like unknown articles), and warned, with strict failed, every build.
    const paged = await startSimulator({
      articles: 60,
      rateLimitOverride: 100_000,
      variants: { listDefault: 5, paging: 'next-count' },
    });
    try {
      const loader = articlesLoader({
        siteId: 12,
        baseUrl: paged.url,
        apiKey: paged.tokens.pro,
        language: 'fr',
        strict: true,
        budget: { maxRequests: 100, reserve: 0 },
      });
      const ctx = fakeContext(loader.schema);
      await loader.load(ctx.context);
      const cold = paged.stats().authenticated;
      const stored = ctx.entries.size;
      expect(stored).toBeGreaterThan(5);
      ctx.take();
      for (let build = 0; build < 2; build += 1) {
        const before = paged.stats().authenticated;
        await loader.load(ctx.context);
        expect(paged.stats().authenticated - before, `warm build ${build + 1}`).toBe(1);
        expect(summary(ctx.take())).toBe(
          `${stored} articles: 0 new, 0 changed, 0 removed, ${stored} unchanged, 0 pending; 1 request, ${100_000 - cold - build - 1} left this hour`,
        );
      }
    } finally {
      await paged.close();
    }
  });
});
