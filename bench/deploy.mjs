// The deploy benchmarks of issue 12, run by bench/run.mjs (one hook) on its 1000-article simulator:
// - a rebuild after one changed article with incremental builds and a kept store and output, against a full
//   warm build: wall time and pages rendered (target: the article and the list page);
// - a warm build with the image step on (3 images per article), against the same build with it off:
//   images downloaded (target 0) and wall time.
// Each build chain has its own cacheDir, so that chains differ only in the one switch they measure.
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const MEDIA = 'GET /media/*';

export const DEPLOY_TARGETS = {
  incrementalVsFull: ['<= 0.2', (f) => f.incrementalVsFull <= 0.2],
  'incremental1.rendered': ['<= 2 (article + list)', (f) => f['incremental1.rendered'] <= 2],
  'imagesWarm.downloads': ['0', (f) => f['imagesWarm.downloads'] === 0],
  imagesOnVsOff: ['<= 1.2', (f) => f.imagesOnVsOff <= 1.2],
};

function mtimes(dir) {
  const out = new Map();
  for (const file of readdirSync(dir, { recursive: true }))
    if (String(file).endsWith('.html')) out.set(String(file), statSync(join(dir, String(file))).mtimeMs);
  return out;
}

export async function measureDeploy({ simulator, siteId, work, log, articles, repeat = 3 }) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const env = {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
  };
  const media = () => simulator.stats().routes[MEDIA]?.['200'] ?? 0;
  const build = async (chain, extra) => {
    const { stdout } = await run(
      process.execPath,
      [join(here, 'deploy-build.mjs'), join(work, `deploy-${chain}-out`), join(work, `deploy-${chain}-cache`)],
      {
        cwd: repo,
        env: { ...process.env, ...env, ...extra },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const result = JSON.parse(stdout.trim().split('\n').at(-1));
    if (result.articles !== articles)
      throw new Error(
        `bench deploy (${chain}): ${result.articles} article pages, expected ${articles}.\n${result.log}`,
      );
    return result;
  };

  log('bench deploy: full builds (incremental off, images off): cold, then warm (median)...');
  const off = { BENCH_INCREMENTAL: '0', BENCH_IMAGES: 'off' };
  await build('full', off);
  const fullRuns = [];
  for (let i = 0; i < repeat; i += 1) fullRuns.push((await build('full', off)).ms);
  const fullWarm = median(fullRuns);

  log('bench deploy: incremental builds: cold, one article changed, rebuild...');
  const incremental = { BENCH_INCREMENTAL: '1', BENCH_IMAGES: 'off' };
  await build('incremental', incremental);
  const list = await (
    await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
      headers: { authorization: `Bearer ${simulator.tokens.agence}` },
    })
  ).json();
  const slug = list.results[Math.floor(list.results.length / 2)].slug;
  const response = await fetch(`${simulator.url}/__simulator/articles/${siteId}/${encodeURIComponent(slug)}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Changed for the deploy bench: ${slug}` }),
  });
  if (!response.ok) throw new Error(`bench deploy: PATCH answered ${response.status}`);
  const outDir = join(work, 'deploy-incremental-out');
  const before = mtimes(outDir);
  const rebuild = await build('incremental', incremental);
  const after = mtimes(outDir);
  const rendered = [...after].filter(([file, mtime]) => before.get(file) !== mtime).length;

  log(`bench deploy: images on (${articles} articles x 3 images): cold, then warm (median)...`);
  const on = { BENCH_INCREMENTAL: '0', BENCH_IMAGES: 'on' };
  const coldStart = media();
  const coldImages = await build('images', on);
  const coldDownloads = media() - coldStart;
  const imageRuns = [];
  const warmStart = media();
  for (let i = 0; i < repeat; i += 1) imageRuns.push((await build('images', on)).ms);
  const warmDownloads = media() - warmStart;
  const imagesWarm = median(imageRuns);
  log(
    `bench deploy: images cold build: ${coldImages.ms} ms, ${coldDownloads} downloads; ${coldImages.log.split('\n').find((l) => l.includes('images:')) ?? ''}`,
  );

  const round = (n) => Math.round(n * 100) / 100;
  return {
    'fullWarm.ms': fullWarm,
    'incremental1.ms': rebuild.ms,
    incrementalVsFull: round(rebuild.ms / fullWarm),
    'incremental1.rendered': rendered,
    'imagesCold.downloads': coldDownloads,
    'imagesWarm.downloads': warmDownloads,
    'imagesWarm.ms': imagesWarm,
    'imagesOffWarm.ms': fullWarm,
    imagesOnVsOff: round(imagesWarm / fullWarm),
  };
}
