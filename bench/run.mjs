#!/usr/bin/env node
// `npm run bench` (a table) / `npm run bench -- --json` (one JSON object): what a build of a 1000-article
// site costs in requests and time, against the floor of the same site as local files, plus the sitemap
// rewrite and the sanitiser against their plain-library baselines. Figures, not pass/fail.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSimulator } from 'astro-content-publisher/simulator';
import { measureSanitize } from './sanitize.mjs';
import { measureScale, SCALE_TARGETS } from './scale.mjs';
import { measureFeedsHostile } from './feeds-hostile.mjs';
import { DEPLOY_TARGETS, measureDeploy } from './deploy.mjs';
import { measureGlobFloors } from './glob-floors.mjs';
import {
  buildInChild,
  interleaved,
  median,
  medianLoader,
  medianPhases,
  ratioFigures,
  writeMarkdown,
} from './site-build.mjs';
import { breakdownSvg } from './chart.mjs';
import { figuresTable, loaderTable, phasesTable, scaleTable } from './tables.mjs';
import { measureEditToServed } from './edit-to-served.mjs';
import { installCopy } from '../scripts/installed-copy.mjs';

const run = promisify(execFile);
const ARTICLES = 1000;
const CHANGED = 10;
// Each comparison is this many interleaved pairs of builds (BENCH_PAIRS; at least 5 for the figures).
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const here = fileURLToPath(new URL('.', import.meta.url));
const json = process.argv.includes('--json');
// BENCH_PARTS=builds,micro,deploy,floors (the default: all) runs only some of the parts.
const PARTS = new Set((process.env.BENCH_PARTS ?? 'builds,micro,deploy,floors').split(','));
const svgIndex = process.argv.indexOf('--svg');
const svgFile = svgIndex === -1 ? undefined : process.argv[svgIndex + 1];
const log = (line) => {
  if (!json) console.error(line);
};

/** A build in a child process; returns its figures ({ ms, phases, loader, ... }). */
async function buildSite(env, outDir, cacheDir) {
  const result = await buildInChild(env, outDir, cacheDir);
  // A build that silently lost articles (budget, failed list) would make every figure meaningless.
  if (result.articles !== ARTICLES)
    throw new Error(`bench: the build wrote ${result.articles} article pages, expected ${ARTICLES}.`);
  return result;
}

/** Flat figures "breakdown.<kind>.<phase>" and "loader.<kind>.<figure>": medians over the kind's builds. */
function breakdownFigures(kinds) {
  const out = {};
  for (const [kind, results] of Object.entries(kinds)) {
    for (const [phase, ms] of Object.entries(medianPhases(results))) out[`breakdown.${kind}.${phase}`] = ms;
    for (const [name, value] of Object.entries(medianLoader(results))) out[`loader.${kind}.${name}`] = value;
  }
  return out;
}

