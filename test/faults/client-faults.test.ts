/**
 * The fault matrix at the client level, over real HTTP against the simulator's fault API: every fault of
 * issue 7 on the list call, a detail call and the two public feeds (read and parsed as the loader, the
 * routes and the watcher read them). Each row says what the caller sees and how many requests the service
 * received: retries are bounded, Retry-After is honoured, nothing storms.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CmsUnavailableError,
  createClient,
  NetworkError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  type Client,
  type ClientOptions,
} from '../../src/client/index.js';
import { parseRssFeed, parseSitemapEntries, XmlSafetyError } from '../../src/feeds/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { addFault, clearFaults, type Endpoint, hits, ROUTES, settledStats, timed } from './helpers.js';

let sim: Simulator;
let slug: string;

beforeAll(async () => {
  sim = await startSimulator({ articles: 12, rateLimitOverride: 100_000 });
  slug = (await client().articles(12))[0]!.slug;
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(async () => {
  await clearFaults(sim);
  sim.resetStats();
});

const MiB = 1024 * 1024;

function client(extra: Partial<ClientOptions> = {}): Client {
  return createClient({
    baseUrl: sim.url,
    apiKey: sim.tokens.pro,
    retries: 2,
    maxRetryAfterMs: 2_000,
    maxResponseBytes: MiB,
    maxFeedBytes: 2 * MiB,
    ...extra,
  });
}

/** What each caller does with the answer: the feeds are parsed exactly as the loader, routes and watcher do. */
const READ: Record<Endpoint, (c: Client) => Promise<unknown>> = {
  list: (c) => c.articles(12),
  detail: (c) => c.article(12, slug),
  sitemap: async (c) => {
    const r = await c.sitemap(12);
    return r.notModified ? [] : parseSitemapEntries(r.body, { url: r.url });
  },
  rss: async (c) => {
    const r = await c.rss(12);
    return r.notModified ? { items: [] } : parseRssFeed(r.body, { url: r.url });
  },
};

const ALL: Endpoint[] = ['list', 'detail', 'sitemap', 'rss'];
const JSON_ENDPOINTS: Endpoint[] = ['list', 'detail'];

interface Row {
  name: string;
  endpoints: Endpoint[];
  fault: (endpoint: Endpoint) => Record<string, unknown>;
  options?: Partial<ClientOptions>;
  /** Requests the service must have received for one call (retries included). */
  requests: number;
  /** Wall-clock bounds of the call, ms. */
  ms?: [number, number];
  expect: (endpoint: Endpoint, outcome: { value?: unknown; error?: unknown }) => void;
}

const fails =
  (cls: abstract new (...args: never[]) => Error, check?: (error: Error, endpoint: Endpoint) => void) =>
  (endpoint: Endpoint, outcome: { error?: unknown }) => {
    expect(outcome.error, `${endpoint}: expected ${cls.name}`).toBeInstanceOf(cls);
    check?.(outcome.error as Error, endpoint);
  };

const names = (endpoint: Endpoint) =>
  endpoint === 'list'
    ? '/api/v1/sites/12/articles/'
    : endpoint === 'detail'
      ? `/api/v1/sites/12/articles/${slug}/`
      : `/api/sites/12/${endpoint}.xml`;

