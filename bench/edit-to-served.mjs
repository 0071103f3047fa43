#!/usr/bin/env node
// From an edit on the simulator to the changed page being served, and the API requests that costs, on the two
// paths a blog can take (figures, not pass/fail):
// - static: `content-publisher watch --once --run "<build>"` rebuilds the site (articlesLoader, warm store), and
//   `astro preview` serves the new page;
// - on demand: article pages rendered through liveArticlesLoader and kept in Astro's route cache (memoryCache on
//   @astrojs/node); `watch --once --invalidate URL` purges exactly the edited article's tags (and the list's,
//   sitemap's and feed's), and the next request renders it again.
// The time counts from the edit to the first response with the new title; a real watcher adds up to one poll
// interval before it notices. `node bench/edit-to-served.mjs [--json]` after `npm run build`; bench/run.mjs calls
// measureEditToServed() unless BENCH_EDIT=0. BENCH_EDIT_ARTICLES (default 1000), BENCH_EDIT_REPEAT (default 3).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startSimulator } from 'astro-content-publisher/simulator';
import { buildInChild } from './site-build.mjs';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(repo, 'dist', 'cli', 'bin.js');
const TOKEN = `bench-${Math.random().toString(36).slice(2)}-${Date.now()}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `content-publisher watch --once ...`; resolves to its exit code (0 triggered, 3 baseline or nothing new). */
async function watchOnce(args, env) {
  try {
    await run(process.execPath, [CLI, 'watch', '--once', ...args], {
      cwd: repo,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return 0;
  } catch (error) {
    if (typeof error.code === 'number') {
      if (error.code !== 3) process.stderr.write(error.stderr ?? '');
      return error.code;
    }
    throw error;
  }
}

/** Polls `url` until its body contains `text`; the time of that response (ms, performance.now()). */
async function servedAt(url, text, timeoutMs = 600_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url).catch(() => undefined);
    const body = response ? await response.text() : '';
    if (body.includes(text)) return performance.now();
    if (performance.now() > deadline) throw new Error(`bench: ${url} never served "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One edit, then the path's trigger, then polling the page; time and authenticated requests. */
async function editAndServe({ simulator, siteId, slug, index, trigger, pageUrl }) {
  const title = `Edited ${index} at ${Date.now()}`;
  const before = simulator.stats().authenticated;
  const started = performance.now();
  const response = await fetch(`${simulator.url}/__simulator/articles/${siteId}/${encodeURIComponent(slug)}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  if (!response.ok) throw new Error(`bench: the edit answered ${response.status}`);
  const code = await trigger();
  if (code !== 0) throw new Error(`bench: watch exited ${code} (expected 0: triggered)`);
  const served = await servedAt(pageUrl, title);
  return { ms: Math.round(served - started), requests: simulator.stats().authenticated - before };
}

async function staticPath({ simulator, siteId, env, work, slugs, repeat, log }) {
  const outDir = join(work, 'static-out');
  const cacheDir = join(work, 'static-cache');
  log('bench: edit-to-served, static path: cold build...');
  await buildInChild(env, outDir, cacheDir);
  Object.assign(process.env, env); // bench/site/astro.config.mjs reads them when preview loads it
  const { preview } = await import('astro');
  const server = await preview({
    root: join(here, 'site'),
    outDir,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0 },
  });
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const state = join(work, 'static-watch.json');
    const build = [process.execPath, join(here, 'build-site.mjs'), outDir, cacheDir].map((p) => JSON.stringify(p));
    const watchArgs = ['--site', String(siteId), '--state', state, '--json', '--run', build.join(' ')];
    await watchOnce(watchArgs, env); // the baseline
    const runs = [];
    for (let i = 0; i < repeat; i += 1) {
      const slug = slugs[i];
      log(`bench: edit-to-served, static path: edit ${i + 1} of ${repeat}, watch, rebuild, preview...`);
      runs.push(
        await editAndServe({
          simulator,
          siteId,
          slug,
          index: i,
          trigger: () => watchOnce(watchArgs, env),
          pageUrl: `${origin}/blog/${slug}/`,
        }),
      );
    }
    return runs;
  } finally {
    await server.stop();
  }
}

async function onDemandPath({ simulator, siteId, env, work, slugs, repeat, log }) {
  const root = join(here, 'cache-site');
  const outDir = join(work, 'cache-out');
  log('bench: edit-to-served, on-demand path: build of the server...');
  // Its own process, like `astro build`; the server then runs here so that its cache is inspectable.
  await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { build } from 'astro'; await build(${JSON.stringify({ root, outDir, cacheDir: join(work, 'cache-cache'), logLevel: 'error' })});`,
    ],
    { cwd: repo, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
  );
  Object.assign(process.env, env, { PUBLISHER_INVALIDATE_TOKEN: TOKEN, ASTRO_NODE_AUTOSTART: 'disabled' });
  const { handler } = await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href);
  delete process.env.ASTRO_NODE_AUTOSTART;
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const page = (slug) => `${origin}/blog/${slug}/`;
    // Every page of the run is in the cache before the edits: the figure is a purge and one render, not a cold start.
    for (const slug of slugs.slice(0, repeat + 1)) await fetch(page(slug)).then((r) => r.text());
    await fetch(`${origin}/`).then((r) => r.text());
    const hits = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      const response = await fetch(page(slugs[repeat]));
      await response.text();
      if (response.headers.get('x-astro-cache') !== 'HIT') throw new Error('bench: a warm page was not a cache hit');
      hits.push(performance.now() - started);
    }
    const state = join(work, 'cache-watch.json');
    // bench/cache-site has trailingSlash: 'always', which applies to the endpoint's path too.
    const watchArgs = ['--site', String(siteId), '--state', state, '--invalidate', `${origin}/_publisher/invalidate/`];
    const watchEnv = { ...env, PUBLISHER_INVALIDATE_TOKEN: TOKEN };
    await watchOnce(watchArgs, watchEnv); // the baseline
    const runs = [];
    for (let i = 0; i < repeat; i += 1) {
      log(`bench: edit-to-served, on-demand path: edit ${i + 1} of ${repeat}, watch --invalidate, render...`);
      runs.push(
        await editAndServe({
          simulator,
          siteId,
          slug: slugs[i],
          index: i,
          trigger: () => watchOnce(watchArgs, watchEnv),
          pageUrl: page(slugs[i]),
        }),
      );
      // Exactly the edited article was purged: an article not edited is still served from the cache.
      const other = await fetch(page(slugs[repeat]));
      await other.text();
      if (other.headers.get('x-astro-cache') !== 'HIT') throw new Error('bench: an article not edited was purged');
    }
    return { runs, hitMs: Math.round(median(hits) * 10) / 10 };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The figures `editToServed.*` (bench/run.mjs merges them into its table). */
