/**
 * Issue 19: the content store outside the prerender bundle (src/integration/vite/data-store-file.ts), in real
 * builds of the loader fixture. Astro bundles the whole store as one string literal that Vite parses and
 * Node compiles before the first page renders (4.4 s of a 10,000-article rebuild); with the integration, the
 * bundle reads the file Astro wrote in the cache directory. Proven from the bundle itself (a Vite plugin of
 * the test reads what the prerender environment wrote), from the pages, from the output afterwards, and
 * from an incremental rebuild (the store module keeps Astro's mark: a changed store renders only the pages
 * whose entries changed).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import publisher from 'astro-content-publisher';
import type { AstroInlineConfig } from 'astro';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, isolatedSite } from './loader-harness.js';

vi.setConfig({ testTimeout: 180_000 });
type Site = Awaited<ReturnType<typeof isolatedSite>>;
let sim: Simulator;
const sites: Site[] = [];
/** One published article of site 12, as the API lists it (a title HTML shows as it is). */
let article: { slug: string; title: string };

beforeAll(async () => {
  sim = await startSimulator({ articles: 6 });
  const response = await fetch(`${sim.url}/api/v1/sites/12/articles/`, {
    headers: { authorization: `Bearer ${sim.tokens.pro}` },
  });
  const { results } = (await response.json()) as { results: Array<{ slug: string; title: string }> };
  article = results.find((a) => /^[\w ]+$/.test(a.title))!;
});
afterAll(async () => {
  await sim?.close();
  for (const site of sites) await site.cleanup();
});

interface Written {
  chunks: Array<{ fileName: string; code: string }>;
  assets: Array<{ fileName: string; source: string; onDisk: boolean }>;
}

/** A Vite plugin that records what the prerender environment wrote, while its folder still exists. */
function prerenderBundle(into: Written) {
  return {
    name: 'test:prerender-bundle',
    applyToEnvironment: (environment: { name: string }) => environment.name === 'prerender',
    writeBundle(
      options: { dir?: string },
      bundle: Record<string, { type: string; fileName: string; code?: string; source?: string | Uint8Array }>,
    ) {
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') into.chunks.push({ fileName: output.fileName, code: output.code ?? '' });
        else
          into.assets.push({
            fileName: output.fileName,
            source: String(output.source ?? ''),
            onDisk: existsSync(join(options.dir ?? '', output.fileName)),
          });
      }
    },
  };
}

/** One build of a fresh copy of the loader fixture; returns what its prerender bundle held and the site. */
async function buildWith(integrations: AstroInlineConfig['integrations']) {
  const site = await isolatedSite('loader-site', 'store-file');
  sites.push(site);
  const written: Written = { chunks: [], assets: [] };
  const result = await buildFixture({
    root: site.root,
    outDir: site.outDir,
    cacheDir: site.cacheDir,
    env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro, PUBLISHER_SITE_ID: '12' },
    inline: { site: 'https://blog.example.com', integrations, vite: { plugins: [prerenderBundle(written)] } },
  });
  expect(result.error, result.logs).toBeUndefined();
  return { site, written };
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

describe('the content store read in place by the prerender bundle', () => {
  it('with the integration: the bundle carries no article, the file holds the store, the pages are whole', async () => {
    const { site, written } = await buildWith([publisher({ rss: false })]);

    const storeChunks = written.chunks.filter((chunk) => chunk.fileName.includes('data-layer-content'));
    expect(storeChunks).toHaveLength(1);
    const storeFile = join(site.cacheDir, 'data-store.json');
    expect(storeChunks[0]!.code.includes(`readFileSync(${JSON.stringify(storeFile)}, "utf8")`)).toBe(true);
    expect(written.chunks.some((chunk) => chunk.code.includes(article.title))).toBe(false);
    expect(written.assets.some((asset) => asset.fileName.includes('data-store'))).toBe(false);
    expect((await readFile(storeFile, 'utf8')).includes(article.title)).toBe(true);

    const page = await readFile(join(site.outDir, 'blog', article.slug, 'index.html'), 'utf8');
    expect(page.includes(`<h1>${article.title}</h1>`)).toBe(true);
    // The prerender folder (and the file with it) is gone: the store is never part of the site.
    expect((await filesUnder(site.outDir)).filter((name) => name.includes('data-store'))).toEqual([]);
  });

  it('without it: Astro bundles the store as before (the test reads the real shape of its module)', async () => {
    const { written } = await buildWith([]);
    const storeChunk = written.chunks.find((chunk) => chunk.fileName.includes('data-layer-content'));
    expect(storeChunk?.code.includes(article.title)).toBe(true);
    expect(written.assets.some((asset) => asset.fileName.includes('data-store'))).toBe(false);
  });

  it("an incremental rebuild after one edit renders that article's page and keeps every other article page", async () => {
    const site = await isolatedSite('incremental-site', 'store-incremental');
    sites.push(site);
    const env = { PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro, PUBLISHER_SITE_ID: '12' };
    const build = async () => {
      const result = await buildFixture({
        root: site.root,
        outDir: site.outDir,
        cacheDir: site.cacheDir,
        env,
        inline: { site: 'https://blog.example.com', integrations: [publisher({ rss: false })] },
      });
      expect(result.error, result.logs).toBeUndefined();
      const pages = new Map<string, number>();
      for (const file of await filesUnder(join(site.outDir, 'blog')))
        if (file.endsWith('.html')) pages.set(file, (await stat(join(site.outDir, 'blog', file))).mtimeMs);
      return pages;
    };
    const before = await build();
    expect(before.size).toBeGreaterThan(2);
    const edited = [...before.keys()].map((file) => file.split('/')[0]!).find((slug) => slug !== article.slug)!;
    const response = await fetch(`${sim.url}/__simulator/articles/12/${encodeURIComponent(edited)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Edited for the incremental rebuild' }),
    });
    expect(response.ok).toBe(true);
    const after = await build();
    const rendered = [...after].filter(([file, mtimeMs]) => before.get(file) !== mtimeMs).map(([file]) => file);
    expect(rendered).toEqual([`${edited}/index.html`]);
    const page = await readFile(join(site.outDir, 'blog', edited, 'index.html'), 'utf8');
    expect(page.includes('Edited for the incremental rebuild')).toBe(true);
  });
});