const ROWS: Row[] = [
  {
    name: '429 with a short Retry-After: waited, retried once, succeeds',
    endpoints: ALL,
    fault: () => ({ status: 429, retryAfter: 1, times: 1 }),
    requests: 2,
    ms: [950, 4_000],
    expect: (endpoint, { error }) => expect(error, endpoint).toBeUndefined(),
  },
  {
    name: '429 with a Retry-After over maxRetryAfterMs: fails at once with retryAfter, no wait',
    endpoints: ALL,
    fault: () => ({ status: 429, retryAfter: 3600 }),
    requests: 1,
    ms: [0, 1_500],
    expect: fails(RateLimitError, (error, endpoint) => {
      expect((error as RateLimitError).retryAfter).toBe(3600);
      expect(error.message).toContain(`[GET] ${names(endpoint)}: 429 Too Many Requests`);
    }),
  },
  {
    name: '429 storm: one wait and one retry, then the RateLimitError',
    endpoints: ALL,
    fault: () => ({ status: 429, retryAfter: 1 }),
    requests: 2,
    ms: [950, 4_000],
    expect: fails(RateLimitError),
  },
  {
    name: '500: retried `retries` times with backoff, then ServerError naming the endpoint',
    endpoints: ALL,
    fault: () => ({ status: 500 }),
    requests: 3,
    ms: [0, 4_000],
    expect: fails(ServerError, (error, endpoint) =>
      expect(error.message).toContain(`[GET] ${names(endpoint)}: 500 Internal Server Error`),
    ),
  },
  {
    name: '503: retried `retries` times, then ServerError',
    endpoints: ALL,
    fault: () => ({ status: 503 }),
    requests: 3,
    expect: fails(ServerError, (error) => expect(error.message).toContain('503 Service Unavailable')),
  },
  {
    name: '502 (CMS unreachable): retried, then CmsUnavailableError with its hint',
    endpoints: ALL,
    fault: () => ({ status: 502 }),
    requests: 3,
    expect: fails(CmsUnavailableError, (error) => expect((error as CmsUnavailableError).hint).toMatch(/CMS/)),
  },
  {
    name: 'latency past the timeout: TimeoutError naming timeoutMs, not retried',
    endpoints: ALL,
    fault: () => ({ delayMs: 2_000 }),
    options: { timeoutMs: 300 },
    requests: 1,
    // Well before the answer would have come: the caller did not wait for it.
    ms: [250, 1_800],
    expect: fails(TimeoutError, (error) => expect(error.message).toContain('raise `timeoutMs` (now 300 ms)')),
  },
  {
    name: 'connection dropped mid-body: NetworkError after bounded retries',
    endpoints: ALL,
    fault: () => ({ drop: 'mid-body' }),
    requests: 3,
    // The service began answering: the request was served (a caller must not take it for one never sent).
    expect: fails(NetworkError, (error) => expect((error as NetworkError).answered).toBe(true)),
  },
  {
    name: 'connection dropped before the headers: NetworkError after bounded retries, not answered',
    endpoints: ALL,
    fault: () => ({ drop: 'before-headers' }),
    requests: 3,
    expect: fails(NetworkError, (error) => expect((error as NetworkError).answered).toBe(false)),
  },
  {
    name: 'truncated body: a format error naming the endpoint (JSON) or the feed URL (XML), not retried',
    endpoints: ALL,
    fault: () => ({ body: 'truncated' }),
    requests: 1,
    expect: (endpoint, { error }) => {
      if (JSON_ENDPOINTS.includes(endpoint)) {
        expect(error).toBeInstanceOf(ResponseFormatError);
        expect((error as ResponseFormatError).endpoint).toBe(`GET ${names(endpoint)}`);
        expect((error as Error).message).toContain('does not parse as JSON');
      } else {
        expect(error).toBeInstanceOf(XmlSafetyError);
        expect((error as Error).message).toContain(`${sim.url}${names(endpoint)}`);
      }
    },
  },
  {
    name: 'an HTML error page with status 200: ResponseFormatError "expected JSON/XML, got an HTML page", not retried',
    endpoints: ALL,
    fault: () => ({ body: 'html' }),
    requests: 1,
    expect: fails(ResponseFormatError, (error) =>
      expect(error.message).toMatch(
        /expected (JSON|XML), got an HTML page "200 Service Error" \(text\/html; charset=utf-8\)\. Check that `baseUrl` points at the service itself \(not a proxy, a login page or an error page\)\.$/,
      ),
    ),
  },
  {
    name: 'schema drift, a renamed field: ResponseFormatError with the field path',
    endpoints: JSON_ENDPOINTS,
    fault: (endpoint) => ({
      drift: endpoint === 'list' ? { rename: { slug: 'article_slug' } } : { rename: { content: 'body' } },
    }),
    requests: 1,
    expect: fails(ResponseFormatError, (error, endpoint) =>
      expect((error as ResponseFormatError).fieldPath).toBe(endpoint === 'list' ? 'results[0].slug' : 'content'),
    ),
  },
  {
    name: 'schema drift, a required field missing: ResponseFormatError with the field path',
    endpoints: JSON_ENDPOINTS,
    fault: () => ({ drift: { omit: ['title'] } }),
    requests: 1,
    expect: fails(ResponseFormatError, (error, endpoint) =>
      expect((error as ResponseFormatError).fieldPath).toBe(endpoint === 'list' ? 'results[0].title' : 'title'),
    ),
  },
  {
    name: 'schema drift, `article_type` and other extra fields: accepted and kept (tolerant reading)',
    endpoints: JSON_ENDPOINTS,
    fault: () => ({ drift: { add: { article_type: 'guide', reading_time: { minutes: 4 } } } }),
    requests: 1,
    expect: (endpoint, { value, error }) => {
      expect(error).toBeUndefined();
      const record = (endpoint === 'list' ? (value as unknown[])[0] : value) as Record<string, unknown>;
      expect(record.article_type).toBe('guide');
      expect(record.reading_time).toEqual({ minutes: 4 });
    },
  },
  {
    name: 'schema drift in a feed (renamed elements, extra elements): read without error, unknown parts ignored',
    endpoints: ['sitemap', 'rss'],
    fault: (endpoint) => ({
      body:
        endpoint === 'sitemap'
          ? '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://pro-blog.example.com/blog/a/</loc><priority>0.5</priority><x:extra xmlns:x="urn:x">1</x:extra></url><url><location>https://pro-blog.example.com/blog/b/</location></url></urlset>'
          : '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>A</title><link>https://pro-blog.example.com/blog/a/</link><x:extra xmlns:x="urn:x">1</x:extra></item><item><heading>B</heading></item></channel></rss>',
    }),
    requests: 1,
    expect: (endpoint, { value, error }) => {
      expect(error).toBeUndefined();
      if (endpoint === 'sitemap')
        expect((value as Array<{ loc: string }>).map((e) => e.loc)).toEqual(['https://pro-blog.example.com/blog/a/']);
      else
        expect((value as { items: Array<{ link?: string }> }).items[0]?.link).toBe(
          'https://pro-blog.example.com/blog/a/',
        );
    },
  },
  {
    name: 'a list that suddenly comes back empty: an empty answer, not an error (the loader decides, see loader-faults)',
    endpoints: ['list', 'sitemap', 'rss'],
    fault: (endpoint) =>
      endpoint === 'list'
        ? { json: { results: [] } }
        : {
            body:
              endpoint === 'sitemap'
                ? '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
                : '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>',
          },
    requests: 1,
    expect: (endpoint, { value, error }) => {
      expect(error).toBeUndefined();
      expect(endpoint === 'rss' ? (value as { items: unknown[] }).items : value).toEqual([]);
    },
  },
  {
    name: 'a huge body: refused at the size cap (maxResponseBytes / maxFeedBytes), not retried',
    endpoints: ALL,
    fault: () => ({ body: 'huge', hugeBytes: 4 * MiB }),
    requests: 1,
    ms: [0, 3_000],
    expect: fails(ResponseFormatError, (error, endpoint) => {
      const option = JSON_ENDPOINTS.includes(endpoint) ? 'maxResponseBytes' : 'maxFeedBytes';
      expect(error.message).toContain(`[GET] ${names(endpoint)}: 200 OK: unexpected response: the body is `);
      expect(error.message).toContain(`cap of \`${option}\``);
      expect((error as ResponseFormatError).hint).toContain(`raise \`${option}\``);
    }),
  },
];

