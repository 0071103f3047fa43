// The sitemap and feed routes' own transforms (buildSitemap, buildRss in src/integration/proxy/feed-transform.ts) on
// a 50,000-URL upstream sitemap and a 1,000-item feed, with an articles record that lacks one article in 50, so
// that the routes leave entries out as they do for a blog with filtered or pending articles. Each run is a
// process of its own that reads the document from a file (as a route receives an upstream body) and prints its
// wall time, CPU time and resident-set high-water mark before and after the transform; the figures are the
// fastest run's time and the median peak above the start (`peakDeltaMB`, what the transform added).
//
//   npm run build && node bench/feed-routes.mjs [--runs 5] [--dist dist] [--dist other/dist] [--json]
//
// With two `--dist` folders (say, a copy of main's dist/ under bench/dist/ and this tree's), their runs
// alternate (a b, b a, ...) so that both see the same load.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ROUTE_CONFIG from '../test/fixtures/route-config.json' with { type: 'json' };

const run = promisify(execFile);
const here = fileURLToPath(import.meta.url);
const UPSTREAM = 'https://pro-blog.example.com';
const URLS = 50_000;
const ITEMS = 1_000;
/** One article in this many is not in the blog's record: its entry is left out. */
const MISSING_EVERY = 50;

const slugOf = (i) => `article-number-${i}-about-something`;

function sitemapDocument() {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  const day = Date.UTC(2025, 0, 1);
  for (let i = 0; i < URLS; i += 1) {
    const lastmod = new Date(day - i * 60_000).toISOString().replace('.000Z', '+00:00');
    parts.push(`<url><loc>${UPSTREAM}/blog/${slugOf(i)}/</loc><lastmod>${lastmod}</lastmod></url>\n`);
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

function feedDocument() {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Blog</title><link>${UPSTREAM}/</link><description>d</description>\n`,
  ];
  for (let i = 0; i < ITEMS; i += 1) {
    const html = `<p>Paragraph ${i} with <a href="${UPSTREAM}/blog/${slugOf(i + 1)}/">a link</a> and <em>emphasis</em>.</p>`;
    parts.push(
      `<item><title>Item ${i}</title><link>${UPSTREAM}/blog/${slugOf(i)}/</link><guid>${UPSTREAM}/blog/${slugOf(i)}/</guid>` +
        `<pubDate>Wed, 01 Jan 2025 00:00:00 GMT</pubDate><description><![CDATA[${html.repeat(6)}]]></description></item>\n`,
    );
  }
  parts.push('</channel></rss>\n');
  return parts.join('');
}

/** The routes' settings of an on-demand blog at https://blog.example.com/ for site 12 of the service. */
export { ROUTE_CONFIG };

/** ROUTE_CONFIG with the loaders' record of every article but one in MISSING_EVERY. */
function routeConfig(count) {
  const slugs = [];
  for (let i = 0; i < count; i += 1) if (i % MISSING_EVERY !== 7) slugs.push(slugOf(i));
  return { ...ROUTE_CONFIG, articles: { slugs, origins: [UPSTREAM] } };
}

const count = (text, what) => {
  let n = 0;
  for (let at = text.indexOf(what); at !== -1; at = text.indexOf(what, at + what.length)) n += 1;
  return n;
};

/** One transform in this process: prints {ms, cpuMs, startMB, peakMB} after checking what it wrote. */
async function child(kind, file, dist) {
  const { buildRss, buildSitemap } = await import(
    pathToFileURL(join(dist, 'integration/proxy/feed-transform.js')).href
  );
  const xml = readFileSync(file, 'utf8');
  const config = routeConfig(kind === 'sitemap' ? URLS : ITEMS);
  console.warn = () => {};
  const startMB = process.resourceUsage().maxRSS / 1024;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const out = kind === 'sitemap' ? (await buildSitemap(xml, config, [])).xml : buildRss(xml, config);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const total = kind === 'sitemap' ? URLS : ITEMS;
  const expected = total - Math.floor((total - 8) / MISSING_EVERY) - 1;
  const written = count(out, kind === 'sitemap' ? '<loc>' : '<item>');
  if (written !== expected) throw new Error(`bench: ${kind} wrote ${written} entries, expected ${expected}.`);
  console.log(
    JSON.stringify({
      ms: Math.round(ms),
      cpuMs: Math.round((used.user + used.system) / 1000),
      startMB: Math.round(startMB),
      peakMB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Each kind's figures per dist folder: fastest ms and cpuMs, median and range of the peak above the start. */
export async function measureFeedRoutes({ runs = 5, dists = [join(here, '../../dist')], log = () => {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'acp-bench-routes-'));
  const figures = {};
  try {
    for (const [kind, make] of [
      ['sitemap', sitemapDocument],
      ['rss', feedDocument],
    ]) {
      const file = join(dir, `${kind}.xml`);
      writeFileSync(file, make());
      const results = dists.map(() => []);
      for (let r = 0; r < runs; r += 1) {
        const order = dists.map((_, i) => i);
        if (r % 2 === 1) order.reverse();
        for (const i of order) {
          const { stdout } = await run(process.execPath, [here, '--child', kind, file, dists[i]]);
          results[i].push(JSON.parse(stdout.trim().split('\n').at(-1)));
        }
      }
      log(`bench: ${kind} route, ${runs} runs per dist`);
      dists.forEach((dist, i) => {
        const rs = results[i];
        const deltas = rs.map((x) => x.peakMB - x.startMB);
        const name = kind === 'sitemap' ? 'sitemapRoute50k' : 'rssRoute1k';
        const key = dists.length === 1 ? name : `${name}[${dist}]`;
        Object.assign(figures, {
          [`${key}.ms`]: Math.min(...rs.map((x) => x.ms)),
          [`${key}.cpuMs`]: Math.min(...rs.map((x) => x.cpuMs)),
          [`${key}.peakDeltaMB`]: median(deltas),
          [`${key}.peakDeltaMBRange`]: `${Math.min(...deltas)}-${Math.max(...deltas)}`,
        });
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  await child(argv[1], argv[2], argv[3]);
} else if (resolve(process.argv[1] ?? '') === here) {
  const option = (name) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]] : []));
  const dists = option('--dist').map((d) => resolve(d));
  const figures = await measureFeedRoutes({
    runs: Number(option('--runs')[0] ?? 5),
    dists: dists.length > 0 ? dists : undefined,
    log: (line) => console.error(line),
  });
  if (argv.includes('--json')) console.log(JSON.stringify(figures));
  else
    for (const [name, value] of Object.entries(figures))
      console.log(`${name.padEnd(64)} ${String(value).padStart(10)}`);
}
