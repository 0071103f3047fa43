/**
 * Astro bundles the whole content store into the bundle that prerenders the pages, as one string literal
 * (`export default JSON.parse("…")`): Vite parses and writes that literal, and Node compiles it before the
 * first page renders. The cost grows with the store, not with the pages a build renders: at 10,000
 * articles (62 MB) it was 4.4 s of compiling and about 2 s in Vite, most of a one-change rebuild
 * (`npm run bench`, docs/benchmarks.md). Where the pages are prerendered by Node, this plugin writes the
 * store's text as a file beside the prerender bundle instead, and the module reads it: the same text,
 * parsed the same way, written by the same build. Astro removes the prerender bundle's folder after the
 * build, so the file is never part of the site.
 */

import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/** The code Astro generates for its content store module when the store is one file (Astro 5 to 7). */
const STORE_CODE_PREFIX = 'export default JSON.parse(';

/** The store module's resolved id (`\0astro:data-layer-content`). */
const STORE_MODULE_ID = /^\0astro:data-layer-content$/;

/**
 * Where the store's text is written, relative to the prerender bundle's folder: named by its content, so
 * that the chunk that reads it changes with it (Node caches an ES module by its URL, and Vite names a chunk
 * by its content: two builds in one process would otherwise share the first one's store).
 */
const storeFile = (text: string) =>
  `astro-content-publisher/data-store-${createHash('sha1').update(text).digest('hex').slice(0, 16)}.json`;

/**
 * Stands for the file's path relative to the chunk that reads it until the chunk is written (Vite makes
 * `import.meta.ROLLUP_FILE_URL_*` an absolute URL path in a server bundle, not a file URL).
 */
const PLACEHOLDER_PREFIX = '__ASTRO_CONTENT_PUBLISHER_FILE__';
const PLACEHOLDER = new RegExp(`${PLACEHOLDER_PREFIX}([\\w./-]+?)__END__`, 'g');

/**
 * Adapters whose prerendering runs in Node, where the bundle can read a file beside it (Cloudflare's
 * prerenders in workerd: its bundle keeps Astro's module).
 */
const NODE_PRERENDER_ADAPTERS = new Set(['@astrojs/node', '@astrojs/vercel', '@astrojs/netlify']);

/** Whether a build with this adapter (none: static output) prerenders its pages in Node. */
export function prerendersInNode(adapter: string | undefined): boolean {
  return adapter === undefined || NODE_PRERENDER_ADAPTERS.has(adapter);
}

interface PluginContext {
  emitFile(file: { type: 'asset'; fileName: string; source: string }): string;
}

/** The path from a chunk to a file of the bundle, as `new URL()` takes it relative to the chunk's URL. */
export function pathFrom(chunkFileName: string, fileName: string): string {
  const relative = posix.relative(posix.dirname(chunkFileName), fileName);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

export interface DataStoreFilePlugin {
  name: string;
  apply: 'build';
  applyToEnvironment(environment: { name: string }): boolean;
  transform: {
    filter: { id: RegExp };
    handler(this: PluginContext, code: string): { code: string; map: { mappings: '' } } | null;
  };
  renderChunk(code: string, chunk: { fileName: string }): { code: string; map: null } | null;
}

/**
 * The module that reads the store's text from the file the build wrote. A failure names the file and what
 * to do, rather than Node's bare ENOENT.
 */
function readingModule(fileName: string): string {
  return [
    `import { readFileSync } from 'node:fs';`,
    `const file = new URL(${JSON.stringify(`${PLACEHOLDER_PREFIX}${fileName}__END__`)}, import.meta.url);`,
    `let text;`,
    `try {`,
    `  text = readFileSync(file, 'utf8');`,
    `} catch (error) {`,
    `  throw new Error(\`[astro-content-publisher] The content store this build wrote beside its prerender bundle (\${file.pathname}) could not be read: \${error.message}. Something removed it while the build ran; build again.\`, { cause: error });`,
    `}`,
    `export default JSON.parse(text);`,
  ].join('\n');
}

/**
 * The plugin, for the `prerender` environment of a build. `enabled` is read when the store module is
 * bundled (the adapter is known by then). Code of another shape (an empty store, Astro's chunked
 * `collectionStorage`, a later Astro) is left as Astro wrote it.
 */
export function dataStoreFilePlugin(enabled: () => boolean): DataStoreFilePlugin {
  return {
    name: 'astro-content-publisher:data-store-file',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'prerender',
    transform: {
      filter: { id: STORE_MODULE_ID },
      handler(code) {
        if (!enabled() || !code.startsWith(STORE_CODE_PREFIX) || !code.endsWith(')')) return null;
        let text: unknown;
        try {
          text = JSON.parse(code.slice(STORE_CODE_PREFIX.length, -1));
        } catch {
          return null;
        }
        if (typeof text !== 'string') return null;
        const fileName = storeFile(text);
        this.emitFile({ type: 'asset', fileName, source: text });
        return { code: readingModule(fileName), map: { mappings: '' } };
      },
    },
    renderChunk(code, chunk) {
      if (!code.includes(PLACEHOLDER_PREFIX)) return null;
      return {
        code: code.replace(PLACEHOLDER, (_, fileName: string) => pathFrom(chunk.fileName, fileName)),
        map: null,
      };
    },
  };
}
