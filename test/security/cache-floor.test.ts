/**
 * Issue 15, item 12: with an upstream `Cache-Control: no-store` (or max-age=0), every visitor request to the
 * on-demand routes cost a full download and rewrite (a query string bypasses a CDN in front of the blog).
 * Now a copy is served for at least MIN_LIFETIME_MS (one minute), whatever the upstream says.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIN_LIFETIME_MS } from '../../src/integration/cache/feed-cache.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { handleRss } from '../../src/integration/routes/route-handlers.js';
import { RSS_BODY, startUpstream, type Upstream } from './upstream.js';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(
    (_req, res) =>
      void res.writeHead(200, { 'Content-Type': 'application/rss+xml', 'Cache-Control': 'no-store' }).end(RSS_BODY),
  );
});
afterAll(async () => {
  await upstream?.close();
});

it(`100 visitor requests under upstream no-store: one upstream request (a ${MIN_LIFETIME_MS / 1000} s floor)`, async () => {
  expect(MIN_LIFETIME_MS).toBe(60_000);
  const { route } = resolveOptions(
    { siteId: 31, baseUrl: upstream.url },
    { site: 'https://blog.example.com', base: '/', output: 'server', trailingSlash: 'ignore' },
    {},
  );
  for (let i = 0; i < 100; i++) {
    const response = await handleRss(route, {
      params: {},
      isPrerendered: false,
      url: new URL(`https://blog.example.com/rss.xml?v=${i}`),
    } as never);
    expect(response.status).toBe(200);
  }
  expect(upstream.requests).toHaveLength(1);
});
