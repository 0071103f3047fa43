/**
 * Astro clears its content store when the Astro config or the content config changes (a new image setting, a
 * schema edit, another PUBLISHER_BASE_URL in image.remotePatterns). Found by trials on Astro Micro and
 * AstroWind: the next build then started cold within its budget, and the deployed blog lost the articles it could
 * not fetch again (10 articles per language down to 3). An empty collection now starts from what the last build
 * stored, still in the store file that Astro has not yet written again, and syncs from there. Real builds.
 */
import { describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { closedAfterEach, isolatedSite, modelSiteBuild, publishModelArticle, summaryOf } from './loader-harness.js';

vi.setConfig({ testTimeout: 300_000 });
const own = closedAfterEach();

describe('a build after a config change that made Astro clear its store', () => {
  it('keeps every article: it starts from the last build’s store and sends one list call', async () => {
    const sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
    const site = await isolatedSite('model-site', 'store-cleared');
    own(sim, site);
    const slugs = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
    for (const slug of slugs) await publishModelArticle(sim.url, slug, 'en');
    expect((await modelSiteBuild(site, sim, 10)()).error).toBeUndefined();

    // A budget of 2 requests: a cold build could list and fetch one article, and the blog would lose five.
    const changed = await modelSiteBuild(site, sim, 2, { image: { domains: ['images.example.com'] } })();
    expect(changed.error).toBeUndefined();
    expect(changed.logs).toMatch(/Astro config changed/);
    expect(changed.logs).toMatch(/Started from the 6 entries that the last build stored/);
    expect(
      summaryOf(
        changed.logs
          .split('\n')
          .filter((line) => line.includes('lang-en'))
          .join('\n'),
      ),
    ).toMatch(/^6 articles: 0 new, 0 changed, 0 removed, 6 unchanged, 0 pending; 1 request, \d+ left this hour$/);
  });
});
