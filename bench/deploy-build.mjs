// One build of bench/deploy-site in its own process. Prints {"ms", "articles", "log"} as one JSON line:
// the loader's summary and image lines are read from Astro's log.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';

const [outDir, cacheDir] = process.argv.slice(2);
const root = fileURLToPath(new URL('./deploy-site/', import.meta.url));
const lines = [];
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  lines.push(String(chunk));
  return typeof rest.at(-1) === 'function' ? (rest.at(-1)(), true) : true;
};
const started = performance.now();
await build({ root, outDir, cacheDir, logLevel: 'info' });
const ms = Math.round(performance.now() - started);
process.stdout.write = write;
/* eslint-disable no-control-regex -- control characters are what this expression is about */
const log = lines
  .join('')
  .replace(/\x1b\[[0-9;]*m/g, '')
  .split('\n')
  .filter((l) => /articles?: \d+ new|images: /.test(l))
  .join('\n');
/* eslint-enable no-control-regex */
console.log(JSON.stringify({ ms, articles: readdirSync(join(outDir, 'blog')).length, log }));
