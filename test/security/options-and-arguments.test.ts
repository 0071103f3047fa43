/**
 * Options and command-line arguments are hostile until checked: wrong types, negative or huge numbers,
 * URLs with credentials or other schemes, slugs with path traversal. Each is refused with a clear message
 * naming the option (and never echoing a credential) before any request: the simulator sees nothing.
 * (test/client/security.test.ts and test/unit/*-options.test.ts cover the everyday cases of each part;
 * this file is the hostile sweep across the client, the loader, the integration and the CLI.)
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, createClient, type ClientOptions } from '../../src/client/index.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { articlesLoader } from '../../src/loader/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { runCli } from '../cli/run-cli.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ articles: 3 });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(() => sim.resetStats());

const SECRET = 'hunter2pw';
const noRequests = () => {
  const stats = sim.stats();
  expect(stats.authenticated + stats.public, JSON.stringify(stats.routes)).toBe(0);
};

function thrown(run: () => unknown): Error & { option?: string; hint?: string } {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

async function rejected(run: () => Promise<unknown>): Promise<Error & { option?: string }> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not reject');
}

describe('client', () => {
  it('createClient: other schemes, credentials, wrong types, negative and huge numbers', () => {
    const port = new URL(sim.url).port;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl'],
      [{ baseUrl: 'javascript:alert(1)' }, 'baseUrl'],
      [{ baseUrl: 'data:text/plain,hi' }, 'baseUrl'],
      [{ baseUrl: `ws://127.0.0.1:${port}` }, 'baseUrl'],
      [{ baseUrl: '//evil.example/' }, 'baseUrl'],
      [{ baseUrl: `http://admin:${SECRET}@127.0.0.1:${port}` }, 'baseUrl'],
      [{ baseUrl: `http://btb_leakcheck_url@127.0.0.1:${port}` }, 'baseUrl'],
      [{ baseUrl: `${sim.url}/?api_key=${SECRET}` }, 'baseUrl'],
      [{ baseUrl: 42 }, 'baseUrl'],
      [{ baseUrl: sim.url, apiKey: `sk_${SECRET}` }, 'apiKey'],
      [{ baseUrl: sim.url, apiKey: 12345 }, 'apiKey'],
      [{ baseUrl: sim.url, timeoutMs: -1 }, 'timeoutMs'],
      [{ baseUrl: sim.url, timeoutMs: 1e12 }, 'timeoutMs'],
      [{ baseUrl: sim.url, timeoutMs: Number.NaN }, 'timeoutMs'],
      [{ baseUrl: sim.url, timeoutMs: '30000' }, 'timeoutMs'],
      [{ baseUrl: sim.url, generateTimeoutMs: Number.POSITIVE_INFINITY }, 'generateTimeoutMs'],
      [{ baseUrl: sim.url, retries: 1000 }, 'retries'],
      [{ baseUrl: sim.url, retries: -1 }, 'retries'],
      [{ baseUrl: sim.url, maxRetryAfterMs: 1e10 }, 'maxRetryAfterMs'],
      [{ baseUrl: sim.url, concurrency: 0 }, 'concurrency'],
      [{ baseUrl: sim.url, concurrency: 1e6 }, 'concurrency'],
      [{ baseUrl: sim.url, maxResponseBytes: 2 ** 40 }, 'maxResponseBytes'],
      [{ baseUrl: sim.url, fetch: 'curl' }, 'fetch'],
    ];
    for (const [options, option] of cases) {
      const error = thrown(() => createClient(options as ClientOptions));
      const label = JSON.stringify(options);
      expect(error, label).toBeInstanceOf(ConfigError);
      expect(error.option, label).toBe(option);
      expect(error.message, label).toMatch(new RegExp(`^\`${option}\` `));
      expect(error.message, label).not.toContain(SECRET);
      expect(error.message, label).not.toContain('leakcheck');
    }
    noRequests();
  });

  it('arguments: slugs with path traversal (including "."), ids that are not safe positive integers', async () => {
    const client = createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro });
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => client.article(12, '.'), 'slug'],
      [() => client.article(12, '..'), 'slug'],
      [() => client.article(12, '../13'), 'slug'],
      [() => client.article(12, '..\\13'), 'slug'],
      [() => client.article(12, 'a/../../../me'), 'slug'],
      [() => client.article(12, 'x?limit=1'), 'slug'],
      [() => client.article(12, 'x#frag'), 'slug'],
      [() => client.article(12, 'x\u0000y'), 'slug'],
      [() => client.article(12, 42 as unknown as string), 'slug'],
      [() => client.articles(2 ** 53), 'siteId'],
      [() => client.articles(Number.POSITIVE_INFINITY), 'siteId'],
      [() => client.articles(-12), 'siteId'],
      [() => client.articles('12/../13' as unknown as number), 'siteId'],
      [() => client.rss(1e21), 'siteId'],
      [() => client.articles(12, { limit: -1 }), 'query.limit'],
      [() => client.articles(12, { limit: 1e300 }), 'query.limit'],
    ];
    for (const [call, option] of cases) {
      const error = await rejected(call);
      expect(error, String(call)).toBeInstanceOf(ConfigError);
      expect(error.option, String(call)).toBe(option);
    }
    noRequests();
  });
});

describe('articlesLoader', () => {
  it('refuses hostile options at definition time, naming the option, never echoing a secret', () => {
    const base = { siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ siteId: -1 }, 'siteId'],
      [{ siteId: 1e21 }, 'siteId'],
      [{ siteId: '12; DROP' }, 'siteId'],
      [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl'],
      [{ baseUrl: 'javascript:alert(1)' }, 'baseUrl'],
      [{ baseUrl: `https://user:${SECRET}@service.example.com` }, 'baseUrl'],
      [{ apiKey: SECRET }, 'apiKey'],
      [{ apiKey: ['btb_x'] }, 'apiKey'],
      [{ budget: { maxRequests: -1 } }, 'budget.maxRequests'],
      [{ budget: { maxRequests: 1e12 } }, 'budget.maxRequests'],
      [{ budget: { maxRequests: '20' } }, 'budget.maxRequests'],
      [{ budget: { reserve: -5 } }, 'budget.reserve'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 1e9 }, 'limit'],
      [{ language: '../../etc' }, 'language'],
      [{ status: 'x'.repeat(500) }, 'status'],
      [{ revalidateAfterHours: -1 }, 'revalidateAfterHours'],
      [{ refresh: 'always' }, 'refresh'],
      [{ strict: 'yes' }, 'strict'],
      [{ sanitize: { allowedTags: ['script'] } }, 'sanitize.allowedTags.0'],
      [{ sanitize: { allowedAttributes: { a: ['onclick'] } } }, 'sanitize.allowedAttributes.a.0'],
      [{ sanitize: { allowedSchemes: ['javascript'] } }, 'sanitize.allowedSchemes.0'],
      [{ sanitize: false }, 'sanitize'],
      [{ fetch: () => undefined }, 'fetch'],
    ];
    for (const [options, option] of cases) {
      const label = JSON.stringify(options);
      const error = thrown(() => articlesLoader({ ...base, ...options } as never));
      expect(error, label).toBeInstanceOf(ConfigError);
      expect(error.option, label).toBe(option);
      expect(error.message, label).toContain('articlesLoader(');
      expect(error.message, label).not.toContain(SECRET);
    }
    noRequests();
  });
});

describe('integration (publisher options)', () => {
  const astro = {
    site: 'https://blog.example.com',
    base: '/',
    output: 'static' as const,
    trailingSlash: 'ignore' as const,
  };
  it('refuses hostile options with an AstroError naming the option, never echoing a secret', () => {
    const base = { siteId: 12, baseUrl: sim.url };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ siteId: -1 }, '`siteId`'],
      [{ siteId: 2 ** 60 }, '`siteId`'],
      [{ siteId: 'x' }, '`siteId`'],
      [{ baseUrl: 'file:///etc/passwd' }, '`baseUrl`'],
      [{ baseUrl: 'gopher://127.0.0.1:70/' }, '`baseUrl`'],
      [{ baseUrl: `http://u:${SECRET}@127.0.0.1:1/` }, '`baseUrl`'],
      [{ baseUrl: `${sim.url}?token=${SECRET}` }, '`baseUrl`'],
      [{ timeoutMs: -1 }, '`timeoutMs`'],
      [{ timeoutMs: 'slow' }, '`timeoutMs`'],
      // Past the timer range (2^31 - 1 ms) a timeout fires at once, or throws at the first request.
      [{ timeoutMs: 3e9 }, '`timeoutMs`'],
      [{ timeoutMs: 1e12 }, '`timeoutMs`'],
      [{ sitemap: { path: '/../../etc/passwd.xml' } }, '`sitemap.path`'],
      [{ sitemap: { path: 'https://evil.example/sitemap.xml' } }, '`sitemap.path`'],
      [{ rss: { path: '/rss.xml?x=1' } }, '`rss.path`'],
      [{ sitemap: { maxUrlsPerFile: 1e9 } }, '`sitemap.maxUrlsPerFile`'],
      [{ articlePattern: 'javascript:[slug]' }, '`articlePattern`'],
      [{ devRefresh: { endpoint: '/x?y' } }, '`devRefresh.endpoint`'],
      // A poll interval past the timer range would poll in a tight loop.
      [{ devRefresh: { pollIntervalMs: 1e12 } }, '`devRefresh.pollIntervalMs`'],
      [{ devRefresh: { pollIntervalMs: -1 } }, '`devRefresh.pollIntervalMs`'],
    ];
    const accepted: string[] = [];
    for (const [options, option] of cases) {
      const label = JSON.stringify(options);
      let error: (Error & { hint?: string }) | undefined;
      try {
        resolveOptions({ ...base, ...options }, astro, {});
        accepted.push(label);
        continue;
      } catch (e) {
        error = e as Error & { hint?: string };
      }
      expect(error.name, label).toBe('AstroUserError');
      expect(error.message, label).toContain(option);
      expect(`${error.message}\n${error.hint ?? ''}`, label).not.toContain(SECRET);
    }
    expect(accepted, 'hostile options accepted').toEqual([]);
    noRequests();
  });
});

describe('command line', () => {
  const env = () => ({ PUBLISHER_API_KEY: sim.tokens.pro, PUBLISHER_BASE_URL: sim.url });
  const cases: Array<[string, string[], RegExp]> = [
    ['a negative site id', ['articles', '--', '-1'], /<site> must be a positive integer/],
    ['an exponent', ['articles', '1e3'], /<site> must be a positive integer \(got "1e3"\)/],
    ['a huge site id', ['articles', '99999999999999999999'], /<site> must be a positive integer/],
    ['a site id with a path', ['articles', '12/../13'], /<site> must be a positive integer/],
    ['a negative limit', ['articles', '12', '--limit=-5'], /--limit must be a positive integer/],
    ['a limit that is not a number', ['articles', '12', '--limit', '10;rm'], /--limit must be a positive integer/],
    ['a slug with a path', ['article', '12', '../13'], /`slug` must not contain "\/"/],
    ['the slug "."', ['article', '12', '.'], /`slug` must not be "\."/],
    [
      'a file: service URL',
      ['me', '--base-url', 'file:///etc/passwd'],
      /--base-url \(or PUBLISHER_BASE_URL\) must use http or https/,
    ],
    [
      'a service URL with credentials',
      ['me', '--base-url', `http://admin:${SECRET}@127.0.0.1:1`],
      /--base-url \(or PUBLISHER_BASE_URL\) must not contain credentials/,
    ],
    [
      'a site id for watch',
      ['watch', '--site', '-3', '--once', '--run', 'true'],
      /--site must be a positive integer|Option '--site' argument is ambiguous/,
    ],
    [
      'a zero interval',
      ['watch', '--site', '12', '--run', 'true', '--interval', '0s'],
      /--interval must be a duration/,
    ],
    [
      'an interval past the timer range',
      ['watch', '--site', '12', '--once', '--run', 'true', '--interval', '99999999h'],
      /--interval must be a duration/,
    ],
    [
      'a hook timeout past the timer range',
      ['watch', '--site', '12', '--once', '--hook', 'http://127.0.0.1:1/', '--hook-timeout', '9999999h'],
      /--hook-timeout must be a duration/,
    ],
    [
      'a hook with another scheme',
      ['watch', '--site', '12', '--once', '--hook', 'file:///etc/passwd'],
      /--hook must be an http\(s\) URL/,
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 2, one clear line, no request`, async () => {
      // A watch that wrongly starts must not write its state into the repository.
      const state =
        args[0] === 'watch'
          ? ['--state', join(tmpdir(), `acp-security-${process.pid}-${Math.random().toString(36).slice(2)}.json`)]
          : [];
      const result = await runCli([...args, ...state], { env: env() });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')[0]).toMatch(/^content-publisher: /);
      expect(result.stderr).not.toContain(SECRET);
      expect(result.stdout).toBe('');
      noRequests();
    });
  }
});
