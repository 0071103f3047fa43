/**
 * Membership that does not depend on the list's size: the public sitemap and the list decide together what
 * exists. A list capped at any size (the API documents no maximum) still gives every published article,
 * over several builds when the budget says so, and nothing leaves the store because a capped list omitted it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { fakeContext } from './loader-context.js';

const opened: Simulator[] = [];
async function sim(options: SimulatorOptions): Promise<Simulator> {
  const started = await startSimulator({ rateLimitOverride: 100_000, ...options });
  opened.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
const summary = (lines: string[]) => lines.find((l) => /articles?: \d+ new/.test(l))?.replace(/^info /, '');

describe('a list capped below the site', () => {
  it('next/count paging hints are followed within the budget on a cold build, and not on a quiet one', async () => {
    const s = await sim({ articles: 130, variants: { listDefault: 50, listMax: 50, paging: 'next-count' } });
    const loader = articlesLoader({
      siteId: 12,
      baseUrl: s.url,
      apiKey: s.tokens.pro,
      budget: { maxRequests: 200, reserve: 0 },
    });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.size).toBe(130);
    const lists = s
      .stats()
      .requests.filter((r) => r.route === 'GET /api/v1/sites/:id/articles/')
      .map((r) => r.path);
    expect(lists.length).toBe(3);
    s.resetStats();
    await loader.load(ctx.context);
    expect(s.stats().authenticated).toBe(1);
  });

  it.each([
    { listDefault: 20, listMax: 50 },
    { listMax: 50 },
    { listMax: 100, paging: 'offset' as const },
    { listDefault: 20, listMax: 50, paging: 'next-count' as const },
  ])(
    '130 articles with the list at %o: every article is built, over several builds with a small budget',
    async (variants) => {
      const s = await sim({ articles: 130, variants });
      const loader = articlesLoader({
        siteId: 12,
        baseUrl: s.url,
        apiKey: s.tokens.pro,
        budget: { maxRequests: 40, reserve: 0 },
      });
      const ctx = fakeContext(loader.schema);
      const pendings: number[] = [];
      for (let build = 0; build < 8 && ctx.entries.size < 130; build += 1) {
        await loader.load(ctx.context);
        const line = summary(ctx.take())!;
        pendings.push(Number(/(\d+) pending/.exec(line)![1]));
      }
      expect(ctx.entries.size).toBe(130);
      // Every build said how many were still to come, and the count only went down.
      expect(pendings.at(-1)).toBe(0);
      expect(pendings.slice(0, -1).every((p, i) => p > 0 && p >= pendings[i + 1]!)).toBe(true);
      // A quiet build afterwards: the list call only, nothing removed although the list omits most articles.
      s.resetStats();
      await loader.load(ctx.context);
      expect(ctx.entries.size).toBe(130);
      expect(s.stats().authenticated).toBe(1);
      expect(summary(ctx.take())).toMatch(
        /^130 articles: 0 new, 0 changed, 0 removed, 130 unchanged, 0 pending; 1 request/,
      );
    },
  );

  it("refresh 'force' and revalidation reach the stored articles beyond a capped list too", async () => {
    const s = await sim({ articles: 30, variants: { listMax: 10 } });
    const conn = { siteId: 12, baseUrl: s.url, apiKey: s.tokens.pro, budget: { maxRequests: 100, reserve: 0 } };
    const ctx = fakeContext(articlesLoader(conn).schema);
    await articlesLoader(conn).load(ctx.context);
    expect(ctx.entries.size).toBe(30);
    const details = () => s.stats().routes['GET /api/v1/sites/:id/articles/:slug/'];
    // Before: 10 each (the listed ones); the 20 beyond the list were never asked for again.
    s.resetStats();
    await articlesLoader({ ...conn, refresh: 'force' }).load(ctx.context);
    expect(details()).toEqual({ 200: 30 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    s.resetStats();
    await articlesLoader({ ...conn, revalidateAfterHours: 0.00001 }).load(ctx.context);
    expect(details()).toEqual({ 200: 30 });
  });

  it('articles the cold build could not reach beyond a capped list get their detail in the next build, not a promise every build', async () => {
    // 30 articles, 10 per list page: the cold build follows the next hints (3 list calls) and has 17 detail
    // calls left for 30 new articles, so 13 wait. Most of them are on pages 2 and 3, which a warm build does not
    // read. Content comes only from the detail (issue 36, d37eebe): before, those 13 were built from the feed's
    // copies and completed in the next build; now they are pending, and the next build still reaches them all.
    const s = await sim({ articles: 30, variants: { listDefault: 10, listMax: 10, paging: 'next-count' } });
    const loader = articlesLoader({ siteId: 12, baseUrl: s.url, apiKey: s.tokens.pro, budget: { maxRequests: 20 } });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.size).toBe(17);
    const cold = ctx.take();
    expect(cold.some((line) => /built from the RSS feed/.test(line))).toBe(false);
    expect(summary(cold)).toMatch(/^17 articles: 17 new, 0 changed, 0 removed, 0 unchanged, 13 pending; 20 requests,/);

    s.resetStats();
    await loader.load(ctx.context);
    const lines = ctx.take();
    // Before (when the feed stood in): one list call, no detail, and the same 13 announced again ("later builds
    // complete them"), every build. Now: the 13 waiting ones, each by its detail, in this build.
    expect(lines.some((line) => /built from the RSS feed/.test(line))).toBe(false);
    expect(s.stats().routes['GET /api/v1/sites/:id/articles/:slug/']).toEqual({ 200: 13 });
    expect(ctx.entries.size).toBe(30);
    expect(summary(lines)).toMatch(/^30 articles: 13 new, .* 0 pending;/);

    s.resetStats();
    await loader.load(ctx.context);
    expect(s.stats().authenticated).toBe(1);
  });

  it('a sitemap of the whole site (home, blog index, tag pages) is not read as articles: no 404 detail calls, no capped list', async () => {
    const s = await sim({ articles: 30, variants: { sitemapPages: 'site' } });
    const loader = articlesLoader({ siteId: 12, baseUrl: s.url, apiKey: s.tokens.pro, budget: { maxRequests: 40 } });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.size).toBe(30);
    // Before: "blog" and every keyword of a tag page were asked for as articles (404), in every build, and the
    // list of all 30 articles was said to be cut short ("The public sitemap shows 62 more").
    expect(ctx.take().filter((line) => /cuts the list short|could not be fetched/.test(line))).toEqual([]);
    expect(s.stats().routes['GET /api/v1/sites/:id/articles/:slug/']).toEqual({ 200: 30 });
    s.resetStats();
    await loader.load(ctx.context);
    expect(s.stats().authenticated).toBe(1);
  });

  it('an unpublished article beyond the list leaves the store (the sitemap no longer has it); one inside it too', async () => {
    const s = await sim({ articles: 60, variants: { listMax: 20 } });
    const loader = articlesLoader({
      siteId: 12,
      baseUrl: s.url,
      apiKey: s.tokens.pro,
      budget: { maxRequests: 100, reserve: 0 },
    });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    expect(ctx.entries.size).toBe(60);
    const headers = { authorization: `Bearer ${s.tokens.pro}` };
    const listed = (
      (await (await fetch(`${s.url}/api/v1/sites/12/articles/`, { headers })).json()) as {
        results: Array<{ slug: string }>;
      }
    ).results.map((a) => a.slug);
    const beyond = [...ctx.entries.keys()].find((slug) => !listed.includes(slug))!;
    for (const slug of [beyond, listed[0]!])
      expect((await fetch(`${s.url}/__simulator/articles/12/${slug}`, { method: 'DELETE' })).status).toBe(204);
    await loader.load(ctx.context);
    expect(ctx.entries.has(beyond)).toBe(false);
    expect(ctx.entries.has(listed[0]!)).toBe(false);
    expect(ctx.entries.size).toBe(58);
  });
});