export async function measureEditToServed({ log = () => {} } = {}) {
  const articles = Number(process.env.BENCH_EDIT_ARTICLES ?? 1000);
  const repeat = Number(process.env.BENCH_EDIT_REPEAT ?? 3);
  mkdirSync(join(here, 'dist'), { recursive: true });
  const work = mkdtempSync(join(here, 'dist', 'edit-'));
  const simulator = await startSimulator({ articles, rateLimitOverride: 1_000_000 });
  try {
    const siteId = simulator.sites.agence[0];
    const env = {
      PUBLISHER_BASE_URL: simulator.url,
      PUBLISHER_API_KEY: simulator.tokens.agence,
      PUBLISHER_SITE_ID: String(siteId),
      BENCH_SOURCE: 'remote',
    };
    const list = await (
      await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
        headers: { authorization: `Bearer ${simulator.tokens.agence}` },
      })
    ).json();
    const slugs = list.results.map((a) => a.slug).slice(0, repeat + 1);
    const context = { simulator, siteId, env, work, slugs, repeat, log };
    const statics = await staticPath(context);
    const onDemand = await onDemandPath(context);
    const figure = (runs) => ({
      ms: median(runs.map((r) => r.ms)),
      msSpread: `${Math.min(...runs.map((r) => r.ms))}-${Math.max(...runs.map((r) => r.ms))}`,
      requests: Math.max(...runs.map((r) => r.requests)),
    });
    const s = figure(statics);
    const d = figure(onDemand.runs);
    return {
      'editToServed.articles': articles,
      'editToServed.static.ms': s.ms,
      'editToServed.static.msRange': s.msSpread,
      'editToServed.static.requests': s.requests,
      'editToServed.onDemand.ms': d.ms,
      'editToServed.onDemand.msRange': d.msSpread,
      'editToServed.onDemand.requests': d.requests,
      'editToServed.onDemand.cacheHitMs': onDemand.hitMs,
    };
  } finally {
    await simulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const json = process.argv.includes('--json');
  measureEditToServed({ log: json ? () => {} : (line) => console.error(line) })
    .then((figures) => {
      if (json) console.log(JSON.stringify(figures));
      else for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(36)} ${value}`);
      // The server's keep-alive sockets and the preview's watchers would keep the process alive.
      process.exit(0);
    })
    .catch((error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    });
}