describe('fault matrix: list call, detail call, sitemap, RSS', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      for (const endpoint of row.endpoints) {
        await clearFaults(sim);
        sim.resetStats();
        await addFault(sim, { route: ROUTES[endpoint], ...row.fault(endpoint) });
        const outcome = await timed(() => READ[endpoint](client(row.options)));
        row.expect(endpoint, outcome);
        const stats = await settledStats(sim, ROUTES[endpoint], row.requests);
        expect(hits(stats, ROUTES[endpoint]), `${endpoint}: requests received`).toBe(row.requests);
        if (row.ms) {
          expect(outcome.ms, `${endpoint}: elapsed`).toBeGreaterThanOrEqual(row.ms[0]);
          expect(outcome.ms, `${endpoint}: elapsed`).toBeLessThan(row.ms[1]);
        }
        // Nothing but the faulted route was called, and the feeds never carried the key.
        expect(stats.authenticated + stats.public).toBe(row.requests);
        for (const request of stats.requests) expect(request.authorization).toBe(JSON_ENDPOINTS.includes(endpoint));
      }
    });
  }
});

describe('no retry storm under load', () => {
  it('20 concurrent detail calls in a 429 storm or a 500 storm: at most 2 and 3 requests each, 4 in flight', async () => {
    const c = client({ concurrency: 4 });
    await addFault(sim, { route: ROUTES.detail, status: 429, retryAfter: 1 });
    const storm = await timed(() => Promise.allSettled(Array.from({ length: 20 }, () => c.article(12, slug))));
    expect((storm.value ?? []).every((r) => r.status === 'rejected' && r.reason instanceof RateLimitError)).toBe(true);
    expect(hits(sim.stats(), ROUTES.detail)).toBe(40);
    // Honoured: 20 calls, 4 at a time, each waits its 1 s Retry-After before its one retry.
    expect(storm.ms).toBeGreaterThanOrEqual(950);

    await clearFaults(sim);
    sim.resetStats();
    await addFault(sim, { route: ROUTES.detail, status: 500 });
    const errors = await Promise.allSettled(Array.from({ length: 20 }, () => c.article(12, slug)));
    expect(errors.every((r) => r.status === 'rejected' && r.reason instanceof ServerError)).toBe(true);
    expect(hits(sim.stats(), ROUTES.detail)).toBe(60);
    expect(c.requestCount).toBe(100);
  });

  it('a 503 with a Retry-After over the cap is not waited for, nor retried', async () => {
    await addFault(sim, { route: ROUTES.list, status: 503, retryAfter: 600 });
    const outcome = await timed(() => client().articles(12));
    expect(outcome.error).toBeInstanceOf(ServerError);
    expect(outcome.ms).toBeLessThan(900);
    expect(hits(sim.stats(), ROUTES.list)).toBe(1);
  });
});
