// One build of a benchmark blog in its own process (fresh module graph and heap, like `astro build`):
// `node bench/build-site.mjs <outDir> <cacheDir> [site|deploy-site]`. Prints one JSON line on stdout:
// {"ms": wall time of build(), "articles": article pages written, "peakMB", "phases": where the time went
// (bench/phases.mjs), "loader": the loader's own figures (bench/loader-stats.mjs), "log": the loader's lines}.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';
import { phasesOf, withStampedLog } from './phases.mjs';
import { installCopy } from '../scripts/installed-copy.mjs';

const [outDir, cacheDir, site = 'site'] = process.argv.slice(2);
if (!outDir || !cacheDir || !['site', 'deploy-site'].includes(site)) {
  console.error('usage: node bench/build-site.mjs <outDir> <cacheDir> [site|deploy-site]');
  process.exit(2);
}
const root = fileURLToPath(new URL(`./${site}/`, import.meta.url));
// The blogs have a package.json of their own, so they import the package from bench/node_modules, as a user's
// project does (scripts/installed-copy.mjs): made by bench/run.mjs, or here when this script runs alone.
const installed = fileURLToPath(new URL('./node_modules/', import.meta.url));
if (!existsSync(join(installed, 'astro-content-publisher/package.json'))) installCopy(installed);
const statsDir = mkdtempSync(join(tmpdir(), 'acp-bench-loader-'));
process.env.BENCH_LOADER_STATS = join(statsDir, 'loader.json');
// Astro's log at 'info' gives the phases' landmarks; BENCH_LOG_LEVEL=info also prints it on stderr.
const { lines, ms } = await withStampedLog(() => build({ root, outDir, cacheDir, logLevel: 'info' }));
if (process.env.BENCH_LOG_LEVEL === 'info') for (const [at, line] of lines) console.error(`${Math.round(at)} ${line}`);
let loader;
try {
  loader = JSON.parse(readFileSync(process.env.BENCH_LOADER_STATS, 'utf8'));
} catch {
  loader = undefined;
}
rmSync(statsDir, { recursive: true, force: true });
const articles = readdirSync(join(outDir, 'blog')).length;
// Peak resident memory of this build process (maxRSS is in KiB), for the memory figures of bench/scale.mjs.
const peakMB = Math.round(process.resourceUsage().maxRSS / 1024);
const log = lines
  .map(([, line]) => line)
  // The loader's summary, progress and image lines, and its warnings (a detail that failed names its article).
  .filter((line) =>
    /articles?: \d+ new|images: |fetched \d+ of \d+ articles|\[WARN\] \[astro-content-publisher/.test(line),
  )
  .join('\n');
console.log(JSON.stringify({ ms: Math.round(ms), articles, peakMB, phases: phasesOf(lines, ms), loader, log }));
