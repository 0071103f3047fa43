// Runs in its own process so that its peak memory is its own: rewrites (or, for the baseline, parses and
// rebuilds with fast-xml-parser) a 50,000-URL upstream sitemap. `write <file>` writes the document once;
// `rewrite|baseline <file>` reads it as the sitemap route receives an upstream body (bytes decoded to one
// string) and prints {"ms", "cpuMs", "peakMB", "startMB"} on stdout. peakMB is the process's resident-set
// high-water mark (getrusage maxrss): Node itself, the modules, the document, and everything the rewrite
// allocated; startMB is the same mark before the rewrite starts. Generating the document in the measured
// process instead (50,000 dates and strings, then a join) left 20 to 60 MB of the generator's garbage
// committed before the rewrite began, and with it a peak that moved by 30 MB between runs.
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { makeArticleUrlMapper, rewriteSitemap } from '../dist/feeds/index.js';

const URLS = 50_000;
const UPSTREAM = 'https://pro-blog.example.com';
const [mode, file] = process.argv.slice(2);
if (file === undefined || !['write', 'rewrite', 'baseline'].includes(mode)) {
  console.error('usage: node bench/sitemap-child.mjs write|rewrite|baseline <file>');
  process.exit(2);
}

function upstreamSitemap() {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  const day = Date.UTC(2025, 0, 1);
  for (let i = 0; i < URLS; i += 1) {
    const lastmod = new Date(day - i * 60_000).toISOString().replace('.000Z', '+00:00');
    parts.push(
      `<url><loc>${UPSTREAM}/blog/article-number-${i}-about-something/</loc><lastmod>${lastmod}</lastmod></url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** The `<loc>`s of the output, counted without splitting it (50,000 strings would add to the peak measured). */
function countLocs(text) {
  let count = 0;
  for (let at = text.indexOf('<loc>'); at !== -1; at = text.indexOf('<loc>', at + 5)) count += 1;
  return count;
}

if (mode === 'write') {
  writeFileSync(file, upstreamSitemap());
  process.exit(0);
}
const xml = readFileSync(file, 'utf8');
const startMB = Math.round(process.resourceUsage().maxRSS / 1024);
const started = performance.now();
const cpuBefore = process.cpuUsage();
let urls;
if (mode === 'rewrite') {
  const mapUrl = makeArticleUrlMapper({
    blogSite: 'https://blog.example.com/',
    articlePattern: '/blog/[slug]/',
    upstreamOrigins: [UPSTREAM],
  });
  const out = rewriteSitemap(xml, {
    url: `${UPSTREAM}/api/sites/12/sitemap.xml`,
    upstreamOrigins: [UPSTREAM],
    mapUrl,
    partUrl: (n) => `https://blog.example.com/sitemap-${n}.xml`,
  });
  urls = out.kind === 'urlset' ? countLocs(out.xml) : -1;
} else {
  const parser = new XMLParser({ ignoreAttributes: false, processEntities: false });
  const doc = parser.parse(xml);
  const built = new XMLBuilder({ ignoreAttributes: false, format: false }).build(doc);
  urls = countLocs(built);
}
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
if (urls !== URLS) {
  console.error(`bench: expected ${URLS} URLs in the output, got ${urls}`);
  process.exit(1);
}
// cpuMs (user + system time of this process during the rewrite) is what the machine's load changes least.
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakMB: Math.round(process.resourceUsage().maxRSS / 1024),
    startMB,
  }),
);
