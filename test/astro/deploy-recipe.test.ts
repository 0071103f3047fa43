/**
 * The deploy guide's GitHub Actions recipe, step by step, in a fresh copy of a fixture blog at the same path (as
 * a runner's checkout is): restore an empty cache, build, save; then a new checkout, restore, build. The
 * second build must spend one authenticated request, and the first must say that its store was empty.
 */
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, fixtureRoot } from './loader-harness.js';

const README = new URL('../../docs/guides/deploy.md', import.meta.url);
const source = fixtureRoot('ci-site');
const checkout = join(source, 'dist', 'checkout');
const cacheStore = join(tmpdir(), `acp-actions-cache-${process.pid}`);

/** The recipe's YAML, as the deploy guide shows it. */
async function recipe(): Promise<string> {
  const text = await readFile(README, 'utf8');
  const start = text.indexOf('<!-- recipe:github-actions -->');
  const end = text.indexOf('<!-- /recipe:github-actions -->');
  expect(start).toBeGreaterThan(0);
  return text.slice(start, end);
}

/** The `path: |` list of the step that uses `action`. */
function cachedPaths(yaml: string, action: string): string[] {
  const step = yaml.slice(yaml.indexOf(`uses: ${action}`));
  const block = /path: \|\n((?:\s{12}\S.*\n)+)/.exec(step)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** actions/checkout + npm ci: the sources, and a node_modules without the store. */
async function freshCheckout(): Promise<void> {
  await rm(checkout, { recursive: true, force: true });
  await mkdir(join(checkout, 'node_modules'), { recursive: true });
  await cp(join(source, 'src'), join(checkout, 'src'), { recursive: true });
  await cp(join(source, 'astro.config.mjs'), join(checkout, 'astro.config.mjs'));
}

/** actions/cache/restore with a prefix key: the newest saved entry, if any. */
async function restore(paths: string[], saved: string[]): Promise<boolean> {
  const latest = saved.at(-1);
  if (!latest) return false;
  for (const path of paths)
    if (existsSync(join(latest, path))) await cp(join(latest, path), join(checkout, path), { recursive: true });
  return true;
}

async function save(paths: string[], saved: string[], runId: number): Promise<void> {
  const entry = join(cacheStore, `astro-store-main-${runId}`);
  for (const path of paths) await cp(join(checkout, path), join(entry, path), { recursive: true });
  saved.push(entry);
}

describe('deploy recipe: GitHub Actions with actions/cache', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ articles: 8, rateLimitOverride: 100_000 });
  });
  afterAll(async () => {
    await sim?.close();
    await rm(checkout, { recursive: true, force: true });
    await rm(cacheStore, { recursive: true, force: true });
  });

  it('restore (empty), build, save; checkout, restore, build: the second build spends one request', async () => {
    const yaml = await recipe();
    // The steps in the order the recipe gives them: the store is restored after npm ci, which deletes node_modules.
    const order = ['run: npm ci', 'uses: actions/cache/restore', 'run: npm run build', 'uses: actions/cache/save'].map(
      (step) => yaml.indexOf(step),
    );
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const paths = cachedPaths(yaml, 'actions/cache/restore');
    expect(paths).toEqual(['node_modules/.astro', 'dist']);
    expect(cachedPaths(yaml, 'actions/cache/save')).toEqual(paths);

    const env = { CI: 'true', PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro };
    const dirs = { root: checkout, outDir: join(checkout, 'dist'), cacheDir: join(checkout, 'node_modules', '.astro') };
    const saved: string[] = [];

    await freshCheckout();
    expect(await restore(paths, saved)).toBe(false);
    const first = await buildFixture({ ...dirs, env });
    expect(first.error).toBeUndefined();
    expect(sim.stats().authenticated).toBe(1 + 8);
    expect(first.logs).toContain(
      'CI: this build started from an empty store (node_modules/.astro was not restored), so it spent 9 request(s) loading 8 article(s)',
    );
    expect(first.logs).toContain('#deploy-keep-the-store-between-builds');
    await save(paths, saved, 1);

    sim.resetStats();
    await freshCheckout();
    expect(existsSync(dirs.cacheDir)).toBe(false);
    expect(await restore(paths, saved)).toBe(true);
    const second = await buildFixture({ ...dirs, env });
    expect(second.error).toBeUndefined();
    expect(sim.stats().authenticated).toBe(1);
    expect(second.logs).not.toContain('CI: this build started from an empty store');
    expect((await readFile(join(dirs.outDir, 'index.html'), 'utf8')).match(/data-slug=/g)).toHaveLength(8);
  });
});
