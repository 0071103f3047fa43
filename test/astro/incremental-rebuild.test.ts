/**
 * The mission's path end to end: the watcher sees a publish in the RSS feed and triggers a build; the loader
 * fetches the one new article; Astro's incremental build (cacheKey: entry.digest) renders that article's
 * page and the list pages that show it, and keeps every other page of the previous output untouched.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, runCli, startCli } from '../cli/run-cli.js';
import { fixtureRoot, tempDirs } from './loader-harness.js';

const root = fixtureRoot('incremental-site');
const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';

async function snapshot(dir: string): Promise<Map<string, { text: string; mtimeMs: number }>> {
  const out = new Map<string, { text: string; mtimeMs: number }>();
  for (const file of (await readdir(dir, { recursive: true })) as string[]) {
    if (!file.endsWith('.html')) continue;
    out.set(file, { text: await readFile(join(dir, file), 'utf8'), mtimeMs: (await stat(join(dir, file))).mtimeMs });
  }
  return out;
}

describe('incremental rebuild after a publish, end to end', () => {
  let sim: Simulator;
  let dirs: Awaited<ReturnType<typeof tempDirs>>;
  beforeAll(async () => {
    sim = await startSimulator({ articles: 8, rateLimitOverride: 100_000 });
    dirs = await tempDirs('incremental', root);
  });
  afterAll(async () => {
    await sim?.close();
    await dirs?.cleanup();
  });

  it('watch -> build: one article fetched, its page and the list pages showing it rendered, every other page kept', async () => {
    const env = {
      PUBLISHER_SITE_ID: '12',
      PUBLISHER_BASE_URL: sim.url,
      PUBLISHER_API_KEY: sim.tokens.pro,
      INCREMENTAL_OUT_DIR: dirs.outDir,
      INCREMENTAL_CACHE_DIR: dirs.cacheDir,
    };
    const build = `node ${JSON.stringify(join(root, 'build.mjs'))}`;
    const watch = [
      'watch',
      '--site',
      '12',
      '--base-url',
      sim.url,
      '--state',
      join(dirs.base, 'watch.json'),
      '--once',
      '--debounce',
      '0s',
    ];

    // The first build and the watcher's baseline.
    const first = await startCli([...watch, '--trigger-on-first-run', '--run', build], { env }).result;
    expect(first.code, first.stderr).toBe(0);
    const before = await snapshot(dirs.outDir);
    expect([...before.keys()].filter((p) => p.startsWith('blog/'))).toHaveLength(8);
    const languages = [...before.keys()].filter((p) => p.startsWith('lang/'));
    expect(languages.length).toBeGreaterThan(1);

    // Nothing new: the watcher does not build.
    expect((await runCli([...watch, '--run', build], { env })).code).toBe(3);

    const published = (await admin(sim.url, 'POST', 'articles', {
      site: 12,
      title: 'Fresh news from the service',
      language: 'en',
    })) as { slug: string };
    sim.resetStats();
    const second = await runCli([...watch, '--run', build], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('new article in the feed: Fresh news from the service');
    expect(second.stdout + second.stderr).toContain('9 articles: 1 new, 0 changed, 0 removed, 8 unchanged, 0 pending');

    // The loader spent the list call and at most one detail call (the feed's copy can stand in for it).
    const stats = sim.stats();
    expect(stats.routes[DETAIL]?.['200'] ?? 0).toBeLessThanOrEqual(1);
    expect(stats.authenticated).toBe(1 + (stats.routes[DETAIL]?.['200'] ?? 0));

    const after = await snapshot(dirs.outDir);
    const newPage = `blog/${published.slug}/index.html`;
    expect(after.get(newPage)?.text).toContain('Fresh news from the service');
    const rendered = [...after]
      .filter(([path, file]) => before.get(path)?.mtimeMs !== file.mtimeMs)
      .map(([path]) => path)
      .sort();
    expect(rendered).toEqual([newPage, 'index.html', 'lang/en/index.html'].sort());
    for (const [path, file] of before) {
      if (rendered.includes(path)) continue;
      expect(after.get(path)?.text, path).toBe(file.text);
    }
    expect(after.get('lang/en/index.html')?.text).toContain('Fresh news from the service');
  });
});
