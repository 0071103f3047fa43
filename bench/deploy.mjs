// The deploy benchmarks (issues 12 and 19), run by bench/run.mjs on its 1000-article simulator:
// - a rebuild after one changed article with incremental builds and a kept store and output, against a
//   full warm build (which fetches the same change): wall time and pages rendered (target: the article and
//   the list page);
// - a warm build with the image step on (3 images per article), against the same build with it off:
//   images downloaded (target 0) and wall time.
// Each build chain has its own cacheDir, so that chains differ only in the one switch they measure; the two
// builds of a comparison are interleaved (site-build.mjs, interleaved()).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildInChild, interleaved, median, ratioFigures } from './site-build.mjs';

const MEDIA = 'GET /media/*';

export const DEPLOY_TARGETS = {
  incrementalVsFull: ['<= 0.4', (f) => f.incrementalVsFull <= 0.4],
  'incremental1.rendered': ['<= 2 (article + list)', (f) => f['incremental1.rendered'] <= 2],
  'incremental1.stale': ['0', (f) => f['incremental1.stale'] === 0],
  'fullWarm.stale': ['0', (f) => f['fullWarm.stale'] === 0],
  'imagesWarm.downloads': ['0', (f) => f['imagesWarm.downloads'] === 0],
  imagesOnVsOff: ['<= 1.15', (f) => f.imagesOnVsOff <= 1.15],
};

function mtimes(dir) {
  const out = new Map();
  for (const file of readdirSync(dir, { recursive: true }))
    if (String(file).endsWith('.html')) out.set(String(file), statSync(join(dir, String(file))).mtimeMs);
  return out;
}

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/**
 * The changed articles whose page in `outDir` does not show the title they have on the service now: what a
 * reader of that output would see late. Read from the pages themselves, not from their mtimes (a page Astro
 * restores from its incremental cache is written without being rendered).
 */
export function stalePages(outDir, titles) {
  return [...titles]
    .filter(([slug, title]) => {
      let html = '';
      try {
        html = readFileSync(join(outDir, 'blog', slug, 'index.html'), 'utf8');
      } catch {
        // No page at all is as stale as an old one.
      }
      return !html.includes(`<h1>${escapeHtml(title)}</h1>`);
    })
    .map(([slug]) => slug);
}

/**
 * The loader's summary line of a build ("N articles: x new, y changed, ..."), and its warnings but the one every
 * build of a capped list repeats: a detail call that failed is named there, with its error, as pending.
 */
const summaryOf = (built) =>
  built.log
    .split('\n')
    .filter((line) => / new, /.test(line) || (/\[WARN\]/.test(line) && !/cuts the list short/.test(line)))
    .join(' ');

export function deployEnv(simulator, siteId) {
  return {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
  };
}

/** One build of bench/deploy-site in the chain's own outDir and cacheDir; checks every article was written. */
export function chainBuilder(env, work, articles) {
  return async (chain, extra) => {
    const result = await buildInChild(
      { ...env, ...extra },
      join(work, `deploy-${chain}-out`),
      join(work, `deploy-${chain}-cache`),
      'deploy-site',
    );
    if (result.articles !== articles)
      throw new Error(
        `bench deploy (${chain}): ${result.articles} article pages, expected ${articles}.\n${result.log}`,
      );
    return result;
  };
}

export const OFF = { BENCH_INCREMENTAL: '0', BENCH_IMAGES: 'off' };
export const INCREMENTAL = { BENCH_INCREMENTAL: '1', BENCH_IMAGES: 'off' };
const ON = { BENCH_INCREMENTAL: '0', BENCH_IMAGES: 'on' };

/**
 * A rebuild after one changed article with incremental builds (store and output kept) against a full warm
 * build that fetches the same change, as interleaved pairs; used at 1,000 articles here and at 10,000 by
 * bench/scale.mjs. Returns the interleaved() result, the most HTML files one incremental rebuild wrote, and per
 * chain the builds after which a changed article's page still showed its old title (read from the pages).
 */
