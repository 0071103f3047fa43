/**
 * The prerender bundle reads the content store from the file Astro wrote (src/integration/vite/data-store-file.ts):
 * the plugin loads Astro's store module first, as a module that reads the one-file store in place; chunked
 * storage, a store not written yet, and builds that do not prerender in Node keep Astro's module.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dataStoreFilePlugin,
  prerendersInNode,
  readingModule,
  storeFileOf,
} from '../../src/integration/vite/data-store-file.js';

const STORE = JSON.stringify([['Map', 1, 2], 'articles', ['Map'], 'say "hi" \u2028 é']);
const dir = mkdtempSync(join(tmpdir(), 'acp-store-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the module the plugin generated, from a file of its own (as the prerender bundle runs it). */
async function run(code: string): Promise<unknown> {
  const file = join(dir, `module-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { default: unknown }).default;
}

describe('the content store read in place by the prerender bundle', () => {
  it("the module reads Astro's file: the same data, nothing of it in the code, marked as Astro marks its own", async () => {
    const cacheDir = join(dir, 'cache-1/');
    const storeFile = storeFileOf({ cacheDir: pathToFileURL(cacheDir) })!;
    expect(storeFile.href).toBe(pathToFileURL(join(cacheDir, 'data-store.json')).href);
    rmSync(cacheDir, { recursive: true, force: true });
    // No store written yet: Astro's module (an empty store) stands.
    expect(dataStoreFilePlugin(() => storeFile).load.handler()).toBeNull();

    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(storeFile, STORE);
    const loaded = dataStoreFilePlugin(() => storeFile).load.handler();
    expect(loaded?.code.includes('articles')).toBe(false);
    // Astro's incremental build leaves a module so marked out of the pages' dependency hash.
    expect(loaded?.meta).toEqual({ astroIncremental: { kind: 'content-data' } });
    expect(await run(loaded!.code)).toEqual(JSON.parse(STORE));
  });

  it('a store that changed after bundling fails with a message naming the file; another store, another module', async () => {
    const path = join(dir, 'changed.json');
    writeFileSync(path, STORE);
    const code = readingModule(path, statSync(path));
    writeFileSync(path, `${STORE} `);
    await expect(run(code)).rejects.toThrow(
      `[astro-content-publisher] The content store of this build (${path}) could not be read: it changed after this build bundled its pages`,
    );
    // Same size, another time: still refused, and the code differs (Node caches a module by its URL).
    writeFileSync(path, STORE);
    utimesSync(path, new Date(2020, 0, 1), new Date(2020, 0, 1));
    const other = readingModule(path, statSync(path));
    expect(other).not.toBe(code);
    await expect(run(code)).rejects.toThrow('it changed after this build bundled its pages');
    expect(await run(other)).toEqual(JSON.parse(STORE));
  });

  it("chunked storage and builds whose pages Node does not prerender keep Astro's module", () => {
    const cacheDir = pathToFileURL(join(dir, 'cache-2/'));
    expect(storeFileOf({ cacheDir, experimental: { collectionStorage: 'chunked' } })).toBeUndefined();
    expect(storeFileOf({ cacheDir, experimental: { collectionStorage: { chunkSize: 1000 } } })).toBeUndefined();
    expect(storeFileOf({ cacheDir, experimental: { collectionStorage: 'single-file' } })).toBeDefined();
    expect(dataStoreFilePlugin(() => undefined).load.handler()).toBeNull();
  });

  it('Node prerenders with no adapter and with the Node, Vercel and Netlify adapters; not with Cloudflare (workerd)', () => {
    expect(prerendersInNode(undefined)).toBe(true);
    expect(prerendersInNode('@astrojs/node')).toBe(true);
    expect(prerendersInNode('@astrojs/vercel')).toBe(true);
    expect(prerendersInNode('@astrojs/netlify')).toBe(true);
    expect(prerendersInNode('@astrojs/cloudflare')).toBe(false);
    expect(prerendersInNode('some-other-adapter')).toBe(false);
  });
});
