/**
 * The on-demand sitemap bounds the URLs of one upstream file at the protocol's 50,000 (issue 37, finding 5):
 * within its 50 MiB, one urlset could hold about 520,000 URLs, and every refresh parsed and rewrote them all.
 * The upstream is a real node:http server on loopback; the route is the real handler, on demand.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { boundUrlset, MAX_UPSTREAM_URLS } from '../../src/feeds/sitemap-url-bound.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';
import { handleSitemap } from '../../src/integration/routes/route-handlers.js';
import { locsOf } from '../fixtures/integration-helpers/index.js';

const TOTAL = 120_000;

function urlset(count: number, prefix = ''): string {
  const p = prefix ? `${prefix}:` : '';
  const urls: string[] = [];
  for (let i = 0; i < count; i++)
    urls.push(`<${p}url><${p}loc>https://pro-blog.example.com/blog/p-${i}/</${p}loc></${p}url>`);
  const ns = prefix ? `xmlns:${prefix}` : 'xmlns';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${p}urlset ${ns}="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</${p}urlset>\n`;
}

describe('upstream sitemap: at most 50,000 URLs per file', () => {
  let server: Server;
  let origin: string;
  const body = urlset(TOTAL);

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml', 'cache-control': 'no-store' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('on demand: the first 50,000 are served, and the server log says how many the file had and why', async () => {
    const config: RouteConfig = {
      siteId: 12,
      serviceOrigin: origin,
      sitemapUrl: `${origin}/api/sites/12/sitemap.xml`,
      rssUrl: `${origin}/api/sites/12/rss.xml`,
      blogSite: 'https://blog.example.com/',
      articlePattern: '/blog/[slug]/',
      trailingSlash: 'ignore',
      timeoutMs: 10_000,
      sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
      rss: { path: '/rss.xml' },
      dev: false,
      localPages: [],
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const response = await handleSitemap(config, { params: {}, isPrerendered: false });
      expect(response.status).toBe(200);
      const locs = locsOf(await response.text());
      expect(locs).toHaveLength(MAX_UPSTREAM_URLS);
      expect(locs.at(-1)).toBe(`https://blog.example.com/blog/p-${MAX_UPSTREAM_URLS - 1}/`);
      const said = warn.mock.calls.map((call) => String(call[0])).join('\n');
      expect(said).toContain(
        `The sitemap ${config.sitemapUrl} lists 120,000 URLs; the sitemap protocol allows 50,000 per file, so only its first 50,000 are served.`,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('boundUrlset: prefixed elements; end tags in comments and CDATA do not count; within the bound, unchanged', () => {
    const small = urlset(3, 'sm');
    expect(boundUrlset(small, 3)).toEqual({ xml: small });
    const cut = boundUrlset(small, 2);
    expect(cut.total).toBe(3);
    expect(locsOf(cut.xml.replaceAll('sm:', ''))).toHaveLength(2);
    expect(cut.xml.trimEnd().endsWith('</sm:urlset>')).toBe(true);
    const tricky = urlset(3).replace('<url>', '<!-- </url></url> --><url><![CDATA[</url>]]>');
    expect(boundUrlset(tricky, 3)).toEqual({ xml: tricky });
    const index = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></sitemapindex>';
    expect(boundUrlset(index, 0)).toEqual({ xml: index });
  });
});
