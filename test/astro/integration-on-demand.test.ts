import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  admin,
  buildSite,
  fixtureArticles,
  locsOf,
  removeBuilds,
  RSS_ROUTE,
  SITEMAP_ROUTE,
} from '../fixtures/integration-helpers/index.js';
import { fakeDateAhead } from '../support/timing.js';

type Handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;

// On-demand output: a real @astrojs/node server on 127.0.0.1 whose routes fetch the simulator per request
// through the in-memory cache. The tests run in order: each builds on the cache state of the previous.
describe('integration, on-demand output (@astrojs/node)', () => {
  let sim: Simulator;
  let server: Server;
  let blog: string;
  const publicRequests = () => sim.stats().requests.filter((r) => r.route === SITEMAP_ROUTE || r.route === RSS_ROUTE);

  beforeAll(async () => {
    sim = await startSimulator({ articles: 60 });
    const outDir = await buildSite('integration-ssr', {
      site: 'https://blog.example.com',
      output: 'server',
      adapter: node({ mode: 'standalone' }),
      // The articles' pages render on demand: the routes list them.
      integrations: [publisher({ siteId: 12, baseUrl: sim.url }), fixtureArticles([], 'on-demand')],
    });
    // The built server, started by the test on a free loopback port with the adapter's own handler.
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as { handler: Handler };
    delete process.env.ASTRO_NODE_AUTOSTART;
    server = createServer(entry.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    blog = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sim.resetStats();
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await sim.close();
    await removeBuilds();
  });

  it('502 with a generic plain message when the upstream fails and nothing is cached; not asked again within errorRetryMs', async () => {
    // The server runs in this process: its clock is set a minute back while the upstream fails, so that the
    // failure's retry time (30 s) has passed when the real clock is back for the next tests.
    fakeDateAhead(-60_000);
    try {
      await admin(sim.url, 'POST', 'faults', { route: SITEMAP_ROUTE, status: 500 });
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${blog}/sitemap.xml`);
        expect(response.status).toBe(502);
        expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        const text = await response.text();
        // The details (upstream URL and status) go to the server log only: test/security/redirects.test.ts.
        expect(text).not.toContain(sim.url);
        expect(text).not.toContain('500');
      }
      expect(publicRequests()).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it('/sitemap-index.xml, the name themes link to, answers the same sitemap (issue 38)', async () => {
    const [ours, alias] = await Promise.all([fetch(`${blog}/sitemap.xml`), fetch(`${blog}/sitemap-index.xml`)]);
    expect(alias.status).toBe(200);
    expect(alias.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await alias.text()).toBe(await ours.text());
  });

  it('sitemap: content type, cache header, rewritten URLs and the static pages', async () => {
    const response = await fetch(`${blog}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const locs = locsOf(await response.text());
    expect(locs).toHaveLength(62);
    expect(locs.every((loc) => loc.startsWith('https://blog.example.com/'))).toBe(true);
    expect(locs.slice(60)).toEqual(['https://blog.example.com/', 'https://blog.example.com/about/']);
  });

  it('cache: a second request makes no upstream request', async () => {
    const before = publicRequests().length;
    expect((await fetch(`${blog}/sitemap.xml`)).status).toBe(200);
    expect(publicRequests().length).toBe(before);
  });

  it('rss: content type, cache header, 50 items read by a feed reader', async () => {
    // From now on the upstream says max-age=0, so that every later request revalidates.
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, headers: { 'cache-control': 'public, max-age=0' } });
    const response = await fetch(`${blog}/rss.xml`);
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const feed = await new Parser().parseString(await response.text());
    expect(feed.items).toHaveLength(50);
    expect(feed.items.every((item) => item.link?.startsWith('https://blog.example.com/blog/'))).toBe(true);
  });

  it('revalidation: an expired copy is revalidated with a conditional request, and a 304 reuses it', async () => {
    sim.resetStats();
    // max-age=0 is raised to the one-minute floor: the server (in this process) is moved past it each time.
    // The expired copy is served at once and revalidated in the background (stale-while-revalidate).
    fakeDateAhead(61_000);
    const first = await (await fetch(`${blog}/rss.xml`)).text();
    await vi.waitFor(() => expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 304: 1 }));
    // The 304 is counted when the simulator sends it; the cache takes its new lifetime a moment later,
    // from the (fake) clock of that moment: let it, before the clock moves on.
    await new Promise((resolve) => setTimeout(resolve, 500));
    fakeDateAhead(122_000);
    const second = await fetch(`${blog}/rss.xml`);
    expect(await second.text()).toBe(first);
    await vi.waitFor(() => expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 304: 2 }));
  });

  it('stale-if-error: the upstream fails, the last good copy is served', async () => {
    const good = await (await fetch(`${blog}/rss.xml`)).text();
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, status: 500 });
    sim.resetStats();
    // Past the lifetime the last revalidation gave the copy (at 122 s ahead, one minute).
    fakeDateAhead(183_000);
    const response = await fetch(`${blog}/rss.xml`);
    vi.useRealTimers();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(good);
    await vi.waitFor(() => expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 500: 1 }));
    await admin(sim.url, 'DELETE', 'faults');
  });

  it("a visitor's path, query and headers never change the upstream URL", async () => {
    sim.resetStats();
    const hostile = { 'X-Forwarded-Host': 'evil.example', 'X-Publisher-Site': '13', Forwarded: 'host=evil.example' };
    const responses = await Promise.all([
      fetch(`${blog}/sitemap.xml?siteId=13&url=http://evil.example/&baseUrl=http://evil.example`, { headers: hostile }),
      fetch(`${blog}/rss.xml?siteId=13&upstream=http%3A%2F%2F127.0.0.1%3A1%2F`, { headers: hostile }),
      fetch(`${blog}/sitemap-1.xml?siteId=13`, { headers: hostile }),
      fetch(`${blog}/sitemap-..%2F..%2Fapi%2Fsites%2F13%2Fsitemap.xml`, { headers: hostile }),
    ]);
    expect(responses.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
    expect(responses[2]?.status).toBe(404); // not split: there is no part 1
    expect(responses[3]?.status).toBe(404);
    for (const request of sim.stats().requests) {
      expect(['/api/sites/12/sitemap.xml', '/api/sites/12/rss.xml']).toContain(request.path);
      expect(request.authorization).toBe(false);
    }
  });
});

// On demand the routes cannot see which pages answer, but the build sees the routes: a blog with no page route at
// articlePattern serves no article, so its sitemap and feed name none (before: every article, each a 404).
describe('integration, on demand, on a blog without an article route', () => {
  let sim: Simulator;
  let server: Server | undefined;
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await sim?.close();
    await removeBuilds();
  });

  it('the sitemap lists its own pages only and the feed no item', async () => {
    sim = await startSimulator({ articles: 6 });
    const outDir = await buildSite('integration-ssr', {
      site: 'https://blog.example.com',
      output: 'server',
      adapter: node({ mode: 'standalone' }),
      integrations: [publisher({ siteId: 12, baseUrl: sim.url })],
    });
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as { handler: Handler };
    delete process.env.ASTRO_NODE_AUTOSTART;
    server = createServer(entry.handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const blog = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sitemap = await (await fetch(`${blog}/sitemap.xml`)).text();
    expect(locsOf(sitemap)).toEqual(['https://blog.example.com/', 'https://blog.example.com/about/']);
    const feed = await (await fetch(`${blog}/rss.xml`)).text();
    expect(feed).toContain('<channel>');
    expect(feed).not.toContain('<item>');
  }, 120_000);
});
