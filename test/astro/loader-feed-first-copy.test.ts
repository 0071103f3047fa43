/**
 * Issue 36, "a change seen in any free signal marks the entry as needing its detail", found by the site model
 * (test/model-site, MODEL_SEED=20261202): an article stored from its detail while the public feed was a CDN copy
 * older than it (the feeds are cached for an hour) has no feed copy on record; once the feed shows it edited, that
 * copy is the only signal of the edit (a sitemap without `lastmod`, and the list carries no update time), and the
 * loader must fetch the detail instead of keeping the old body with nothing pending.
 */
import { afterEach, expect, it } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { patchArticle, publish } from '../faults/helpers.js';
import { fakeContext } from './loader-context.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CDN_SECONDS = 3;

it('an article stored while the feed copy lacked it: its edit, shown by the next feed copy, is fetched', async () => {
  sim = await startSimulator({
    articles: 3,
    rateLimitOverride: 100_000,
    variants: { sitemapLastmod: 'absent', feedCdnMaxAgeSeconds: CDN_SECONDS },
  });
  const loader = articlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro, images: false });
  const ctx = fakeContext(loader.schema);
  // The CDN takes its copy of the feed now: the article published next is not in it.
  await loader.load(ctx.context);
  await publish(sim, { site: 12, title: 'Fresh', slug: 'fresh', content: '<p>fresh-v1</p>' });
  await loader.load(ctx.context);
  expect(ctx.entries.get('fresh')?.rendered?.html).toContain('fresh-v1');
  await patchArticle(sim, 12, 'fresh', { content: '<p>fresh-v2</p>' });
  // The copy expires: the next one shows the article at v2, the list and the sitemap show nothing changed.
  await sleep(CDN_SECONDS * 1000 + 200);
  await loader.load(ctx.context);
  expect(ctx.entries.get('fresh')?.rendered?.html).toContain('fresh-v2');
});