export async function measureIncremental({ simulator, siteId, work, log, articles, pairs }) {
  const build = chainBuilder(deployEnv(simulator, siteId), work, articles);
  log(`bench deploy: ${articles} articles, cold builds of the full and the incremental chain...`);
  const coldFull = await build('full', OFF);
  log(`bench deploy: full chain cold: ${coldFull.ms} ms`);
  const coldIncremental = await build('incremental', INCREMENTAL);
  log(`bench deploy: incremental chain cold: ${coldIncremental.ms} ms`);
  const list = await (
    await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
      headers: { authorization: `Bearer ${simulator.tokens.agence}` },
    })
  ).json();
  const outDir = join(work, 'deploy-incremental-out');
  let rendered = 0;
  log(`bench deploy: ${pairs} pairs of (one article changed, incremental rebuild | full warm build), interleaved...`);
  const result = await changedPairs({
    pairs,
    work,
    log: (line) => log(`bench deploy: ${line}`),
    incremental: async () => {
      const before = mtimes(outDir);
      const built = await build('incremental', INCREMENTAL);
      const after = mtimes(outDir);
      const written = [...after].filter(([file, mtime]) => before.get(file) !== mtime).map(([file]) => file);
      rendered = Math.max(rendered, written.length);
      const names = written.length <= 4 ? `: ${written.join(', ')}` : '';
      return { built, note: `${written.length} pages written${names}; ${summaryOf(built)}` };
    },
    full: async () => {
      const built = await build('full', OFF);
      return { built, note: summaryOf(built) };
    },
    change: async (i) => {
      const slug = list.results[(Math.floor(list.results.length / 2) + i * 7) % list.results.length].slug;
      const title = `Changed for the deploy bench (${i}): ${slug}`;
      const response = await fetch(`${simulator.url}/__simulator/articles/${siteId}/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      if (!response.ok) throw new Error(`bench deploy: PATCH answered ${response.status}`);
      return { slug, title };
    },
  });
  return { ...result, rendered, astroShare: astroShare(result.runs) };
}

/**
 * The loop of a rebuild comparison, as interleaved pairs (site-build.mjs, interleaved()): each pair makes one
 * change (`change(i)` returns the article's slug and new title), before the incremental build in even pairs and
 * before the full one in odd ones, so that neither chain always builds right after a change. After each build
 * (`incremental` and `full` build their chain, in `deploy-<prefix>incremental-out` and `deploy-<prefix>full-out`
 * under `work`; each returns the build and a note for the log) the pages of every article changed so far are read for their new title. Returns the interleaved() result
 * and per chain the number of builds after which such a page still showed its old title.
 */
export async function changedPairs({ pairs, work, log, change, incremental, full, prefix = '' }) {
  const titles = new Map();
  const stale = { incremental: 0, full: 0 };
  const side = (chain, what, build, changesFirst) => async (i) => {
    if (i % 2 === changesFirst) {
      const { slug, title } = await change(i);
      titles.set(slug, title);
      log(`pair ${i + 1}: changed the title of ${slug}`);
    }
    const { built, note } = await build();
    const late = stalePages(join(work, `deploy-${prefix}${chain}-out`), titles);
    if (late.length) stale[chain] += 1;
    // Each build's time is logged as it ends, so that a run cut short still leaves its finished pairs.
    log(`pair ${i + 1}: ${what} ${built.ms} ms${note ? `; ${note}` : ''}`);
    log(
      `pair ${i + 1}: ${chain} chain: ${late.length ? `STALE page(s), old title still shown: ${late.join(', ')}` : `all ${titles.size} changed articles' pages current`}`,
    );
    return built;
  };
  const result = await interleaved(
    pairs,
    side('incremental', 'incremental rebuild', incremental, 0),
    side('full', 'full warm build', full, 1),
  );
  return { ...result, stale };
}

/** Astro's own phases of a build (bench/phases.mjs): all but the loader's and the end of the build. */
const ASTRO_PHASES = ['startup', 'store', 'setup', 'vite', 'render'];

/**
 * The floor of the rebuild ratio: the median over the pairs of the rebuild's time in Astro's own phases
 * over the full build's time, the ratio the rebuild would have if the loader and the end of the build (where
 * our pass over the pages and the sitemap run) took no time at all.
 */
function astroShare(runs) {
  const shares = runs.map((r) => ASTRO_PHASES.reduce((sum, phase) => sum + (r.a.phases[phase] ?? 0), 0) / r.b.ms);
  return Math.round(median(shares) * 100) / 100;
}

export async function measureDeploy({ simulator, siteId, work, log, articles, pairs = 5 }) {
  const media = () => simulator.stats().routes[MEDIA]?.['200'] ?? 0;
  const build = chainBuilder(deployEnv(simulator, siteId), work, articles);
  const inc = await measureIncremental({ simulator, siteId, work, log, articles, pairs });
  const { rendered } = inc;

  log(`bench deploy: images on (${articles} articles x 3 images): cold build...`);
  const coldStart = media();
  const coldImages = await build('images', ON);
  const coldDownloads = media() - coldStart;
  log(`bench deploy: images cold build: ${coldImages.ms} ms, ${coldDownloads} downloads; ${coldImages.log}`);
  log(`bench deploy: ${pairs} pairs of warm builds (images on | images off), interleaved...`);
  const warmStart = media();
  const images = await interleaved(
    pairs,
    () => build('images', ON),
    () => build('full', OFF),
  );
  const warmDownloads = media() - warmStart;

  return {
    figures: {
      'fullWarm.ms': inc.bMs,
      'incremental1.ms': inc.aMs,
      ...ratioFigures('incrementalVsFull', inc),
      'incrementalVsFull.astroShare': inc.astroShare,
      'incremental1.rendered': rendered,
      'incremental1.stale': inc.stale.incremental,
      'fullWarm.stale': inc.stale.full,
      'imagesCold.downloads': coldDownloads,
      'imagesWarm.downloads': warmDownloads,
      'imagesWarm.ms': images.aMs,
      'imagesOffWarm.ms': images.bMs,
      ...ratioFigures('imagesOnVsOff', images),
    },
    builds: {
      incremental1: inc.runs.map((r) => r.a),
      fullWarm: inc.runs.map((r) => r.b),
      imagesWarm: images.runs.map((r) => r.a),
      imagesOffWarm: images.runs.map((r) => r.b),
    },
  };
}
