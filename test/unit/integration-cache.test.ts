import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseRssFeed } from '../../src/feeds/index.js';
import { feedDigest } from '../../src/integration/dev/dev-poll.js';
import { setupDevRefresh } from '../../src/integration/dev/dev-refresh.js';
import { FeedCache } from '../../src/integration/cache/feed-cache.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, RSS_ROUTE } from '../fixtures/integration-helpers/index.js';

// The on-demand cache and the dev RSS poll against the simulator over HTTP, with a controlled clock.
describe('integration feed cache', () => {
  let sim: Simulator;
  let now = 0;
  const rssUrl = () => `${sim.url}/api/sites/12/rss.xml`;
  const cache = (extra: Partial<ConstructorParameters<typeof FeedCache<string>>[0]> = {}) =>
    new FeedCache<string>({
      url: rssUrl(),
      timeoutMs: 5000,
      maxBytes: 10_000_000,
      transform: (body) => (parseRssFeed(body, { url: rssUrl() }), body.slice(0, 200)),
      now: () => now,
      ...extra,
    });

  beforeAll(async () => {
    sim = await startSimulator({ articles: 5 });
  });
  beforeEach(async () => {
    now = 0;
    await admin(sim.url, 'POST', 'reset');
  });
  afterAll(async () => {
    await sim.close();
  });

  it('fresh for the upstream max-age (one hour), then revalidated with a 304', async () => {
    const feeds = cache();
    expect((await feeds.get()).outcome).toBe('fetched');
    now = 3_599_000;
    expect((await feeds.get()).outcome).toBe('fresh');
    now = 3_600_000;
    expect((await feeds.get()).outcome).toBe('revalidated');
    expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 200: 1, 304: 1 });
  });

  it('a longer upstream max-age is capped at one hour; no-store is raised to the one-minute floor', async () => {
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, headers: { 'cache-control': 'public, max-age=86400' } });
    const feeds = cache();
    await feeds.get();
    now = 3_600_000;
    expect((await feeds.get()).outcome).toBe('revalidated');
    await admin(sim.url, 'DELETE', 'faults');
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, headers: { 'cache-control': 'no-store' } });
    now = 0;
    const uncached = cache();
    await uncached.get();
    expect((await uncached.get()).outcome).toBe('fresh');
    now = 59_999;
    expect((await uncached.get()).outcome).toBe('fresh');
    now = 60_000;
    expect((await uncached.get()).outcome).toBe('revalidated');
  });

  it('remake: the copy is made again for what changed, from a 304, and from the kept body while the upstream fails', async () => {
    // On demand, a new live list changes what the feed routes make of the same feed (route-handlers.ts): a copy
    // made for the old list is never served again, and an outage at that moment still has the kept body.
    let made = 'list-1';
    const feeds = cache({ transform: (body) => `${made}:${body.length}` });
    const first = await feeds.get();
    expect(first.value).toMatch(/^list-1:\d+$/);
    made = 'list-2';
    feeds.remake();
    sim.resetStats();
    const revalidated = await feeds.get();
    expect(revalidated).toEqual({ outcome: 'revalidated', value: first.value.replace('list-1', 'list-2') });
    expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 304: 1 });

    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, status: 503 });
    made = 'list-3';
    feeds.remake();
    const stale = await feeds.get();
    expect(stale).toEqual({ outcome: 'stale', value: first.value.replace('list-1', 'list-3') });
    // Within errorRetryMs the remade copy is served, not the one made for list-2.
    expect((await feeds.get()).value).toBe(stale.value);
  });

  it('remake during a refresh: the value that refresh makes is not kept as current; the next one is made for the change', async () => {
    let made = 'list-1';
    let hold: Promise<void> | undefined = undefined; // the first transform runs at once
    const feeds = cache({
      transform: async (body) => {
        const list = made; // what the value is made for: read when the transform starts
        await hold;
        return `${list}:${body.length}`;
      },
    });
    await feeds.get();
    made = 'list-2';
    feeds.remake();
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    const during = feeds.get(); // its transform reads list-2, then waits
    await new Promise((resolve) => setTimeout(resolve, 100));
    made = 'list-3';
    feeds.remake();
    const after = feeds.get();
    release();
    expect((await during).value).toMatch(/^list-2:/);
    expect((await after).value).toMatch(/^list-3:/);
    expect((await feeds.get()).value).toMatch(/^list-3:/);
  });

  it('a changed feed is fetched again in full', async () => {
    const feeds = cache({ transform: (body) => body });
    const before = (await feeds.get()).value;
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'A new one' });
    now = 3_600_000;
    const after = await feeds.get();
    expect(after.outcome).toBe('fetched');
    expect(after.value).not.toBe(before);
    expect(after.value).toContain('A new one');
  });

  it('stale-if-error: an HTML error page upstream, the last good copy is served, and the failing upstream is not asked again for errorRetryMs', async () => {
    const feeds = cache({ errorRetryMs: 60_000 });
    const good = (await feeds.get()).value;
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, body: 'html' });
    now = 3_600_000;
    sim.resetStats();
    expect(await feeds.get()).toEqual({ value: good, outcome: 'stale' });
    now += 59_000;
    expect(await feeds.get()).toEqual({ value: good, outcome: 'stale' });
    expect(sim.stats().public).toBe(1);
  });

  it('nothing cached and the upstream fails: get() rejects with the URL', async () => {
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, status: 503 });
    await expect(cache().get()).rejects.toThrow(`Could not get ${rssUrl()}: the service answered 503`);
  });

  it('nothing cached and the upstream down: the failure is answered again without asking the upstream until errorRetryMs passed', async () => {
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, status: 503 });
    const feeds = cache({ errorRetryMs: 60_000 });
    const message = `Could not get ${rssUrl()}: the service answered 503`;
    for (let i = 0; i < 3; i++) await expect(feeds.get()).rejects.toThrow(message);
    now = 59_000;
    await expect(feeds.get()).rejects.toThrow(message);
    expect(sim.stats().public).toBe(1);
    await admin(sim.url, 'DELETE', 'faults');
    now = 60_000;
    expect((await feeds.get()).outcome).toBe('fetched');
    expect(sim.stats().public).toBe(2);
  });

  it('a body over the size cap is refused while it streams in, naming the URL', async () => {
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, body: 'huge', hugeBytes: 3_000_000 });
    await expect(cache({ maxBytes: 1_000_000 }).get()).rejects.toThrow(`Could not get ${rssUrl()}: the response is`);
  });

  it('concurrent requests share one upstream request', async () => {
    const feeds = cache();
    await Promise.all([feeds.get(), feeds.get(), feeds.get()]);
    expect(sim.stats().public).toBe(1);
  });

  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 50 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const startPoll = (refreshContent: (options: unknown) => Promise<void>, pollIntervalMs = 1000) => {
    const httpServer = new EventEmitter();
    const server = { middlewares: { use: () => {} }, httpServer };
    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    return setupDevRefresh({
      server: server as never,
      refreshContent,
      logger: logger as never,
      endpoint: '/_publisher/refresh',
      // The poll's retries are the subject here, not the refresh throttle (test/security/dev-refresh.test.ts).
      minIntervalMs: 0,
      pollIntervalMs,
      loaders: ['astro-content-publisher:articles'],
      rssUrl: rssUrl(),
      timeoutMs: 5000,
    });
  };

  it('dev poll: refreshes once when the feed changed, and an unchanged feed costs a 304', async () => {
    const refreshed: unknown[] = [];
    const stop = startPoll(async (options) => void refreshed.push(options));
    try {
      await waitFor(() => (sim.stats().routes[RSS_ROUTE]?.['304'] ?? 0) >= 1);
      expect(refreshed).toEqual([]);
      await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Polled in' });
      await waitFor(() => refreshed.length > 0);
      expect(refreshed).toEqual([{ loaders: ['astro-content-publisher:articles'] }]);
    } finally {
      stop();
    }
  });

  it('dev poll: a hung upstream never has two polls in flight (the next is scheduled when one finished)', async () => {
    await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, delayMs: 1500 });
    const stop = startPoll(async () => {}, 100);
    const answered = () => Object.values(sim.stats().routes[RSS_ROUTE] ?? {}).reduce((sum, n) => sum + n, 0);
    try {
      // setInterval would have sent a request every 100 ms: about eight answered by now.
      await new Promise((r) => setTimeout(r, 2300));
      expect(answered()).toBe(1);
    } finally {
      stop();
    }
    await waitFor(() => answered() >= 2); // the poll in flight when stopped: let it end inside this test
    await new Promise((r) => setTimeout(r, 300));
    expect(answered()).toBe(2);
  });

  it('dev poll: a failed refresh is tried again at the next poll (the change is not recorded until it succeeded)', async () => {
    let calls = 0;
    const stop = startPoll(async () => {
      calls += 1;
      if (calls === 1) throw new Error('content sync failed');
    }, 100);
    try {
      await waitFor(() => (sim.stats().routes[RSS_ROUTE]?.['304'] ?? 0) >= 1);
      await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Refreshed on the second try' });
      await waitFor(() => calls >= 2);
      expect(calls).toBe(2);
      await new Promise((r) => setTimeout(r, 400)); // refreshed: later polls are 304s again
      expect(calls).toBe(2);
    } finally {
      stop();
    }
  });

  it('dev poll digest: a new lastBuildDate alone is no change; a changed item is', async () => {
    const body = await (await fetch(rssUrl())).text();
    expect(body).toMatch(/<lastBuildDate>[^<]+<\/lastBuildDate>/);
    const rebuilt = body.replace(
      /<lastBuildDate>[^<]+<\/lastBuildDate>/,
      '<lastBuildDate>Mon, 01 Jan 2035 00:00:00 GMT</lastBuildDate>',
    );
    expect(rebuilt).not.toBe(body);
    expect(feedDigest(rebuilt, rssUrl())).toBe(feedDigest(body, rssUrl()));
    expect(body).toContain('<content:encoded><![CDATA[');
    const edited = body.replace('<content:encoded><![CDATA[', '<content:encoded><![CDATA[<p>Edited.</p>');
    expect(feedDigest(edited, rssUrl())).not.toBe(feedDigest(body, rssUrl()));
  });
});
