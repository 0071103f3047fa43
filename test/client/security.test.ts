import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  createClient,
  MissingApiKeyError,
  type Client,
  type ClientOptions,
} from '../../src/client/index.js';
import { closedPort, fault, rejection, totalRequests } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

describe('arguments are checked before any request', () => {
  it('bad options throw from createClient and the service sees nothing', async () => {
    const port = new URL(sim().url).port;
    const bad: Array<[Partial<ClientOptions>, string]> = [
      [{ baseUrl: `http://user:pw@127.0.0.1:${port}` }, 'baseUrl'],
      [{ baseUrl: `ftp://127.0.0.1:${port}` }, 'baseUrl'],
      [{ baseUrl: sim().url, apiKey: 'sim_pro_1' }, 'apiKey'],
      [{ baseUrl: sim().url, timeoutMs: 0 }, 'timeoutMs'],
    ];
    for (const [options, option] of bad) {
      expect(() => createClient(options as ClientOptions)).toThrow(ConfigError);
      try {
        createClient(options as ClientOptions);
      } catch (error) {
        expect((error as ConfigError).option).toBe(option);
      }
    }
    expect(totalRequests(sim())).toBe(0);
  });

  it('siteId, slug, query and generate body: ConfigError naming the argument, 0 requests', async () => {
    const client = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro });
    const cases: Array<[() => Promise<unknown>, string, string]> = [
      [
        () => client.articles(0),
        'siteId',
        '`siteId` must be a positive integer (got 0). Pass the numeric id of one of your sites (client.sites() lists them).',
      ],
      [() => client.articles(-3), 'siteId', '(got -3)'],
      [() => client.keywords(1.5), 'siteId', '(got 1.5)'],
      [() => client.digest('12' as unknown as number), 'siteId', '(got "12")'],
      [() => client.sitemap(Number.NaN), 'siteId', '(got NaN)'],
      [() => client.article(12, 'a/b'), 'slug', '`slug` must not contain "/" (got "a/b")'],
      [() => client.article(12, '..'), 'slug', '`slug` must not contain ".."'],
      [() => client.article(12, ''), 'slug', '`slug` must not be empty'],
      [() => client.articles(12, { limit: 2.5 }), 'query.limit', '`query.limit` must be a positive integer (got 2.5)'],
      [() => client.generate(12, {}), 'body.topic', '`body.topic` or `body.title` is required for generate'],
      [() => client.generate(12, { topic: 'x', type: 'news', article_type: 'guide' }), 'body.type', 'disagree'],
    ];
    for (const [call, option, text] of cases) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).option).toBe(option);
      expect(error.message).toContain(text);
      expect(error.message.startsWith(`\`${option}\``)).toBe(true);
      // The client reads no environment variable (PUBLISHER_SITE_ID is the loaders' and the integration's).
      expect(error.message).not.toContain('PUBLISHER_');
    }
    expect(totalRequests(sim())).toBe(0);
    expect(client.requestCount).toBe(0);
  });

  it('no apiKey: authenticated calls throw MissingApiKeyError, the feeds still work', async () => {
    const client = createClient({ baseUrl: sim().url });
    const error = await rejection(client.me());
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ option: 'apiKey', method: 'GET', path: '/api/v1/me/' });
    // The client reads no environment variable: PUBLISHER_API_KEY would not help here.
    expect(error.message).toBe(
      '`apiKey` is missing: GET /api/v1/me/ needs an API key. Pass createClient({ apiKey }) (create a token in the dashboard at /account/api-keys; it starts with btb_).',
    );
    expect(sim().stats().authenticated).toBe(0);
    expect((await client.sitemap(12)).status).toBe(200);
  });
});

describe('the key never leaves the Authorization header', () => {
  const LEAK = 'btb_leakcheck_client_7';

  function assertClean(error: unknown, secret: string): void {
    const e = error as Error & { cause?: Error };
    const surfaces = [
      e.message,
      String(e),
      JSON.stringify(e),
      e.stack ?? '',
      String(e.cause ?? ''),
      e.cause?.stack ?? '',
      JSON.stringify(Object.entries(e)),
    ];
    for (const surface of surfaces) expect(surface).not.toContain(secret);
  }

  it('in errors of every kind and in every log line', async () => {
    const lines: string[] = [];
    const logger = { debug: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
    const errors: unknown[] = [];
    const collect = async (client: Client, call: (c: Client) => Promise<unknown>) =>
      errors.push(await rejection(call(client)));

    // An unknown key: 401.
    const unknown = createClient({ baseUrl: sim().url, apiKey: LEAK, logger });
    await collect(unknown, (c) => c.me());
    // The service (or a proxy) echoing the key in its error body, on a retried GET.
    const pro = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro, logger, timeoutMs: 300 });
    await fault(sim(), {
      route: 'GET /api/v1/sites/',
      status: 500,
      json: { error: `invalid token ${sim().tokens.pro} (Bearer ${sim().tokens.pro})` },
    });
    await collect(pro, (c) => c.sites());
    await fault(sim(), {
      route: 'GET /api/v1/sites/:id/keywords/',
      status: 429,
      retryAfter: 999,
      json: { error: `slow down ${sim().tokens.pro}` },
    });
    await collect(pro, (c) => c.keywords(12));
    await fault(sim(), { route: 'GET /api/v1/me/', delayMs: 1000 });
    await collect(pro, (c) => c.me());
    await fault(sim(), { route: 'GET /api/v1/sites/:id/digest/weekly/', body: 'html' });
    await collect(pro, (c) => c.digest(12));
    await collect(pro, (c) => c.article(12, 'missing'));
    await collect(pro, (c) => c.article(12, sim().tokens.pro + '/x'));
    // No service at all.
    const nowhere = createClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: LEAK,
      logger,
      retries: 1,
    });
    await collect(nowhere, (c) => c.me());

    expect(errors.map((e) => (e as Error).name)).toEqual([
      'UnauthorizedError',
      'ServerError',
      'RateLimitError',
      'TimeoutError',
      'ResponseFormatError',
      'NotFoundError',
      'ConfigError',
      'NetworkError',
    ]);
    for (const error of errors) {
      assertClean(error, LEAK);
      assertClean(error, sim().tokens.pro);
    }
    expect((errors[1] as { apiMessage: string }).apiMessage).toBe(
      'invalid token btb_[redacted] (Bearer btb_[redacted])',
    );
    expect(lines.length).toBeGreaterThan(8);
    expect(lines.some((line) => line.includes('retry 1 of 2'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(LEAK);
      expect(line).not.toContain(sim().tokens.pro);
    }
    // On the wire: only in the header of authenticated calls, never in a URL or a body.
    const requests = sim().stats().requests;
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.tokenIn).toEqual(['header']);
  });

  it('POST bodies and public feeds carry no key', async () => {
    const client = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro });
    await client.audit({ content: '<p>hi</p>', keyword: 'hi' });
    await client.rss(12);
    const [audit, feed] = sim().stats().requests;
    expect(audit).toMatchObject({ route: 'POST /api/v1/audit/', authorization: true, tokenIn: ['header'] });
    expect(feed).toMatchObject({ route: 'GET /api/sites/:id/rss.xml', authorization: false, tokenIn: [] });
  });
});
