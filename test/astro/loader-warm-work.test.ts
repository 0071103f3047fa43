/**
 * What a warm build does to entries that did not change: nothing but the view count, which the list call
 * brings for free. Astro's `generateDigest` hashes a whole article (fields and HTML): a warm build of a
 * site whose readers moved the view counts must not hash any of them again, nor validate them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { articlesLoader } from '../../src/loader/index.js';
import { fakeContext } from './loader-context.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
});

describe('articlesLoader: a warm build leaves unchanged entries alone', () => {
  it('view counts moved on the service: the entries get the new count, their digest stays, and no digest or validation is computed', async () => {
    const loader = articlesLoader({
      siteId: 12,
      baseUrl: sim.url,
      apiKey: sim.tokens.pro,
      budget: { maxRequests: 100 },
    });
    const ctx = fakeContext(loader.schema);
    await loader.load(ctx.context);
    const before = new Map([...ctx.entries].map(([id, e]) => [id, { digest: e.digest, views: e.data.viewCount }]));
    expect(before.size).toBe(12);
    // Readers: every detail read adds a view on the service.
    for (const id of before.keys())
      await fetch(`${sim.url}/api/v1/sites/12/articles/${encodeURIComponent(id)}/`, {
        headers: { authorization: `Bearer ${sim.tokens.pro}` },
      });
    let digests = 0;
    let validations = 0;
    const generateDigest = ctx.context.generateDigest;
    const parseData = ctx.context.parseData;
    ctx.context.generateDigest = (data) => ((digests += 1), generateDigest(data));
    ctx.context.parseData = (props) => ((validations += 1), parseData(props));
    ctx.take();
    await loader.load(ctx.context);
    expect(ctx.take().find((l) => /articles?: \d+ new/.test(l))).toMatch(
      /12 articles: 0 new, 0 changed, 0 removed, 12 unchanged/,
    );
    const listed = (await (
      await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } })
    ).json()) as { results: Array<{ slug: string; view_count: number }> };
    const views = new Map(listed.results.map((item) => [item.slug, item.view_count]));
    for (const [id, entry] of ctx.entries) {
      expect(entry.data.viewCount).toBeGreaterThan(before.get(id)!.views as number);
      expect(entry.data.viewCount).toBe(views.get(id));
      expect(entry.digest).toBe(before.get(id)!.digest);
    }
    expect(digests).toBe(0);
    expect(validations).toBe(0);
  });
});
