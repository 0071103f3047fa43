/**
 * How many times Astro's real content layer writes its store during a warm build whose list call is slow (as a
 * remote service's often is): once, at the end of the sync, not once more in the middle of the loader's run.
 * Astro writes the store 500 ms after its last change, and the sync changes it first (its version and config
 * digests); without the loader's hold (src/loader/state/store-write-hold.ts) that wait ran out while the list call
 * was in flight, and Astro serialised the whole store for nothing (1.4 s at 10,000 articles), then again.
 * Counted on the prototype of Astro's own MutableDataStore, which the build in this process uses.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { addFault, clearFaults, ROUTES } from '../faults/helpers.js';
import { buildFixture, fixtureRoot, loaderSiteEnv, summaryOf, tempDirs } from './loader-harness.js';

const root = fixtureRoot('loader-site');
let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;

// Astro does not export the module: it is imported by its file, the same module instance its build uses.
const astroDir = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
type StorePrototype = { writeToDisk: (this: unknown) => Promise<void> };
let storePrototype: StorePrototype;

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
  dirs = await tempDirs('acp-store-writes-', root);
  const module = (await import(pathToFileURL(join(astroDir, 'dist/content/mutable-data-store.js')).href)) as {
    MutableDataStore: { prototype: StorePrototype };
  };
  storePrototype = module.MutableDataStore.prototype;
});
afterAll(async () => {
  await sim?.close();
  await dirs?.cleanup();
});

/** A build, with the calls to Astro's store write counted (each serialises the whole store when it changed). */
async function countedBuild(): Promise<{ writes: number; summary: string | undefined }> {
  const original = storePrototype.writeToDisk;
  let writes = 0;
  storePrototype.writeToDisk = function (this: unknown) {
    writes += 1;
    return original.call(this);
  };
  try {
    const result = await buildFixture({ root, outDir: dirs.outDir, cacheDir: dirs.cacheDir, env: loaderSiteEnv(sim) });
    expect(result.error).toBeUndefined();
    return { writes, summary: summaryOf(result.logs) };
  } finally {
    storePrototype.writeToDisk = original;
  }
}

it('a warm build with a list call of 1.5 s writes the store once, at the end of the sync', async () => {
  const cold = await countedBuild();
  expect(cold.summary).toMatch(/12 articles: 12 new/);
  // The same build, the list call answering after 1.5 s: three times Astro's 500 ms wait.
  await addFault(sim, { route: ROUTES.list, delayMs: 1_500 });
  try {
    const warm = await countedBuild();
    expect(warm.summary).toMatch(/12 articles: 0 new, 0 changed, 0 removed, 12 unchanged/);
    expect(warm.writes).toBe(1);
  } finally {
    await clearFaults(sim);
  }
}, 120_000);
