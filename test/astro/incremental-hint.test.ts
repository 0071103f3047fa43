/**
 * Issue 38, item 5: an incremental build that restores no page says why. On a real theme a component pulled
 * Markdown in with `import.meta.glob`, and the Markdown was rendered with random ids: every build changed the
 * code of every page, and Astro rendered them all again without a word. Here the fixture's article page imports
 * such a component (a step of its Markdown pipeline adds an element with a random id); the second build, with nothing changed,
 * restores none of the article pages, and the integration's line names the route and the Markdown module.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, isolatedSite } from './loader-harness.js';

vi.setConfig({ testTimeout: 240_000 });
let sim: Simulator;
let site: Awaited<ReturnType<typeof isolatedSite>>;

beforeAll(async () => {
  sim = await startSimulator({ articles: 3, rateLimitOverride: 100_000 });
  site = await isolatedSite('incremental-site', 'incremental-hint');
  const at = (path: string) => join(site.root, path);
  await mkdir(at('src/notes'), { recursive: true });
  await mkdir(at('src/components'), { recursive: true });
  await writeFile(at('src/notes/about.md'), '# About this blog\n\nWritten by the service.\n');
  await writeFile(
    at('src/components/Notes.astro'),
    "---\nconst notes = Object.values(import.meta.glob('../notes/*.md', { eager: true }));\n---\n{notes.map((note) => <aside><note.Content /></aside>)}\n",
  );
  // What the theme's Markdown pipeline did: the heading's id generated, another on every build.
  await writeFile(
    at('random-ids.mjs'),
    "export default { name: 'random-ids', enforce: 'post', transform: (code, id) => (id.endsWith('.md') ? code.replaceAll('about-this-blog', `about-${Math.random().toString(36).slice(2)}`) : undefined) };\n",
  );
  await writeFile(
    at('astro.config.mjs'),
    "import { defineConfig } from 'astro/config';\nimport randomIds from './random-ids.mjs';\nimport publisher from 'astro-content-publisher';\n\nexport default defineConfig({ site: 'https://blog.example.com', integrations: [publisher({ siteId: 12 })], vite: { plugins: [randomIds] }, experimental: { incrementalBuild: true } });\n",
  );
  const page = at('src/pages/blog/[slug].astro');
  const text = await readFile(page, 'utf8');
  await writeFile(
    page,
    text
      .replace(
        "import { getCollection, render } from 'astro:content';",
        "import { getCollection, render } from 'astro:content';\nimport Notes from '../../components/Notes.astro';",
      )
      .replace('<Content /></article>', '<Content /></article><Notes />'),
  );
});

afterAll(async () => {
  await sim?.close();
  await site?.cleanup();
});

const build = () =>
  buildFixture({
    ...site,
    env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro },
  });

it('a page that imports Markdown rendered with random ids: the second build names what defeated the cache', async () => {
  const first = await build();
  expect(first.error, first.logs).toBeUndefined();
  expect(first.logs).not.toContain('The incremental build restored none');
  const second = await build();
  expect(second.error, second.logs).toBeUndefined();
  // The language pages, which do not import the Markdown, are restored; the article pages are not.
  expect(second.logs).toMatch(/\/lang\/en\/index\.html \(restored\)/);
  expect(second.logs).not.toMatch(/\/blog\/[^ ]+ \(restored\)/);
  expect(second.logs).toContain(
    'The incremental build restored none of the 3 page(s) of src/pages/blog/[slug].astro: the code they import changed',
  );
  expect(second.logs).toMatch(/The modules whose code differs from the last build's: [^;]*src\/notes\/about\.md/);
});
