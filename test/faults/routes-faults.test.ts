/**
 * The sitemap and RSS routes under every upstream fault (the integration's route handlers and feed cache,
 * fetching from the simulator over HTTP):
 * - at build time (prerendered) there is no earlier copy to serve: the build fails with one line naming the
 *   upstream URL and the reason, after exactly one request (the routes never retry, so never storm);
 * - on demand, with a good copy in the cache, the last good copy is served (stale-if-error) with one
 *   warning, and a failing upstream is not asked again before `errorRetryMs`.
 */
import { describe, expect, it } from 'vitest';
import { buildRss, buildSitemap } from '../../src/integration/proxy/feed-transform.js';
import { FeedCache } from '../../src/integration/cache/feed-cache.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { handleRss, handleSitemap } from '../../src/integration/routes/route-handlers.js';
import { addFault, clearFaults, hits, publish, ROUTES, settledStats, timed, useFaultSimulator } from './helpers.js';

const sim = useFaultSimulator({ articles: 5 });

const astro = {
  site: 'https://blog.example.com',
  base: '/',
  output: 'static' as const,
  trailingSlash: 'ignore' as const,
};
/** A short timeout only where the latency is the fault: a 64 MiB body takes longer than that on a busy machine. */
const route = (row: { name: string }) =>
  resolveOptions(
    { siteId: 12, baseUrl: sim().url, timeoutMs: row.name.startsWith('latency') ? 400 : 15_000 },
    astro,
    {},
  ).route;

const ROWS: Array<{ name: string; fault: Record<string, unknown>; reason: RegExp }> = [
  { name: '429 with a short Retry-After', fault: { status: 429, retryAfter: 1 }, reason: /the service answered 429/ },
  {
    name: '429 with a Retry-After over any cap',
    fault: { status: 429, retryAfter: 3600 },
    reason: /the service answered 429/,
  },
  { name: '500', fault: { status: 500 }, reason: /the service answered 500/ },
  { name: '502', fault: { status: 502 }, reason: /the service answered 502/ },
  { name: '503', fault: { status: 503 }, reason: /the service answered 503/ },
  { name: 'latency past timeoutMs', fault: { delayMs: 1_500 }, reason: /no response within 400 ms/ },
  { name: 'connection dropped mid-body', fault: { drop: 'mid-body' }, reason: /broke off|request failed/ },
  { name: 'truncated XML', fault: { body: 'truncated' }, reason: /not safe to parse/ },
  { name: 'an HTML error page with status 200', fault: { body: 'html' }, reason: /HTML/ },
  { name: 'a huge body', fault: { body: 'huge' }, reason: /size cap/ },
];

describe('routes at build time: one request, one line naming the URL and the reason', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      for (const feed of ['sitemap', 'rss'] as const) {
        await clearFaults(sim());
        sim().resetStats();
        await addFault(sim(), { route: ROUTES[feed], ...row.fault });
        const config = route(row);
        const handle = feed === 'sitemap' ? handleSitemap : handleRss;
        const outcome = await timed(() => handle(config, { params: {}, isPrerendered: true }));
        const message = (outcome.error as Error | undefined)?.message ?? '';
        expect(outcome.error, `${feed}: the build must fail`).toBeInstanceOf(Error);
        expect(message).toContain(feed === 'sitemap' ? config.sitemapUrl : config.rssUrl);
        expect(message, feed).toMatch(row.reason);
        expect(message).not.toContain('\n');
        // Bounded: a build does not wait for a hanging upstream nor read a 64 MiB body to its end. The simulator
        // writing that body runs in this process: on a machine busy with other test files it took 3.4 s once.
        expect(outcome.ms, feed).toBeLessThan(6_000);
        const stats = await settledStats(sim(), ROUTES[feed], 1);
        expect(hits(stats, ROUTES[feed]), `${feed}: requests`).toBe(1);
        expect(stats.requests.every((q) => !q.authorization)).toBe(true);
      }
    });
  }
});

describe('on demand with a good copy: stale-if-error, and no hammering of a failing upstream', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      for (const feed of ['sitemap', 'rss'] as const) {
        await clearFaults(sim());
        const config = route(row);
        let clock = 0;
        const warnings: string[] = [];
        const cache = new FeedCache<unknown>({
          url: feed === 'sitemap' ? config.sitemapUrl : config.rssUrl,
          timeoutMs: config.timeoutMs,
          maxBytes: feed === 'sitemap' ? 50 * 1024 * 1024 : 10 * 1024 * 1024,
          transform: (body) => (feed === 'sitemap' ? buildSitemap(body, config, []) : buildRss(body, config)),
          now: () => clock,
          onStale: (error) => warnings.push(error.message),
        });
        const good = await cache.get();
        expect(good.outcome).toBe('fetched');
        clock += 3_600_001; // the copy is now older than the feed's max-age
        // The feed changed upstream, so the conditional request cannot be answered 304: the fault is what comes back.
        await publish(sim(), { site: 12, title: `Changed before ${row.name} on ${feed}` });
        await addFault(sim(), { route: ROUTES[feed], ...row.fault });
        sim().resetStats();
        const stale = await cache.get();
        expect(stale.outcome, feed).toBe('stale');
        expect(stale.value).toEqual(good.value);
        expect(warnings, feed).toHaveLength(1);
        expect(warnings[0], feed).toMatch(row.reason);
        clock += 1_000; // within errorRetryMs: served from the cache without asking again
        expect((await cache.get()).outcome).toBe('stale');
        const stats = await settledStats(sim(), ROUTES[feed], 1);
        expect(hits(stats, ROUTES[feed]), `${feed}: requests`).toBe(1);
      }
    });
  }
});
