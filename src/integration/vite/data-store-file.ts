/**
 * Astro bundles the whole content store into the bundle that prerenders the pages, as one string literal
 * (`export default JSON.parse("…")`): its plugin reads the store file, parses it to check it, escapes it
 * into the module; Vite parses and writes that literal, and Node compiles it before the first page
 * renders. The cost grows with the store, not with the pages a build renders: at 10,000 articles (62 MB) it
 * was 4.4 s of compiling and about 3 s in Vite, most of a one-change rebuild (`npm run bench`,
 * docs/benchmarks.md). Where the pages are prerendered by Node, this plugin loads the store module first,
 * as a module that reads the file Astro wrote for this build (its cache directory's `data-store.json`):
 * the same text, parsed the same way, and nothing of it passes through Vite. The path is only in the
 * prerender bundle, which Astro removes after the build: it is never part of the site.
 */

import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The store module's resolved id (`\0astro:data-layer-content`). */
const STORE_MODULE_ID = /^\0astro:data-layer-content$/;

/**
 * What Astro marks its store module with: its incremental build leaves a module so marked out of the pages'
 * dependency hash (the entries a page shows are in its `cacheKey`), so that a changed store does not
 * render every page again.
 */
const CONTENT_DATA_META = { astroIncremental: { kind: 'content-data' } };

/** The one-file store of a build: Astro's `data-store.json` in the cache directory (Astro 5 to 7). */
export function storeFileOf(config: {
  cacheDir: URL;
  experimental?: { collectionStorage?: unknown };
}): URL | undefined {
  const storage = config.experimental?.collectionStorage;
  // Chunked storage is several files that Astro imports one by one: left as Astro bundles it.
  if (storage !== undefined && storage !== 'single-file') return undefined;
  return new URL('data-store.json', config.cacheDir);
}

/**
 * Adapters whose prerendering runs in Node, where the bundle can read the build's files (Cloudflare's
 * prerenders in workerd: its bundle keeps Astro's module).
 */
const NODE_PRERENDER_ADAPTERS = new Set(['@astrojs/node', '@astrojs/vercel', '@astrojs/netlify']);

/** Whether a build with this adapter (none: static output) prerenders its pages in Node. */
export function prerendersInNode(adapter: string | undefined): boolean {
  return adapter === undefined || NODE_PRERENDER_ADAPTERS.has(adapter);
}

export interface DataStoreFilePlugin {
  name: string;
  apply: 'build';
  applyToEnvironment(environment: { name: string }): boolean;
  load: {
    order: 'pre';
    filter: { id: RegExp };
    handler(): { code: string; map: { mappings: '' }; meta: typeof CONTENT_DATA_META } | null;
  };
}

/**
 * The module that reads the store from `path`. The file's size and modification time when it was bundled
 * are checked when it is read: a store that changed in between (another build with the same cache
 * directory) fails the build rather than prerendering pages from other data. They also make the module's
 * code, and so its chunk's name, differ from one store to the next: Node caches an ES module by its URL, and
 * two builds in one process would otherwise share the first one's store.
 */
export function readingModule(path: string, stats: { size: number; mtimeMs: number }): string {
  const at = JSON.stringify(path);
  return [
    `import { readFileSync, statSync } from 'node:fs';`,
    `let text;`,
    `try {`,
    `  const stats = statSync(${at});`,
    `  if (stats.size !== ${stats.size} || stats.mtimeMs !== ${stats.mtimeMs}) throw new Error('it changed after this build bundled its pages (another build with the same cache directory?)');`,
    `  text = readFileSync(${at}, 'utf8');`,
    `} catch (error) {`,
    `  throw new Error('[astro-content-publisher] The content store of this build (' + ${at} + ') could not be read: ' + error.message + '. Build again, one build at a time per cache directory.', { cause: error });`,
    `}`,
    `export default JSON.parse(text);`,
  ].join('\n');
}

/**
 * The plugin, for the `prerender` environment of a build. `storeFile` is read when the store module is
 * loaded (the adapter is known by then): undefined where the pages are not prerendered by Node or the store
 * is chunked, and a store file that does not exist (nothing stored yet), leave the module to Astro.
 */
export function dataStoreFilePlugin(storeFile: () => URL | undefined): DataStoreFilePlugin {
  return {
    name: 'astro-content-publisher:data-store-file',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'prerender',
    load: {
      // Before Astro's own load of the module, which would read, check and escape the whole store.
      order: 'pre',
      filter: { id: STORE_MODULE_ID },
      handler() {
        const file = storeFile();
        if (file === undefined) return null;
        const path = fileURLToPath(file);
        let stats;
        try {
          stats = statSync(path);
        } catch {
          return null;
        }
        return { code: readingModule(path, stats), map: { mappings: '' }, meta: CONTENT_DATA_META };
      },
    },
  };
}
