/**
 * The prerender bundle reads the content store from a file (src/integration/data-store-file.ts): only code of
 * the shape Astro writes for a one-file store is replaced, with the same text written beside the bundle;
 * anything else, and builds that do not prerender in Node, keep Astro's module.
 */
import { describe, expect, it } from 'vitest';
import { dataStoreFilePlugin, pathFrom, prerendersInNode } from '../../src/integration/data-store-file.js';

const STORE = JSON.stringify([['Map', 1, 2], 'articles', ['Map'], 'say "hi" \u2028 é']);

/** The plugin's transform of `code`, with the files it emitted. */
function transform(code: string, enabled = true) {
  const emitted: Array<{ type: string; fileName: string; source: string }> = [];
  const plugin = dataStoreFilePlugin(() => enabled);
  const result = plugin.transform.handler.call(
    {
      emitFile: (file) => {
        emitted.push(file);
        return 'ref';
      },
    },
    code,
  );
  return { result, emitted };
}

describe('the content store read from a file by the prerender bundle', () => {
  it("Astro's one-file store module: the store's exact text is emitted, the module reads it", () => {
    const { result, emitted } = transform(`export default JSON.parse(${JSON.stringify(STORE)})`);
    expect(emitted).toEqual([{ type: 'asset', fileName: expect.any(String), source: STORE }]);
    // Named by its content: the chunk that reads it changes with it (Node caches a module by its URL).
    expect(emitted[0]!.fileName).toMatch(/^astro-content-publisher\/data-store-[0-9a-f]{16}\.json$/);
    expect(transform(`export default JSON.parse(${JSON.stringify(`${STORE} `)})`).emitted[0]!.fileName).not.toBe(
      emitted[0]!.fileName,
    );
    expect(result?.code).toContain("import { readFileSync } from 'node:fs';");
    expect(result?.code).toContain('export default JSON.parse(text);');
    expect(result?.code).not.toContain('articles');
  });

  it('other shapes are left as Astro wrote them: an empty store, chunked storage, a different module', () => {
    for (const code of [
      'export default new Map()',
      'export default{"articles":[(await import("astro:data-layer-content-chunk:abc.txt"))]}',
      'export default JSON.parse(notAString)',
      'export default JSON.parse(123)',
      `export default JSON.parse(${JSON.stringify(STORE)}); export const more = 1;`,
    ]) {
      const { result, emitted } = transform(code);
      expect(result, code).toBeNull();
      expect(emitted, code).toEqual([]);
    }
  });

  it('disabled (a build whose pages are not prerendered by Node): nothing replaced', () => {
    const { result, emitted } = transform(`export default JSON.parse(${JSON.stringify(STORE)})`, false);
    expect(result).toBeNull();
    expect(emitted).toEqual([]);
  });

  it('the path from the chunk that reads the file, relative as new URL() takes it', () => {
    expect(pathFrom('chunks/_astro_data-layer-content_abc.mjs', 'acp/store.json')).toBe('../acp/store.json');
    expect(pathFrom('prerender-entry.mjs', 'acp/store.json')).toBe('./acp/store.json');
    const plugin = dataStoreFilePlugin(() => true);
    const { result, emitted } = transform(`export default JSON.parse(${JSON.stringify(STORE)})`);
    const rendered = plugin.renderChunk(result!.code, { fileName: 'chunks/store.mjs' });
    expect(rendered?.code).toContain(`new URL("../${emitted[0]!.fileName}", import.meta.url)`);
    expect(plugin.renderChunk('export const x = 1;', { fileName: 'chunks/other.mjs' })).toBeNull();
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
