/**
 * Issue 38, item 5: a build whose 3 detail calls failed on a dead connection said `7 requests` where the guide said
 * a detail call is exactly one request. What is sent: the list call, each detail, and each detail whose connection
 * broke before any answer once more (while the budget has a request to spare). The summary says how many of its
 * requests were such resends, and its count is the count the service saw.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { addFault, clearFaults, hits, patchArticle, ROUTES } from '../faults/helpers.js';
import { buildFixture, fixtureRoot, loaderSiteEnv, summaryOf, tempDirs } from './loader-harness.js';

const root = fixtureRoot('loader-site');
let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;

const build = async () => {
  sim.resetStats();
  const result = await buildFixture({
    root,
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: loaderSiteEnv(sim),
  });
  expect(result.error).toBeUndefined();
  return {
    summary: summaryOf(result.logs),
    sent: sim.stats().authenticated,
    details: hits(sim.stats(), ROUTES.detail),
  };
};

beforeAll(async () => {
  sim = await startSimulator({ articles: 6, rateLimitOverride: 100_000 });
  dirs = await tempDirs('summary-requests', root);
  expect((await build()).summary).toMatch(/^6 articles: 6 new, /);
});

afterAll(async () => {
  await sim?.close();
  await dirs?.cleanup();
});

it('three details on a dead connection: the summary counts the resends it sent, as the service saw them', async () => {
  const list = (await (
    await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } })
  ).json()) as { results: Array<{ slug: string }> };
  for (const { slug } of list.results.slice(0, 3)) await patchArticle(sim, 12, slug, { title: `Retitled ${slug}` });
  await addFault(sim, { route: ROUTES.detail, drop: 'before-headers', times: 3 });
  try {
    const r = await build();
    expect(r.details).toBe(6);
    expect(r.sent).toBe(7);
    expect(r.summary).toMatch(
      /^6 articles: 0 new, 3 changed, 0 removed, 3 unchanged, 0 pending; 7 requests \(3 details sent again after a dropped connection\), /,
    );
  } finally {
    await clearFaults(sim);
  }
});
