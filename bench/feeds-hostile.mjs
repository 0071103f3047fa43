// Issue 15.4: every feed and sitemap operation is linear in its input. Adversarial shapes at the size
// caps (a 50 MB sitemap, a 10 MB feed) against an ordinary document of the same size, each timed in a
// fresh process (fastest of a few runs). Target: every hostile shape within 2x the ordinary one.
// `node bench/feeds-hostile.mjs [scale]` alone (scale 1 = the caps; 0.1 = a tenth, for a quick look).
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SITEMAP_BYTES = 50 * 1024 * 1024;
const RSS_BYTES = 10 * 1024 * 1024;
const SITE = 'https://pro-blog.example.com';

/** Repeats `unit(i)` until `bytes` is nearly reached, inside `head`/`tail`. */
function fill(head, tail, bytes, unit) {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; ; i += 1) {
    const next = unit(i);
    if (size + next.length > bytes) break;
    parts.push(next);
    size += next.length;
  }
  parts.push(tail);
  return parts.join('');
}

const SM =
  'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
const RSS_HEAD = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title><link>${SITE}/</link><description>d</description>`;
const item = (i, html) =>
  `<item><title>Item ${i}</title><link>${SITE}/blog/item-${i}/</link><description><![CDATA[${html}]]></description></item>`;

/** The shapes, by name: [kind, size cap, document builder]. */
export const SHAPES = {
  'sitemap ordinary': [
    'sitemap',
    SITEMAP_BYTES,
    (b) =>
      fill(
        `<urlset ${SM}>`,
        '</urlset>',
        b,
        (i) => `<url><loc>${SITE}/blog/article-number-${i}/</loc><lastmod>2026-11-01</lastmod></url>\n`,
      ),
  ],
  // The root re-read for every extension child made a 4 MB sitemap take 13 s.
  'sitemap long root + extension children': [
    'sitemap',
    SITEMAP_BYTES,
    (b) =>
      fill(
        `<urlset ${SM}${Array.from({ length: 1500 }, (_, i) => ` xmlns:x${i}="urn:x${i}"`).join('')}>`,
        '</urlset>',
        b,
        (i) =>
          `<url><loc>${SITE}/blog/a-${i}/</loc>${'<image:image><image:loc>https://cdn.example.com/i.png</image:loc></image:image>'.repeat(20)}</url>\n`,
      ),
  ],
  'sitemap stray ampersands': [
    'sitemap',
    SITEMAP_BYTES,
    (b) =>
      fill(`<urlset ${SM}>`, '</urlset>', b, (i) => `<url><loc>${SITE}/blog/a-${i}/?a=1&b=2&c=3&nbsp;&d</loc></url>\n`),
  ],
  'sitemap comments and CDATA': [
    'sitemap',
    SITEMAP_BYTES,
    (b) =>
      fill(
        `<urlset ${SM}>`,
        '</urlset>',
        b,
        (i) => `<!-- <url> --><url><loc><![CDATA[${SITE}/blog/a-${i}/]]></loc><!--x--></url>\n`,
      ),
  ],
  'rss ordinary': [
    'rss',
    RSS_BYTES,
    (b) =>
      fill(RSS_HEAD, '</channel></rss>', b, (i) =>
        item(i, `<p>Paragraph ${i} with <a href="/blog/other-${i}/">a link</a> and <em>emphasis</em>.</p>`.repeat(8)),
      ),
  ],
  // The URL rewriter's tag regex was quadratic on "<a" without ">": 293 KiB froze a server for 33 s.
  'rss <a without >': [
    'rss',
    RSS_BYTES,
    (b) => fill(RSS_HEAD, '</channel></rss>', b, (i) => item(i, '<a'.repeat(20_000))),
  ],
  'rss attribute trick': [
    'rss',
    RSS_BYTES,
    (b) =>
      fill(RSS_HEAD, '</channel></rss>', b, (i) =>
        item(i, '<img alt=" src=x onerror=alert(1) " src="/a.png">'.repeat(200)),
      ),
  ],
  'rss deep nesting': [
    'rss',
    RSS_BYTES,
    (b) => fill(RSS_HEAD, '</channel></rss>', b, (i) => item(i, `${'<div>'.repeat(5000)}x${'</div>'.repeat(5000)}`)),
  ],
  'rss many extension elements': [
    'rss',
    RSS_BYTES,
    (b) =>
      fill(
        RSS_HEAD.replace('<rss ', '<rss xmlns:dc="http://purl.org/dc/elements/1.1/" '),
        '</channel></rss>',
        b,
        (i) => `<item><title>${i}</title>${'<dc:subject>s</dc:subject>'.repeat(200)}</item>`,
      ),
  ],
};

async function child(name, scale) {
  const [kind, cap, build] = SHAPES[name];
  const xml = build(Math.floor(cap * scale));
  const { makeArticleUrlMapper, rewriteRss, rewriteSitemap } = await import('../dist/feeds/index.js');
  const mapUrl = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins: [SITE] });
  const options = { url: `${SITE}/${kind}.xml`, upstreamOrigins: [SITE], mapUrl, maxBytes: cap };
  let best = Infinity;
  for (let i = 0; i < 2; i += 1) {
    const started = performance.now();
    if (kind === 'sitemap')
      rewriteSitemap(xml, { ...options, partUrl: (n) => `https://blog.example.com/sitemap-${n}.xml` });
    else rewriteRss(xml, { ...options, selfUrl: 'https://blog.example.com/rss.xml' });
    best = Math.min(best, performance.now() - started);
  }
  console.log(JSON.stringify({ name, mb: Math.round((xml.length / 1024 / 1024) * 10) / 10, ms: Math.round(best) }));
}

/** Every shape in its own process; ratios against the ordinary document of the same kind. */
export async function measureFeedsHostile(scale = 1) {
  const here = fileURLToPath(import.meta.url);
  const results = {};
  for (const name of Object.keys(SHAPES)) {
    const { stdout } = await run(
      process.execPath,
      ['--max-old-space-size=4096', here, '--child', name, String(scale)],
      { maxBuffer: 1 << 20 },
    );
    results[name] = JSON.parse(stdout.trim().split('\n').at(-1));
  }
  const figures = {};
  for (const [name, result] of Object.entries(results)) {
    const kind = SHAPES[name][0];
    const ordinary = results[`${kind} ordinary`];
    figures[`${name} (${result.mb} MB).ms`] = result.ms;
    if (name !== `${kind} ordinary`) figures[`${name}.ratio`] = Math.round((result.ms / ordinary.ms) * 100) / 100;
  }
  return figures;
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureFeedsHostile(Number(process.argv[2] ?? 1));
  for (const [name, value] of Object.entries(figures))
    console.log(
      `${name.padEnd(56)} ${String(value).padStart(8)}${name.endsWith('.ratio') ? (value <= 2 ? '  met (<= 2)' : '  MISSED (<= 2)') : ''}`,
    );
}
