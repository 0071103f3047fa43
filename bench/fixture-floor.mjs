#!/usr/bin/env node
// `npm run build && node bench/fixture-floor.mjs [--runs 8]`: what one build of the test suite's smallest
// fixture costs, against Astro alone. Side by side in one process, in alternated pairs (interleaved(), as the
// other benchmarks): test/fixtures/loader-site (12 articles through articlesLoader from the simulator, 13
// pages) and a site with the same pages from 12 local Markdown files through Astro's glob() loader, written
// into a temporary folder here. CPU time of the process per build (Rolldown's threads included), after a first
// build of each, which loads Astro and warms the process up.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { startSimulator } from '../dist/simulator/index.js';
import { interleaved } from './site-build.mjs';

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

/** One build of `root` in this process, in a fresh outDir and cacheDir: its CPU time (`ms`, as interleaved() reads). */
async function cpuOfBuild(root) {
  const dir = mkdtempSync(join(tmpdir(), 'fixture-floor-'));
  try {
    const before = process.cpuUsage();
    await build({ root, outDir: join(dir, 'out'), cacheDir: join(dir, 'cache'), logLevel: 'error' });
    const used = process.cpuUsage(before);
    return { ms: (used.user + used.system) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const globSite = writeGlobSite();
const loaderSite = join(here, '../test/fixtures/loader-site');
try {
  await cpuOfBuild(globSite);
  await cpuOfBuild(loaderSite);
  const runs = Number(values.runs);
  const pairs = await interleaved(
    runs,
    () => cpuOfBuild(loaderSite),
    () => cpuOfBuild(globSite),
  );
  const seconds = (ms) => (ms / 1000).toFixed(2);
  console.log(
    `loader-site (articlesLoader): ${seconds(pairs.aMs)} CPU-s, glob() over Markdown (Astro alone): ${seconds(pairs.bMs)} ` +
      `(medians of ${runs} alternated pairs); loader-site / glob() per pair: ${pairs.ratio} (${pairs.min} to ${pairs.max})`,
  );
} finally {
  await simulator.close();
  rmSync(globSite, { recursive: true, force: true });
}
