#!/usr/bin/env node
// `npm run build && node bench/fixture-floor.mjs [--runs 8]`: what one build of the test suite's smallest
// fixture costs, against Astro alone. Side by side in one process, alternated: test/fixtures/loader-site
// (12 articles through articlesLoader from the simulator, 13 pages) and a site with the same pages from 12
// local Markdown files through Astro's glob() loader, written into a temporary folder here. CPU-seconds of
// the process per build (Rolldown's threads included); the first build of each warms the process up.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { startSimulator } from '../dist/simulator/index.js';
import { median } from './site-build.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '8' } } });
const here = import.meta.dirname;

function writeGlobSite() {
  const root = mkdtempSync(join(here, '.floor-site-'));
  const file = (path, text) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  file('astro.config.mjs', "import { defineConfig } from 'astro/config';\nexport default defineConfig({});\n");
  file(
    'src/content.config.ts',
    "import { defineCollection } from 'astro:content';\nimport { glob } from 'astro/loaders';\n" +
      "export const collections = { posts: defineCollection({ loader: glob({ pattern: '*.md', base: './src/posts' }) }) };\n",
  );
  file(
    'src/pages/index.astro',
    "---\nimport { getCollection } from 'astro:content';\nconst posts = await getCollection('posts');\n---\n" +
      '<ul>{posts.map((p) => <li><a href={`/blog/${p.id}/`}>{p.data.title}</a></li>)}</ul>\n',
  );
  file(
    'src/pages/blog/[slug].astro',
    "---\nimport { getCollection, render } from 'astro:content';\n" +
      'export async function getStaticPaths() {\n' +
      "  return (await getCollection('posts')).map((post) => ({ params: { slug: post.id }, props: { post } }));\n}\n" +
      'const { post } = Astro.props;\nconst { Content } = await render(post);\n---\n<h1>{post.data.title}</h1><Content />\n',
  );
  for (let i = 1; i <= 12; i++) {
    const body = Array.from({ length: 6 }, (_, j) => `Paragraph ${j + 1} of post ${i}, with a few words to render.`);
    file(`src/posts/post-${i}.md`, `---\ntitle: Post ${i}\n---\n\n${body.join('\n\n')}\n`);
  }
  return root;
}

const simulator = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
Object.assign(process.env, {
  PUBLISHER_BASE_URL: simulator.url,
  PUBLISHER_API_KEY: simulator.tokens.pro,
  PUBLISHER_SITE_ID: '12',
  LOADER_TEST_MAX_REQUESTS: '100',
  LOADER_TEST_RESERVE: '0',
  ASTRO_TELEMETRY_DISABLED: '1',
});
const globSite = writeGlobSite();
const sites = {
  'glob() over Markdown (Astro alone)': globSite,
  'loader-site (articlesLoader)': join(here, '../test/fixtures/loader-site'),
};
const cpu = Object.fromEntries(Object.keys(sites).map((name) => [name, []]));
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const names = Object.keys(sites);
    for (const name of run % 2 ? names.reverse() : names) {
      const dir = mkdtempSync(join(tmpdir(), 'fixture-floor-'));
      const before = process.cpuUsage();
      await build({ root: sites[name], outDir: join(dir, 'out'), cacheDir: join(dir, 'cache'), logLevel: 'error' });
      const used = process.cpuUsage(before);
      cpu[name].push((used.user + used.system) / 1e6);
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await simulator.close();
  rmSync(globSite, { recursive: true, force: true });
}
for (const [name, runs] of Object.entries(cpu)) {
  console.log(
    `${name}: ${runs.map((s) => s.toFixed(2)).join(' ')} CPU-s; median after the first ${median(runs.slice(1)).toFixed(2)}`,
  );
}
