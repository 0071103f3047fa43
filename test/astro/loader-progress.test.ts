/**
 * Progress of a long sync in a real Astro build: the simulator answers each detail call a second late, so
 * a cold build of 40 articles spends about ten seconds fetching (four calls side by side). The build's log
 * says how far it is, at a steady pace, through Astro's logger; a quick build says nothing more.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, fixtureRoot, loaderSiteEnv, summaryOf, tempDirs } from './loader-harness.js';

const ARTICLES = 40;
const DELAY_MS = 1_000;
const root = fixtureRoot('loader-site');
const PROGRESS = /^(\d\d):(\d\d):(\d\d) \[[^\]]+\] fetched (\d+) of (\d+) articles \((\d+)%\), about \d+ (s|min) left$/;

let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;

beforeAll(async () => {
  sim = await startSimulator({ articles: ARTICLES, rateLimitOverride: 10_000 });
  dirs = await tempDirs('acp-progress', root);
});
afterAll(async () => {
  await sim?.close();
  await dirs?.cleanup();
});

const build = () =>
  buildFixture({
    root,
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: loaderSiteEnv(sim),
  });

describe('progress of a long sync in the build log', () => {
  it('a slow cold build logs "fetched N of 40 articles (P%), about T left" every 5 s or more, and no more lines than that pace allows', async () => {
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/v1/sites/:id/articles/:slug/', delayMs: DELAY_MS });
    const started = performance.now();
    const result = await build();
    const buildMs = performance.now() - started;
    expect(result.error, result.logs).toBeUndefined();
    expect(summaryOf(result.logs)).toMatch(/^40 articles: 40 new/);
    const lines = result.logs
      .split('\n')
      .map((line) => PROGRESS.exec(line.trim()))
      .filter((m): m is RegExpExecArray => m !== null);
    // 40 details, 4 at a time, a second each: at least ten seconds of fetching, so at least one line.
    expect(lines.length, result.logs).toBeGreaterThanOrEqual(1);
    // Steady, not flooding: lines at least 5 s apart (the log's clock has whole seconds) and at most one
    // per 5 s of the whole build.
    expect(lines.length).toBeLessThanOrEqual(Math.floor(buildMs / 5_000));
    const seconds = lines.map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
    for (let i = 1; i < seconds.length; i += 1) expect(seconds[i]! - seconds[i - 1]!).toBeGreaterThanOrEqual(4);
    for (const m of lines) {
      expect(Number(m[5])).toBe(ARTICLES);
      expect(Number(m[4])).toBeLessThan(ARTICLES);
      expect(Number(m[6])).toBe(Math.floor((Number(m[4]) / ARTICLES) * 100));
    }
    // Counts only grow.
    for (let i = 1; i < lines.length; i += 1)
      expect(Number(lines[i]![4])).toBeGreaterThanOrEqual(Number(lines[i - 1]![4]));
  }, 180_000);

  it('a warm build (one list call, nothing to fetch) logs no progress line', async () => {
    await admin(sim.url, 'DELETE', 'faults');
    const result = await build();
    expect(result.error, result.logs).toBeUndefined();
    expect(summaryOf(result.logs)).toMatch(/^40 articles: 0 new, 0 changed/);
    expect(result.logs).not.toMatch(/fetched \d+ of \d+ articles/);
  }, 180_000);
});
