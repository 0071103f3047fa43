/**
 * `astro sync` (and `astro check`, which syncs first) with the integration: the loaders keep their store and
 * send nothing, so a `astro check && astro build` script spends its requests once, in the build. Real
 * `sync()` and `build()` of test/fixtures/truth-site against the simulator.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build, sync } from 'astro';
import { afterAll, beforeAll, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureRoot } from './loader-harness.js';

const ROOT = fixtureRoot('truth-site');
let sim: Simulator;
let outDir: string;
let cacheDir: string;

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  outDir = await mkdtemp(join(ROOT, 'dist', 'sync-'));
  cacheDir = join(ROOT, '.astro', `sync-${outDir.slice(-6)}`);
});
afterAll(async () => {
  await sim?.close();
  await Promise.all([outDir, cacheDir].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

/** Runs `command` with the simulator's settings in the environment, as a user's shell would have them. */
async function withEnv(command: () => Promise<unknown>): Promise<void> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    PUBLISHER_BASE_URL: sim.url,
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
  });
  try {
    await command();
  } finally {
    for (const key of ['PUBLISHER_BASE_URL', 'PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

const config = () => ({
  root: ROOT,
  outDir,
  cacheDir,
  site: 'https://blog.example.com',
  logLevel: 'silent' as const,
  integrations: [publisher({ siteId: 12, baseUrl: sim.url })],
});

it('astro sync sends no request and keeps the store; the build after it fetches what changed', async () => {
  // A cold sync: nothing stored, nothing fetched (the types come from the schema).
  await withEnv(() => sync(config()));
  expect(sim.stats().authenticated).toBe(0);

  await withEnv(() => build(config()));
  const cold = sim.stats().authenticated;
  expect(cold).toBeGreaterThan(1);
  const store = await readFile(join(cacheDir, 'data-store.json'), 'utf8');

  // `astro check && astro build`: the check's sync spends nothing and leaves the store as the build left it.
  sim.resetStats();
  await withEnv(() => sync(config()));
  expect(sim.stats().authenticated).toBe(0);
  expect(await readFile(join(cacheDir, 'data-store.json'), 'utf8')).toBe(store);
  await withEnv(() => build(config()));
  // The warm build: its list call only.
  expect(sim.stats().authenticated).toBe(1);
});

it('astro sync without the service settings (a CI lint job, a fork’s pull request): types without a request or an error', async () => {
  // Found by a trial on AstroWind: `astro sync` and `astro check` failed without PUBLISHER_API_KEY and
  // PUBLISHER_BASE_URL, although they send nothing.
  const saved = { ...process.env };
  for (const key of ['PUBLISHER_BASE_URL', 'PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID']) delete process.env[key];
  try {
    sim.resetStats();
    await sync({ ...config(), integrations: [publisher()] });
    expect(sim.stats().requests).toEqual([]);
    // A build has no such placeholders: it fails, naming what is missing.
    const failure = await build({ ...config(), integrations: [publisher()] }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/`siteId` is missing/);
  } finally {
    for (const key of ['PUBLISHER_BASE_URL', 'PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID'])
      if (saved[key] !== undefined) process.env[key] = saved[key];
  }
});
