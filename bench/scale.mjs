// The 10,000-article site of `npm run bench` (issue 10): a list capped at 1,000 (the simulator's default),
// so membership must come from the sitemap. Figures: pages of the cold build, authenticated requests of a
// warm build, warm build time against Astro's glob() build of the same 10,000 files, and peak memory of both
// (part "base"); a one-change rebuild with incremental builds against a full warm build, as interleaved
// pairs (part "incremental", bench/deploy.mjs; issue 19's target: <= 0.2 at 10,000 articles), and the same
// comparison with Astro's own glob() loader over the same articles (part "floor", bench/glob-floors.mjs).
// BENCH_SCALE_PARTS=base,incremental,floor (the default: all) runs only some; BENCH_SCALE_PAIRS (default
// BENCH_PAIRS, else 5) sets the pairs, fewer for time: each build of 10,000 pages takes minutes.
// `node bench/scale.mjs` prints them alone; bench/run.mjs adds them to its table.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from 'astro-content-publisher/simulator';
import { measureIncremental } from './deploy.mjs';
import { measureGlobIncremental } from './glob-floors.mjs';
import { buildInChild, medianPhases, ratioFigures, writeMarkdown } from './site-build.mjs';

export const SCALE_ARTICLES = Number(process.env.BENCH_SCALE_ARTICLES ?? 10_000);
const SCALE_PAIRS = Number(process.env.BENCH_SCALE_PAIRS ?? process.env.BENCH_PAIRS ?? 5);
const SCALE_PARTS = new Set((process.env.BENCH_SCALE_PARTS ?? 'base,incremental,floor').split(','));
const here = fileURLToPath(new URL('.', import.meta.url));

/** Every published article's detail, found through the public sitemap (the list stops at 1,000). */
async function allDetails(simulator, siteId, token) {
  const sitemap = await (await fetch(`${simulator.url}/api/sites/${siteId}/sitemap.xml`)).text();
  const slugs = [...sitemap.matchAll(/<loc>[^<]*\/blog\/([^/<]+)\/<\/loc>/g)].map((m) => decodeURIComponent(m[1]));
  const details = [];
  for (let i = 0; i < slugs.length; i += 32) {
    details.push(
      ...(await Promise.all(
        slugs.slice(i, i + 32).map(async (slug) => {
          const response = await fetch(
            `${simulator.url}/api/v1/sites/${siteId}/articles/${encodeURIComponent(slug)}/`,
            { headers: { authorization: `Bearer ${token}` } },
          );
          return response.json();
        }),
      )),
    );
  }
  return details;
}

export const SCALE_TARGETS = {
  'scale.coldPages': [`= ${SCALE_ARTICLES}`, (f) => f['scale.coldPages'] === SCALE_ARTICLES],
  'scale.warmRequests': ['<= 1 + paging', (f) => f['scale.warmRequests'] <= 1],
  'scale.warmVsGlob': ['<= 1.3', (f) => f['scale.warmVsGlob'] <= 1.3],
  'scale.peakVsGlob': ['<= 1.5', (f) => f['scale.peakVsGlob'] <= 1.5],
  'scale.coldProgressLines': ['>= 1', (f) => f['scale.coldProgressLines'] >= 1],
  'scale.coldPeakVsGlob': ['<= 1.2', (f) => f['scale.coldPeakVsGlob'] <= 1.2],
  'scale.incrementalVsFull': ['<= 0.2', (f) => f['scale.incrementalVsFull'] <= 0.2],
  'scale.incremental1.rendered': ['<= 2 (article + list)', (f) => f['scale.incremental1.rendered'] <= 2],
  // Builds after which a changed article's page still showed its old title (the loader's summary of that build
  // then counts it pending, and its warning names it: bench/deploy.mjs logs both).
  'scale.incremental1.stale': ['0', (f) => f['scale.incremental1.stale'] === 0],
  'scale.fullWarm.stale': ['0', (f) => f['scale.fullWarm.stale'] === 0],
};

