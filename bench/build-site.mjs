// One build of the benchmark blog in its own process (fresh module graph and heap, like `astro build`).
// Prints one JSON line {"ms": wall time of build(), "articles": article pages written} on stdout.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';

const [outDir, cacheDir] = process.argv.slice(2);
if (!outDir || !cacheDir) {
  console.error('usage: node bench/build-site.mjs <outDir> <cacheDir>');
  process.exit(2);
}
const root = fileURLToPath(new URL('./site/', import.meta.url));
const started = performance.now();
// BENCH_LOG_LEVEL=info shows where a build spends its time (content sync, page generation).
await build({ root, outDir, cacheDir, logLevel: process.env.BENCH_LOG_LEVEL ?? 'error' });
const ms = Math.round(performance.now() - started);
const articles = readdirSync(join(outDir, 'blog')).length;
// Peak resident memory of this build process (maxRSS is in KiB), for the memory figures of bench/scale.mjs.
const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify({ ms, articles, peakMB }));
