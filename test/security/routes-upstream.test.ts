/**
 * The sitemap and RSS routes fetch only the configured service's two public feed URLs. Whatever a visitor
 * sends (path parameters, query, headers, a Host or Forwarded header naming another server), the upstream
 * request is the same, carries no Authorization header, and no other server is ever contacted. (The same
 * holds through a real @astrojs/node server: test/astro/integration-on-demand.test.ts.)
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { handleRss, handleSitemap, type FeedRouteContext } from '../../src/integration/routes/route-handlers.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';

let sim: Simulator;
let evil: { server: Server; url: string; hits: number };

beforeAll(async () => {
  sim = await startSimulator({ articles: 5 });
  evil = {
    server: createServer((_req, res) => {
      evil.hits += 1;
      res.end('<urlset/>');
    }),
    url: '',
    hits: 0,
  };
  await new Promise<void>((resolve) => evil.server.listen(0, '127.0.0.1', resolve));
  const address = evil.server.address();
  evil.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => evil?.server.close(resolve));
});

/** A visitor's request as Astro would hand it to the route, with everything a visitor controls made hostile. */
function visitor(path: string, part?: string): FeedRouteContext {
  const url = new URL(
    `https://blog.example.com${path}?url=${encodeURIComponent(evil.url)}&siteId=13&baseUrl=${encodeURIComponent(evil.url)}`,
  );
  const request = new Request(url, {
    headers: {
      host: new URL(evil.url).host,
      forwarded: `host=${new URL(evil.url).host};proto=http`,
      'x-forwarded-host': new URL(evil.url).host,
      'x-publisher-site': '13',
      authorization: 'Bearer btb_visitor_supplied',
      cookie: 'session=abc',
    },
  });
  return {
    params: part === undefined ? {} : { part },
    isPrerendered: false,
    request,
    url,
  } as unknown as FeedRouteContext;
}

it('hostile paths, parameters, queries and headers never change the upstream request', async () => {
  const { route } = resolveOptions(
    { siteId: 12, baseUrl: sim.url, sitemap: { maxUrlsPerFile: 2 } },
    { site: 'https://blog.example.com', base: '/', output: 'server', trailingSlash: 'ignore' },
    {},
  );
  sim.resetStats();
  const parts = [
    '1',
    '2',
    '3',
    '0',
    '-1',
    '999999',
    '1e3',
    '../13',
    '..%2F..%2Fapi%2Fsites%2F13%2Fsitemap',
    `${evil.url}/x`,
    '1?siteId=13',
    '%00',
    ' 1',
  ];
  const responses: Array<[string, number]> = [];
  for (const part of parts)
    responses.push([part, (await handleSitemap(route, visitor(`/sitemap-${part}.xml`, part))).status]);
  responses.push(['/sitemap.xml', (await handleSitemap(route, visitor('/sitemap.xml'))).status]);
  responses.push(['/rss.xml', (await handleRss(route, visitor('/rss.xml'))).status]);

  // 5 articles, 2 URLs a file: an index with parts 1..3; every other "part" is a 404 made locally.
  expect(Object.fromEntries(responses)).toEqual({
    1: 200,
    2: 200,
    3: 200,
    0: 404,
    '-1': 404,
    999999: 404,
    '1e3': 404,
    '../13': 404,
    '..%2F..%2Fapi%2Fsites%2F13%2Fsitemap': 404,
    [`${evil.url}/x`]: 404,
    '1?siteId=13': 404,
    '%00': 404,
    ' 1': 404,
    '/sitemap.xml': 200,
    '/rss.xml': 200,
  });
  expect(evil.hits).toBe(0);
  const requests = sim.stats().requests;
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(['/api/sites/12/sitemap.xml', '/api/sites/12/rss.xml']).toContain(request.path);
    expect(request.authorization).toBe(false);
    expect(request.tokenIn).toEqual([]);
  }
});
