/**
 * Issue 15, item 3: a compromised or misconfigured upstream answers its feeds (and API calls) with redirects
 * to an internal address. Before: the routes fetched the internal address and served its answer publicly at
 * /rss.xml (and reported its status to visitors); the loader's, the dev poll's and the watcher's feed calls
 * followed too. Now every fetch of this package follows only same-origin redirects, at most MAX_REDIRECTS in
 * a row; the on-demand routes show visitors a generic 502 and log the details.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AstroIntegrationLogger } from 'astro';
import { createClient, ResponseFormatError } from '../../src/client/index.js';
import { fetchPublicFeed, MAX_REDIRECTS, UpstreamFeedError } from '../../src/client/public-feed.js';
import { startFeedPoll } from '../../src/integration/dev/dev-poll.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { handleRss, handleSitemap, VISITOR_502 } from '../../src/integration/routes/route-handlers.js';
import { readRss, readSitemap } from '../../src/loader/sync/feed-signals.js';
import { pollFeeds } from '../../src/watch/poll.js';
import { RSS_BODY, SITEMAP_BODY, startUpstream, type Upstream } from './upstream.js';

let internal: Upstream;
let service: Upstream;

beforeAll(async () => {
  internal = await startUpstream((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(
      `<rss version="2.0"><channel><title>INTERNAL-SECRET</title><item><title>INTERNAL-SECRET</title></item></channel></rss>`,
    );
  });
  service = await startUpstream((req, res, self) => {
    const path = req.url ?? '';
    const redirect = (status: number, location: string) => {
      res.writeHead(status, { Location: location });
      res.end();
    };
    // Site 12: every feed and API call redirects to another origin (an internal address).
    if (path === '/api/sites/12/rss.xml') return redirect(302, `${internal.url}/admin/rss`);
    if (path === '/api/sites/12/sitemap.xml') return redirect(307, `${internal.url}/admin/sitemap`);
    if (path.startsWith('/api/v1/sites/12/')) return redirect(302, `${internal.url}/admin/api`);
    // Site 21: a same-origin redirect (a moved path) to the real feeds, which is followed.
    if (path === '/api/sites/21/rss.xml') return redirect(301, '/feeds/21/rss.xml');
    if (path === '/api/sites/21/sitemap.xml') return redirect(308, `${self}/feeds/21/sitemap.xml`);
    if (path === '/feeds/21/rss.xml')
      return void res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(RSS_BODY);
    if (path === '/feeds/21/sitemap.xml')
      return void res.writeHead(200, { 'Content-Type': 'application/xml' }).end(SITEMAP_BODY);
    // Site 22: an endless same-origin loop.
    if (path.startsWith('/api/sites/22/rss.xml'))
      return redirect(302, `/api/sites/22/rss.xml?n=${service.requests.length}`);
    res.writeHead(404).end();
  });
});
afterAll(async () => {
  await service?.close();
  await internal?.close();
});

const astro = {
  site: 'https://blog.example.com',
  base: '/',
  output: 'server' as const,
  trailingSlash: 'ignore' as const,
};
const routeFor = (siteId: number) => resolveOptions({ siteId, baseUrl: service.url }, astro, {}).route;

describe('the on-demand routes', () => {
  it('do not follow a redirect to another origin: generic 502 to the visitor, details in the server log', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
    try {
      const route = routeFor(12);
      for (const response of [
        await handleRss(route, { params: {}, isPrerendered: false }),
        await handleSitemap(route, { params: {}, isPrerendered: false }),
      ]) {
        expect(response.status).toBe(502);
        const text = await response.text();
        expect(text.trim()).toBe(VISITOR_502);
        expect(text).not.toContain('127.0.0.1');
        expect(text).not.toMatch(/30[27]/);
      }
    } finally {
      spy.mockRestore();
    }
    expect(internal.requests).toEqual([]);
    expect(errors.join('\n')).toContain(
      `${service.url}/api/sites/12/rss.xml answered 302 to another origin (${internal.url})`,
    );
    expect(errors.join('\n')).toContain(
      `${service.url}/api/sites/12/sitemap.xml answered 307 to another origin (${internal.url})`,
    );
  });

  it('fail the build with the redirect named when prerendering', async () => {
    const error = await handleRss({ ...routeFor(12), dev: false }, { params: {}, isPrerendered: true }).catch(
      (e: unknown) => e,
    );
    // The build's error: the upstream failure in its message and as `upstream`, what to check as its hint.
    const cause = (error as Error & { upstream: unknown }).upstream;
    expect(cause).toBeInstanceOf(UpstreamFeedError);
    expect((cause as UpstreamFeedError).reason).toBe('redirect');
    expect((error as Error).message).toMatch(
      /^\[astro-content-publisher\] The RSS feed was not built: .*only same-origin redirects are followed/,
    );
    expect((error as Error & { hint: string }).hint).toMatch(
      /Check `baseUrl`: it must be the service's own address, not one that redirects elsewhere/,
    );
    expect(internal.requests).toEqual([]);
  });

  it('follow a same-origin redirect (a moved path)', async () => {
    const response = await handleRss(routeFor(21), { params: {}, isPrerendered: false });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('https://blog.example.com/blog/one/');
  });
});

describe('the shared public-feed fetcher', () => {
  it(`stops an endless same-origin loop after ${MAX_REDIRECTS} redirects`, async () => {
    const before = service.requests.length;
    const error = await fetchPublicFeed(`${service.url}/api/sites/22/rss.xml`, {
      timeoutMs: 5_000,
      maxBytes: 1_000_000,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(new RegExp(`more than ${MAX_REDIRECTS} redirects in a row`));
    expect(service.requests.length - before).toBe(MAX_REDIRECTS + 1);
  });
});

describe('the client (the loader and the watcher)', () => {
  const client = () => createClient({ baseUrl: service.url, apiKey: 'btb_redirect_test_key', retries: 2 });

  it("the loader's feed calls: refused, not retried, the internal address never asked", async () => {
    const c = client();
    const feedHits = () => service.requests.filter((r) => /^\/api\/sites\/12\/(rss|sitemap)\.xml$/.test(r.path)).length;
    const before = feedHits();
    for (const call of [() => readRss(c, 12, undefined), () => readSitemap(c, 12, undefined)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseFormatError);
      expect((error as Error).message).toMatch(/redirect not followed: .* to another origin/);
    }
    // Not retried (retries: 2): one request per feed.
    expect(feedHits() - before).toBe(2);
    expect(internal.requests).toEqual([]);
  });

  it("the watcher's poll: refused; a same-origin move is followed", async () => {
    const error = await pollFeeds(client(), 12, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseFormatError);
    const ok = await pollFeeds(client(), 21, undefined);
    expect(ok.rss.notModified).toBe(false);
    expect(internal.requests).toEqual([]);
  });

  it('an authenticated call redirected to another origin: the key never travels there', async () => {
    const before = service.requests.filter((r) => r.path.startsWith('/api/v1/sites/12/')).length;
    const error = await client()
      .articles(12)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(service.requests.filter((r) => r.path.startsWith('/api/v1/sites/12/')).length - before).toBe(1);
    expect(internal.requests).toEqual([]);
  });
});

it('the dev poll: refused and logged, the internal address never asked', async () => {
  const warnings: string[] = [];
  const logger = {
    warn: (m: string) => warnings.push(m),
    info: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  } as unknown as AstroIntegrationLogger;
  const stop = startFeedPoll({
    rssUrl: `${service.url}/api/sites/12/rss.xml`,
    interval: 20,
    timeoutMs: 2_000,
    logger,
    onChange: async () => undefined,
  });
  try {
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(0), { timeout: 3_000 });
  } finally {
    stop();
  }
  expect(warnings[0]).toMatch(/RSS poll failed, will retry: .*answered 302 to another origin/);
  expect(internal.requests).toEqual([]);
});
