// One on-demand refresh of a 520,000-URL upstream urlset (about 49 MB, within the 50 MiB cap): CPU, wall time and
// peak RSS of buildSitemap. Issue 37 finding 5. Usage: npm run build && node bench/sitemap-url-bound.mjs [dist dir]
const dist = process.argv[2] ?? new URL('../dist', import.meta.url).pathname;
const { buildSitemap } = await import(`${dist}/integration/proxy/feed-transform.js`);
const { ROUTE_CONFIG } = await import('./feed-routes.mjs');
const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
for (let i = 0; i < 520000; i++)
  parts.push(`<url><loc>https://pro-blog.example.com/blog/a-${i}/</loc><lastmod>2026-01-01</lastmod></url>`);
parts.push('</urlset>');
const xml = parts.join('\n');
const config = ROUTE_CONFIG;
console.warn = () => {};
const cpu = process.cpuUsage();
const t = performance.now();
const files = await buildSitemap(xml, config, []);
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    kind: files.kind,
    wallMs: Math.round(performance.now() - t),
    cpuMs: Math.round((used.user + used.system) / 1000),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
