#!/usr/bin/env node
// `npm run build && node bench/images-hostile.mjs` (BENCH_PAIRS=3 by default): what hostile images cost a
// cold `astro build` (issue 37, findings 1 and 2), in wall time, CPU time and peak memory, against the same
// build whose article holds ordinary photos. One article of eight images, served by a node:http server on
// 127.0.0.1; each build in its own process (test/fixtures/images-hostile/build-child.mjs), the kinds
// interleaved so that the machine's load falls on all of them alike. Figures, not pass/fail.
//   plain   8 JPEG photos of 1600 x 1000 (noise: about 1 MB each)
//   offset  8 GIFs of 35 bytes: a 1 x 1 screen, one frame at (15999, 15999); sharp decodes 16000 x 16000
//   frames  8 GIFs of 6 KB: 268 frames of 1000 x 1000
//   big     8 GIFs of 6000 x 6000 (36 MP each, within images.maxPixels; images.maxPixelsPerBuild admits two)
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { startSimulator } from 'astro-content-publisher/simulator';
import { installCopy } from '../scripts/installed-copy.mjs';
import { framesGif, offsetGif, squareGif } from '../test/security/hostile-gifs.ts';

const run = promisify(execFile);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const IMAGES = 8;
const repo = fileURLToPath(new URL('../', import.meta.url));
const root = join(repo, 'test/fixtures/images-site');
const child = join(repo, 'test/fixtures/images-hostile/build-child.mjs');

const photo = () =>
  sharp(randomBytes(1600 * 1000 * 3), { raw: { width: 1600, height: 1000, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
const KINDS = {
  plain: { type: 'image/jpeg', ext: 'jpg', body: await photo() },
  offset: { type: 'image/gif', ext: 'gif', body: offsetGif() },
  frames: { type: 'image/gif', ext: 'gif', body: framesGif() },
  big: { type: 'image/gif', ext: 'gif', body: squareGif(6000) },
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main() {
  installCopy(join(repo, 'test/fixtures/node_modules'));
  const server = createServer((req, res) => {
    const kind = KINDS[(req.url ?? '').split('/')[1]];
    if (!kind) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': kind.type, 'content-length': kind.body.length }).end(kind.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${server.address().port}`;
  const sim = await startSimulator({ articles: 1, rateLimitOverride: 100_000 });
  const admin = (method, path, body) =>
    fetch(`${sim.url}/__simulator/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
  // Outside the system temp dir, as bench/run.mjs does (git-ignored).
  mkdirSync(join(repo, 'bench/dist'), { recursive: true });
  const work = mkdtempSync(join(repo, 'bench/dist', 'images-'));
  const results = Object.fromEntries(Object.keys(KINDS).map((k) => [k, []]));
  try {
    for (let pair = 0; pair < PAIRS; pair += 1) {
      for (const [name, kind] of Object.entries(KINDS)) {
        const imgs = Array.from(
          { length: IMAGES },
          (_, i) => `<img src="${base}/${name}/${pair}-${i}.${kind.ext}" alt="" width="640" height="400">`,
        ).join('');
        await admin('POST', 'articles', { site: 12, slug: 'figures', title: 'Figures', content: `<p>.</p>${imgs}` });
        const dir = mkdtempSync(join(work, `${name}-`));
        const { stdout } = await run(process.execPath, [child, root, join(dir, 'out'), join(dir, 'cache')], {
          env: {
            ...process.env,
            PUBLISHER_SITE_ID: '12',
            PUBLISHER_BASE_URL: sim.url,
            PUBLISHER_API_KEY: sim.tokens.pro,
          },
          maxBuffer: 64 * 1024 * 1024,
        });
        const figures = JSON.parse(stdout.trim().split('\n').at(-1));
        if (figures.error) throw new Error(`bench: the ${name} build failed: ${figures.error}`);
        results[name].push(figures);
        console.error(`${name} #${pair + 1}: ${JSON.stringify(figures)}`);
        await admin('DELETE', 'articles/12/figures');
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    await sim.close();
    server.close();
  }
  const of = (name, key) => median(results[name].map((r) => r[key]));
  console.log(`| build (median of ${PAIRS}) | wall ms | CPU ms | peak RSS MB | CPU vs plain | RSS vs plain |`);
  console.log('|---|---|---|---|---|---|');
  for (const name of Object.keys(KINDS)) {
    const ratio = (key) => (of(name, key) / of('plain', key)).toFixed(2);
    console.log(
      `| ${name} | ${of(name, 'ms')} | ${of(name, 'cpuMs')} | ${of(name, 'maxRssMb')} | ${ratio('cpuMs')} | ${ratio('maxRssMb')} |`,
    );
  }
}

await main();