/** Cold and warm builds against glob()'s of the same files: pages, requests, time and peak memory. */
async function measureBase(simulator, siteId, work, log) {
  const env = {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
    BENCH_SOURCE: 'remote',
  };
  const cache = join(work, 'remote-cache');
  log(`bench: ${SCALE_ARTICLES} articles, list capped at 1000: cold build...`);
  let before = simulator.stats().authenticated;
  const cold = await buildInChild(env, join(work, 'out-cold'), cache);
  const coldRequests = simulator.stats().authenticated - before;
  log('bench: warm build...');
  before = simulator.stats().authenticated;
  const warm = await buildInChild(env, join(work, 'out-warm'), cache);
  const warmRequests = simulator.stats().authenticated - before;
  log(`bench: the same ${SCALE_ARTICLES} articles as Markdown files (glob), cold then warm...`);
  const globDir = join(work, 'articles');
  writeMarkdown(await allDetails(simulator, siteId, simulator.tokens.agence), globDir);
  const globEnv = { ...env, BENCH_SOURCE: 'glob', BENCH_GLOB_DIR: globDir };
  const globCold = await buildInChild(globEnv, join(work, 'out-glob-cold'), join(work, 'glob-cache'));
  const glob = await buildInChild(globEnv, join(work, 'out-glob-warm'), join(work, 'glob-cache'));
  return {
    'scale.coldPages': cold.articles,
    'scale.coldRequests': coldRequests,
    'scale.coldMs': cold.ms,
    // The loader's progress lines during the cold sync (src/loader/articles/progress.ts), and its memory against glob()'s.
    'scale.coldProgressLines': cold.log.split('\n').filter((line) => /fetched \d+ of \d+ articles/.test(line)).length,
    'scale.coldPeakMB': cold.peakMB,
    'scale.globColdPeakMB': globCold.peakMB,
    'scale.coldPeakVsGlob': Math.round((cold.peakMB / globCold.peakMB) * 100) / 100,
    'scale.warmRequests': warmRequests,
    'scale.warmMs': warm.ms,
    'scale.globMs': glob.ms,
    'scale.warmVsGlob': Math.round((warm.ms / glob.ms) * 100) / 100,
    'scale.warmPeakMB': warm.peakMB,
    'scale.globPeakMB': glob.peakMB,
    'scale.peakVsGlob': Math.round((warm.peakMB / glob.peakMB) * 100) / 100,
  };
}

/** The median phases of a comparison's rebuilds and full builds: "breakdown.<prefix>Incremental1.<phase>", ... */
function breakdownOf(prefix, runs) {
  const out = {};
  const kinds = { [`${prefix}Incremental1`]: runs.map((r) => r.a), [`${prefix}FullWarm`]: runs.map((r) => r.b) };
  for (const [kind, results] of Object.entries(kinds))
    for (const [phase, ms] of Object.entries(medianPhases(results))) out[`breakdown.${kind}.${phase}`] = ms;
  return out;
}

export async function measureScale({ log = () => undefined } = {}) {
  mkdirSync(join(here, 'dist'), { recursive: true });
  const work = mkdtempSync(join(here, 'dist', 'scale-'));
  const simulator = await startSimulator({ articles: SCALE_ARTICLES, rateLimitOverride: 1_000_000 });
  try {
    const siteId = simulator.sites.agence[0];
    const figures = {};
    if (SCALE_PARTS.has('base')) Object.assign(figures, await measureBase(simulator, siteId, work, log));
    if (SCALE_PARTS.has('incremental')) {
      const articles = SCALE_ARTICLES;
      const inc = await measureIncremental({ simulator, siteId, work, log, articles, pairs: SCALE_PAIRS });
      Object.assign(figures, {
        'scale.pairs': SCALE_PAIRS,
        'scale.fullWarm.ms': inc.bMs,
        'scale.incremental1.ms': inc.aMs,
        ...ratioFigures('scale.incrementalVsFull', inc),
        'scale.incrementalVsFull.astroShare': inc.astroShare,
        'scale.incremental1.rendered': inc.rendered,
        'scale.incremental1.stale': inc.stale.incremental,
        'scale.fullWarm.stale': inc.stale.full,
      });
      // Where the time of each goes (bench/phases.mjs), beside the 1,000-article kinds in the breakdown.
      Object.assign(figures, breakdownOf('scale', inc.runs));
    }
    if (SCALE_PARTS.has('floor')) {
      // The same comparison with Astro's own glob() loader over the same articles (bench/glob-floors.mjs).
      const details = await allDetails(simulator, siteId, simulator.tokens.agence);
      const glob = await measureGlobIncremental({ simulator, siteId, work, log, details, pairs: SCALE_PAIRS });
      Object.assign(figures, {
        ...ratioFigures('scale.globFloor.incrementalVsFull', glob),
        'scale.globFloor.stale': glob.stale.incremental + glob.stale.full,
      });
      Object.assign(figures, breakdownOf('scaleGlob', glob.runs));
    }
    return figures;
  } finally {
    await simulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await measureScale({ log: (line) => console.error(line) });
  // `--json`: one JSON object, the keys of `npm run bench -- --json` (for docs/benchmarks-figures.json).
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
  else
    for (const [name, value] of Object.entries(figures)) {
      const target = SCALE_TARGETS[name];
      console.log(
        `${name.padEnd(28)} ${String(value).padStart(8)}  ${target ? `${target[0]} ${target[1](figures) ? 'met' : 'MISSED'}` : ''}`,
      );
    }
}