async function childFigures(mode, file) {
  const { stdout } = await run(process.execPath, [join(here, 'sitemap-child.mjs'), mode, file]);
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/**
 * The sitemap child's figures over five processes, one after another, each reading the document from `file`:
 * the median of each, and the range of the peak (a process's peak memory moves with the garbage collector's timing).
 */
async function childMedians(mode, file) {
  const results = [];
  for (let i = 0; i < 5; i += 1) results.push(await childFigures(mode, file));
  const of = (key) => median(results.map((r) => r[key]));
  const peaks = results.map((r) => r.peakMB);
  return {
    ms: of('ms'),
    cpuMs: of('cpuMs'),
    peakMB: of('peakMB'),
    peakRange: `${Math.min(...peaks)}-${Math.max(...peaks)}`,
    startMB: of('startMB'),
  };
}

async function adminJson(simulator, method, path, body) {
  const response = await fetch(simulator.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`bench: ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** Every article's detail, read through the API (used for the local-files site and the sanitiser). */
async function fetchDetails(simulator, siteId) {
  const auth = { authorization: `Bearer ${simulator.tokens.agence}` };
  const list = await (await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, { headers: auth })).json();
  const details = [];
  for (let i = 0; i < list.results.length; i += 16) {
    const batch = list.results.slice(i, i + 16).map(async (item) => {
      const response = await fetch(
        `${simulator.url}/api/v1/sites/${siteId}/articles/${encodeURIComponent(item.slug)}/`,
        { headers: auth },
      );
      return response.json();
    });
    details.push(...(await Promise.all(batch)));
  }
  return details;
}

async function main() {
  // The blogs build with the package as users install it, from the dist/ that `npm run bench` just built.
  installCopy(join(here, 'node_modules'));
  // Under bench/dist/ (git-ignored): see buildSite() for why the output cannot live in the system temp dir.
  mkdirSync(join(here, 'dist'), { recursive: true });
  const work = mkdtempSync(join(here, 'dist', 'run-'));
  // The limit is lifted so that the figures measure the loader, not the plan's hourly window.
  const simulator = await startSimulator({ articles: ARTICLES, rateLimitOverride: 1_000_000 });
  try {
    const siteId = simulator.sites.agence[0];
    const env = {
      PUBLISHER_BASE_URL: simulator.url,
      PUBLISHER_API_KEY: simulator.tokens.agence,
      PUBLISHER_SITE_ID: String(siteId),
      BENCH_SOURCE: 'remote',
    };
    const remoteCache = join(work, 'remote-cache');
    const requestsOf = async (step) => {
      const before = simulator.stats().authenticated;
      const result = await step();
      return { ...result, requests: simulator.stats().authenticated - before };
    };

    const figures = { pairs: PAIRS };
    const kinds = {};
    const details = await fetchDetails(simulator, siteId);
    if (PARTS.has('builds')) {
      // The detail reads above moved every view count: the cold build comes after them, so that the warm
      // builds start from the service's current counts.
      log(`bench: cold build of ${ARTICLES} articles...`);
      const cold = await requestsOf(() => buildSite(env, join(work, 'out-cold'), remoteCache));

      log(`bench: the same articles as local Markdown files (glob loader), cold build...`);
      const globDir = join(work, 'articles');
      writeMarkdown(details, globDir);
      const globEnv = { ...env, BENCH_SOURCE: 'glob', BENCH_GLOB_DIR: globDir };
      const globCache = join(work, 'glob-cache');
      await buildSite(globEnv, join(work, 'out-glob-cold'), globCache);

      log(`bench: ${PAIRS} pairs of warm builds (loader | glob), interleaved...`);
      let warmRequests = 0;
      const warmVsGlob = await interleaved(
        PAIRS,
        async (i) => {
          const result = await requestsOf(() => buildSite(env, join(work, `out-warm${i}`), remoteCache));
          warmRequests = Math.max(warmRequests, result.requests);
          return result;
        },
        (i) => buildSite(globEnv, join(work, `out-glob${i}`), globCache),
      );

      log(`bench: ${CHANGED} articles updated, then a build...`);
      const list = await (
        await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
          headers: { authorization: `Bearer ${simulator.tokens.agence}` },
        })
      ).json();
      const changedSlugs = list.results
        .filter((_, i) => i % Math.floor(ARTICLES / CHANGED) === 5)
        .slice(0, CHANGED)
        .map((a) => a.slug);
      for (const slug of changedSlugs) {
        await adminJson(simulator, 'PATCH', `/__simulator/articles/${siteId}/${encodeURIComponent(slug)}`, {
          title: `Updated: ${slug}`,
        });
      }
      const changed = await requestsOf(() => buildSite(env, join(work, 'out-changed'), remoteCache));
      Object.assign(figures, {
        'cold.requests': cold.requests,
        'cold.ms': cold.ms,
        'warm.requests': warmRequests,
        'warm.ms': warmVsGlob.aMs,
        'changed10.requests': changed.requests,
        'glob.ms': warmVsGlob.bMs,
        ...ratioFigures('warmVsGlob', warmVsGlob),
      });
      Object.assign(kinds, {
        cold: [cold],
        warm: warmVsGlob.runs.map((r) => r.a),
        glob: warmVsGlob.runs.map((r) => r.b),
      });
    }

    if (PARTS.has('micro')) {
      log('bench: sitemap rewrite of 50,000 URLs and its baseline...');
      const sitemapFile = join(mkdtempSync(join(tmpdir(), 'acp-bench-sitemap-')), 'sitemap.xml');
      await run(process.execPath, [join(here, 'sitemap-child.mjs'), 'write', sitemapFile]);
      const sitemap = await childMedians('rewrite', sitemapFile);
      const baseline = await childMedians('baseline', sitemapFile);
      rmSync(dirname(sitemapFile), { recursive: true, force: true });
      log('bench: sanitiser throughput and its baseline...');
      const sanitize = await measureSanitize(details.map((article) => ({ html: article.content, url: article.url })));
      log('bench: feeds and sitemaps, adversarial shapes at the size caps...');
      Object.assign(figures, {
        'sitemap50k.ms': sitemap.ms,
        'sitemap50k.cpuMs': sitemap.cpuMs,
        'sitemap50k.peakMB': sitemap.peakMB,
        'sitemap50k.peakMBRange': sitemap.peakRange,
        'sitemap50k.startMB': sitemap.startMB,
        'sitemapBaseline.ms': baseline.ms,
        'sitemapBaseline.cpuMs': baseline.cpuMs,
        'sanitize.mbPerS': sanitize.mbPerS,
        'sanitizeBaseline.mbPerS': sanitize.baselineMbPerS,
        'sanitizeSamePolicy.mbPerS': sanitize.samePolicyMbPerS,
        ...(await measureFeedsHostile()),
      });
    }

    if (PARTS.has('deploy')) {
      const deploy = await measureDeploy({ simulator, siteId, work, log, articles: ARTICLES, pairs: PAIRS });
      Object.assign(figures, deploy.figures);
      Object.assign(kinds, deploy.builds);
    }
    if (PARTS.has('floors')) {
      const floors = await measureGlobFloors({ simulator, siteId, work, log, details, pairs: PAIRS });
      Object.assign(figures, floors.figures);
      Object.assign(kinds, floors.builds);
    }
    Object.assign(figures, breakdownFigures(kinds));
    // The 10,000-article site (bench/scale.mjs); BENCH_SCALE=0 leaves it out.
    if (process.env.BENCH_SCALE !== '0') Object.assign(figures, await measureScale({ log }));
    // Edit on the simulator to the page served, static vs cached on demand (bench/edit-to-served.mjs); BENCH_EDIT=0 leaves it out.
    if (process.env.BENCH_EDIT !== '0') Object.assign(figures, await measureEditToServed({ log }));
    if (svgFile) writeFileSync(svgFile, breakdownSvg(figures));
    if (json) console.log(JSON.stringify(figures));
    else printTable(figures);
  } finally {
    await simulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const TARGETS = {
  'warm.requests': ['<= 1', (f) => f['warm.requests'] <= 1],
  'changed10.requests': ['<= 11', (f) => f['changed10.requests'] <= 11],
  warmVsGlob: ['<= 1.0', (f) => f.warmVsGlob <= 1.0],
  'sitemap50k.ms': ['<= 400', (f) => f['sitemap50k.ms'] <= 400],
  'sitemap50k.peakMB': ['<= 200', (f) => f['sitemap50k.peakMB'] <= 200],
  'sanitize.mbPerS': ['>= 0.9 x baseline', (f) => f['sanitize.mbPerS'] >= 0.9 * f['sanitizeBaseline.mbPerS']],
  ...SCALE_TARGETS,
  ...DEPLOY_TARGETS,
};

function printTable(all) {
  // The 1,000-article figures; the large site's (bench/scale.mjs); where each kind of build spends its time
  // (medians, ms); and what the loader asked of Astro (bench/tables.mjs).
  const tables = [figuresTable(all, TARGETS), scaleTable(all, TARGETS), phasesTable(all), loaderTable(all)];
  console.log(tables.filter(Boolean).join('\n\n'));
  const cpu = cpus();
  console.log(
    `\n${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, Node ${process.version}, ${ARTICLES} articles, ${all.pairs ?? PAIRS} interleaved pairs per comparison (median ratio, [min, max])`,
  );
}

// `node bench/run.mjs --table <figures.json> [--svg <file>]`: the table (and chart) of a saved `--json` run.
const tableIndex = process.argv.indexOf('--table');
if (tableIndex !== -1) {
  const saved = JSON.parse(readFileSync(process.argv[tableIndex + 1], 'utf8'));
  if (svgFile) writeFileSync(svgFile, breakdownSvg(saved));
  printTable(saved);
} else {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
