import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/client/index.js';
import {
  articleDataSchema,
  articlesLoader,
  digestLoader,
  keywordsLoader,
  liveArticlesLoader,
} from '../../src/loader/index.js';
import { loaderFingerprint, loaderKey } from '../../src/loader/state/fingerprint.js';
import { publisherLoaderNames } from '../../src/integration/dev/dev-refresh.js';

const ok = { siteId: 12, baseUrl: 'http://127.0.0.1:9', apiKey: 'btb_sim_pro_1' };

/**
 * The message of a loader's ConfigError. Those of the content-config loaders say they are a user's error, so that
 * a build prints their hint (where every option is described) rather than Astro's advice about a syntax error
 * (src/loader/errors/astro-errors.ts); the fix is in the message, which `astro dev` prints alone.
 */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const { message, hint, type } = error as ConfigError & { type?: unknown };
    if (type !== undefined) {
      expect(type).toBe('AstroUserError');
      expect(hint).toBe(
        'Every option and its default: https://www.npmjs.com/package/astro-content-publisher#articlesloader-options',
      );
      expect(message).not.toContain(hint);
    }
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('articlesLoader options', () => {
  it('returns a named loader with a schema; defaults fit a Pro plan', () => {
    const loader = articlesLoader(ok);
    expect(loader.name).toBe('astro-content-publisher:articles');
    expect(typeof loader.load).toBe('function');
    // The very object users may name (`schema: articleDataSchema`): loader-featured.test.ts builds with the
    // loader's schema only, which covers both.
    expect(loader.schema).toBe(articleDataSchema);
  });

  it('siteId: names the option, the bad value and both ways to set it', () => {
    expect(messageOf(() => articlesLoader({ ...ok, siteId: 'abc' as unknown as number }))).toBe(
      '`siteId` must be a positive integer (got "abc"). Set it in articlesLoader({ siteId }) or the environment variable PUBLISHER_SITE_ID',
    );
    expect(messageOf(() => articlesLoader({ ...ok, siteId: -3 }))).toContain(
      '`siteId` must be a positive integer (got -3)',
    );
  });

  it('the loaders of content.config.ts leave the final period to Astro, which adds one; the live loader keeps it', async () => {
    const saved = { ...process.env };
    try {
      delete process.env.PUBLISHER_SITE_ID;
      delete process.env.PUBLISHER_API_KEY;
      const rest = { baseUrl: ok.baseUrl, apiKey: ok.apiKey };
      expect(messageOf(() => keywordsLoader(rest))).toBe(
        '`siteId` is required. Set it in keywordsLoader({ siteId }) or the environment variable PUBLISHER_SITE_ID',
      );
      expect(messageOf(() => digestLoader({ siteId: 12, baseUrl: ok.baseUrl }))).toBe(
        '`apiKey` is required. Set it in digestLoader({ apiKey }) or the environment variable PUBLISHER_API_KEY',
      );
      // A live collection's config is not evaluated by astro sync: its message is a whole sentence. A setting
      // missing at import is read again at the first call (an edge adapter's environment exists only then): the
      // error of that call, not a throw in live.config.ts.
      const live = liveArticlesLoader(rest);
      const answer = await live.loadEntry({ filter: { id: 'any-slug' } });
      expect(answer && 'error' in answer ? answer.error?.message : answer).toBe(
        '`siteId` is required. Set it in liveArticlesLoader({ siteId }) or the environment variable PUBLISHER_SITE_ID.',
      );
      // So is a malformed key from the environment: that call's error, never echoed.
      process.env.PUBLISHER_API_KEY = 'sk_live_leakcheck_secret';
      const malformed = await liveArticlesLoader({ siteId: 12, baseUrl: ok.baseUrl }).loadEntry({
        filter: { id: 'any-slug' },
      });
      const error = malformed && 'error' in malformed ? malformed.error : undefined;
      expect(error?.message).toContain('`apiKey` must start with btb_ (the value is not shown)');
      expect(error?.message).not.toContain('leakcheck');
      expect(messageOf(() => articlesLoader({ ...ok, baseUrl: 'http://cms.example.com' }))).toBe(
        '`baseUrl` uses plain http to cms.example.com, which is not this machine: the API key would travel in cleartext. Use https, or set articlesLoader({ allowInsecureHttp: true }) on a trusted private network',
      );
    } finally {
      process.env = saved;
    }
  });

  it('missing values are read from PUBLISHER_* and otherwise named as required', () => {
    const saved = { ...process.env };
    try {
      process.env.PUBLISHER_SITE_ID = '13';
      process.env.PUBLISHER_BASE_URL = 'https://api.example.com';
      process.env.PUBLISHER_API_KEY = 'btb_sim_pro_1';
      expect(articlesLoader().name).toBe('astro-content-publisher:articles');
      delete process.env.PUBLISHER_API_KEY;
      expect(messageOf(() => articlesLoader())).toBe(
        '`apiKey` is required. Set it in articlesLoader({ apiKey }) or the environment variable PUBLISHER_API_KEY',
      );
    } finally {
      process.env = saved;
    }
  });

  it('a bad key is refused without being echoed', () => {
    const message = messageOf(() => articlesLoader({ ...ok, apiKey: 'sk_live_leakcheck_secret' }));
    expect(message).toContain('`apiKey` must start with btb_ (the value is not shown)');
    expect(message).not.toContain('leakcheck');
  });

  it('baseUrl must be http(s) without credentials', () => {
    expect(messageOf(() => articlesLoader({ ...ok, baseUrl: 'ftp://x.example' }))).toContain(
      '`baseUrl` must use http or https (got "ftp:")',
    );
    const withCredentials = messageOf(() =>
      articlesLoader({ ...ok, baseUrl: 'https://user:btb_leakcheck_pw@x.example' }),
    );
    expect(withCredentials).toContain('`baseUrl` must not contain credentials (got "https://***@x.example")');
    expect(withCredentials).not.toContain('leakcheck');
  });

  it('build-time loaders have fixed names, which the dev refresh passes to refreshContent (live loaders have nothing to refresh)', () => {
    const names = [
      articlesLoader({ ...ok, siteId: 77, language: 'fr' }),
      keywordsLoader({ ...ok, siteId: 77 }),
      digestLoader({ ...ok, siteId: 77 }),
    ].map((l) => l.name);
    expect(names).toEqual([
      'astro-content-publisher:articles',
      'astro-content-publisher:keywords',
      'astro-content-publisher:digest',
    ]);
    expect(articlesLoader({ ...ok, siteId: 78 }).name).toBe(names[0]);
    expect(publisherLoaderNames(undefined)).toEqual(names);
    expect(publisherLoaderNames(['astro-content-publisher:digest'])).toEqual(['astro-content-publisher:digest']);
    expect(publisherLoaderNames(undefined)).not.toContain(liveArticlesLoader({ ...ok, siteId: 77 }).name);
  });

  it("baseUrl: a query string or fragment is refused up front with the loader's message, without echoing it", () => {
    const message = messageOf(() => keywordsLoader({ ...ok, baseUrl: 'https://x.example/?token=btb_leakcheck_q' }));
    expect(message).toBe(
      '`baseUrl` must not contain a query string or fragment (got "https://x.example/?..."). Set it in keywordsLoader({ baseUrl }) or the environment variable PUBLISHER_BASE_URL',
    );
    expect(messageOf(() => articlesLoader({ ...ok, baseUrl: 'https://x.example/#top' }))).toContain(
      '`baseUrl` must not contain a query string or fragment (got "https://x.example/#...")',
    );
  });

  it('baseUrl: an address ending in /api/v1 is refused with the address to use, from the option or PUBLISHER_BASE_URL', () => {
    expect(messageOf(() => articlesLoader({ ...ok, baseUrl: 'http://127.0.0.1:4321/api/v1' }))).toBe(
      '`baseUrl` must be the service address without /api/v1 (got "http://127.0.0.1:4321/api/v1"): drop the /api/v1, as in "http://127.0.0.1:4321". Set it in articlesLoader({ baseUrl }) or the environment variable PUBLISHER_BASE_URL',
    );
    expect(messageOf(() => keywordsLoader({ ...ok, baseUrl: 'https://x.example/svc/api/v1/' }))).toContain(
      'drop the /api/v1, as in "https://x.example/svc"',
    );
    const saved = { ...process.env };
    try {
      process.env.PUBLISHER_BASE_URL = 'http://127.0.0.1:4321/api/v1';
      expect(messageOf(() => digestLoader({ siteId: 12, apiKey: ok.apiKey }))).toContain(
        '`baseUrl` must be the service address without /api/v1',
      );
    } finally {
      process.env = saved;
    }
    // A path that merely starts like it is another service's prefix, not the API path.
    expect(articlesLoader({ ...ok, baseUrl: 'https://x.example/api/v10' }).name).toBe(
      'astro-content-publisher:articles',
    );
  });

  it('budget, limit, language, refresh are checked; unknown options are refused by name', () => {
    expect(messageOf(() => articlesLoader({ ...ok, budget: { maxRequests: 0 } }))).toContain(
      '`budget.maxRequests` must be a whole number of requests from 1 to 100000 (got 0). Fix it in articlesLoader({ budget })',
    );
    // Over the bound, the message says the bound (it said "must be a positive integer (got 1000000)").
    expect(messageOf(() => articlesLoader({ ...ok, budget: { maxRequests: 1_000_000 } }))).toContain(
      '`budget.maxRequests` must be a whole number of requests from 1 to 100000 (got 1000000).',
    );
    expect(messageOf(() => articlesLoader({ ...ok, budget: { reserve: -1 } }))).toContain(
      '`budget.reserve` must be a whole number of requests from 0 to 100000 (got -1).',
    );
    expect(messageOf(() => articlesLoader({ ...ok, limit: 5000 }))).toContain('`limit`');
    expect(messageOf(() => articlesLoader({ ...ok, language: 'english!' }))).toContain(
      '`language` must be a language code',
    );
    expect(messageOf(() => articlesLoader({ ...ok, refresh: 'always' as 'force' }))).toContain('`refresh`');
    expect(messageOf(() => articlesLoader({ ...ok, sitId: 12 } as never))).toContain(
      'Unknown option `sitId` for articlesLoader()',
    );
  });

  it('timeoutMs: a positive integer of milliseconds up to the timer range, on every loader', () => {
    // The content-config loaders' link to the options is their hint (messageOf); the live loader's message has it.
    const expected = (factory: string, got: string) =>
      `\`timeoutMs\` must be a whole number of milliseconds from 1 to 2147483647 (got ${got}). Fix it in ${factory}({ timeoutMs })${factory === 'liveArticlesLoader' ? '. Every option and its default: https://www.npmjs.com/package/astro-content-publisher#articlesloader-options' : ''}`;
    expect(messageOf(() => articlesLoader({ ...ok, timeoutMs: 0 }))).toBe(expected('articlesLoader', '0'));
    expect(messageOf(() => articlesLoader({ ...ok, timeoutMs: 1.5 }))).toBe(expected('articlesLoader', '1.5'));
    expect(messageOf(() => keywordsLoader({ ...ok, timeoutMs: 2_147_483_648 }))).toBe(
      expected('keywordsLoader', '2147483648'),
    );
    expect(messageOf(() => digestLoader({ ...ok, timeoutMs: '300' as unknown as number }))).toBe(
      expected('digestLoader', '"300"'),
    );
    expect(messageOf(() => liveArticlesLoader({ ...ok, timeoutMs: -1 }))).toBe(expected('liveArticlesLoader', '-1'));
    expect(() => articlesLoader({ ...ok, timeoutMs: 2_147_483_647 })).not.toThrow();
    expect(() => liveArticlesLoader({ ...ok, timeoutMs: 1 })).not.toThrow();
  });

  it("sanitise options keep the sanitiser's own message (sanitising cannot be switched off)", () => {
    expect(messageOf(() => articlesLoader({ ...ok, sanitize: { allowedTags: ['script'] } }))).toContain(
      '`sanitize.allowedTags` cannot allow <script>',
    );
  });

  it('several loaders stay apart: one name per kind, but log labels and meta keys differ per site and filters', async () => {
    /** The label of the logger a loader logs through (read from fork(), which then stops the load). */
    const labelOf = async (loader: { load: (context: never) => unknown }): Promise<string> => {
      let label = '';
      const stop = new Error('label read');
      const fork = (name: string): never => {
        label = name;
        throw stop;
      };
      const context = { logger: { fork } };
      // A load may throw at once or reject (an async load): either way fork() stopped it.
      await expect(Promise.resolve().then(() => loader.load(context as never))).rejects.toBe(stop);
      return label;
    };
    const labels = await Promise.all(
      [
        articlesLoader(ok),
        articlesLoader({ ...ok, language: 'fr' }),
        articlesLoader({ ...ok, siteId: 13 }),
        keywordsLoader(ok),
        digestLoader(ok),
      ].map(labelOf),
    );
    expect(labels).toEqual([
      'astro-content-publisher:articles:site-12',
      'astro-content-publisher:articles:site-12:lang-fr',
      'astro-content-publisher:articles:site-13',
      'astro-content-publisher:keywords:site-12',
      'astro-content-publisher:digest:site-12',
    ]);
    expect(loaderKey({ siteId: 12, language: 'fr', limit: 10 })).toBe('site-12:lang-fr:limit-10');
  });

  it('the fingerprint follows the sanitise options and the policy version, not their key order', () => {
    const a = loaderFingerprint({
      siteId: 12,
      sanitize: { allowedTags: ['mark'], allowedIframeHosts: ['player.vimeo.com'] },
    });
    const b = loaderFingerprint({
      siteId: 12,
      sanitize: { allowedIframeHosts: ['player.vimeo.com'], allowedTags: ['mark'] },
    });
    expect(a).toBe(b);
    expect(loaderFingerprint({ siteId: 12 })).not.toBe(a);
    expect(loaderFingerprint({ siteId: 12 }, '0.1.0', 'policy-1')).not.toBe(
      loaderFingerprint({ siteId: 12 }, '0.1.0', 'policy-2'),
    );
  });
});
