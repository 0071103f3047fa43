/**
 * Issue 38, item 4: links to an unpublished article become text in every build, not now and then. The service's
 * CDN may answer the public sitemap from two edges, one of them an older copy that still lists the unpublished
 * article: a build that read that copy took the slug for published again and forgot it, so that build and every
 * later one left the links to it live (to a page that answers 404 on the service too). Only the list or the
 * store prove that an unpublished article is back; a sitemap copy may be older than the unpublish.
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

it('an unpublished article stays unpublished through builds that read a stale edge of the sitemap', async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000, variants: { feedStaleEdgeSeconds: 3600 } });
  const loader = articlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro });
  const ctx = fakeContext(loader.schema);
  const unpublished = () => readState(ctx.meta.get('site-12:state')).state.unpublished ?? [];
  for (let build = 0; build < 2; build++) await loader.load(ctx.context);
  const slug = [...ctx.entries.keys()][0]!;
  expect((await fetch(`${sim.url}/__simulator/articles/12/${slug}`, { method: 'DELETE' })).status).toBe(204);
  const seen: string[][] = [];
  for (let build = 0; build < 4; build++) {
    await loader.load(ctx.context);
    expect(ctx.entries.has(slug)).toBe(false);
    seen.push(unpublished());
  }
  // Every build after the one that removed it, whichever edge it read.
  expect(seen).toEqual([[slug], [slug], [slug], [slug]]);
});
