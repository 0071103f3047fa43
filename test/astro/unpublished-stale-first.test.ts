/**
 * Issue 38, item 4, the other direction: the build that removes an unpublished article may read a stale copy of
 * the public sitemap that still lists it (a second CDN edge, or a cached copy). A removal while the sitemap lists
 * the slug is no proof that the service dropped the page, so such a build records nothing; the slug must still be
 * recorded as unpublished by the next build that reads a copy without it, or the links to it from other articles
 * point at the service's dead page for good. (Tried as a reproduction of the 2-in-7 builds; the loader
 * already records it under both simulator variants: kept as the guard of that path.)
 */
import { afterEach, expect, it } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { readState } from '../../src/loader/state/state.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fakeContext } from './loader-context.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
});

const VARIANTS = [{ feedStaleEdgeSeconds: 3600 }, { sitemapState: 'stale', sitemapStaleSeconds: 1 }] as const;

for (const variants of VARIANTS)
  for (const warmBuilds of [1, 2])
    it(`${JSON.stringify(variants)}, removal after ${warmBuilds} build(s): unpublished from the next build on`, async () => {
      sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000, variants });
      const loader = articlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro });
      const ctx = fakeContext(loader.schema);
      const unpublished = () => readState(ctx.meta.get('site-12:state')).state.unpublished ?? [];
      for (let build = 0; build < warmBuilds; build++) await loader.load(ctx.context);
      const slug = [...ctx.entries.keys()][0]!;
      expect((await fetch(`${sim.url}/__simulator/articles/12/${slug}`, { method: 'DELETE' })).status).toBe(204);
      // Each build: the blog still has the article (its page answers, links go there) or has it as unpublished
      // (links become text); never gone and unrecorded, the state whose links point at the service's dead page.
      const seen: Array<[stored: boolean, unpublished: boolean]> = [];
      for (let build = 0; build < 3; build++) {
        await loader.load(ctx.context);
        seen.push([ctx.entries.has(slug), unpublished().includes(slug)]);
        // The stale copy's second (sitemapStaleSeconds: 1) runs out between builds.
        await new Promise((resolve) => setTimeout(resolve, 1100));
      }
      for (const [stored, gone] of seen) expect(stored || gone, JSON.stringify(seen)).toBe(true);
      expect(seen.at(-1)).toEqual([false, true]);
    });
