/**
 * Issue 15, items 8 and 14: what a `baseUrl` can leak.
 * - Item 8: an unparseable baseUrl with credentials (`http://u:S3CRET@[bad`, or the backslash form) was echoed
 *   by the client, the loader and the integration. Now an unparseable URL is never echoed, only its length.
 * - Item 14: a plain `http://` baseUrl to another machine sent the key in cleartext. Decision: refused, in the
 *   client and every loader, unless `allowInsecureHttp: true` says the network is trusted; loopback is always
 *   accepted (the simulator, a local proxy). The integration's routes send no key and are not concerned.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, createClient } from '../../src/client/index.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { articlesLoader, keywordsLoader, liveArticlesLoader } from '../../src/loader/index.js';

const KEY = 'btb_baseurl_test_key_1234';
const astro = {
  site: 'https://blog.example.com',
  base: '/',
  output: 'static' as const,
  trailingSlash: 'ignore' as const,
};
const messageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    const e = error as Error & { hint?: string };
    return `${e.message}\n${e.hint ?? ''}\n${JSON.stringify(e)}`;
  }
  throw new Error('expected a throw');
};

describe('item 8: an unparseable baseUrl is never echoed', () => {
  const BAD = ['http://u:S3CRET@[bad', 'http:\\\\u:S3CRET@[bad', 'https://u:S3CRET@exa mple.com/'];
  for (const bad of BAD) {
    it(JSON.stringify(bad), () => {
      const messages = [
        messageOf(() => createClient({ baseUrl: bad, apiKey: KEY })),
        messageOf(() => articlesLoader({ siteId: 12, baseUrl: bad, apiKey: KEY })),
        messageOf(() => liveArticlesLoader({ siteId: 12, baseUrl: bad, apiKey: KEY })),
        messageOf(() => resolveOptions({ siteId: 12, baseUrl: bad }, astro, {})),
        messageOf(() => resolveOptions({ siteId: 12 }, astro, { PUBLISHER_BASE_URL: bad })),
      ];
      for (const message of messages) {
        expect(message).toMatch(/baseUrl|PUBLISHER_BASE_URL/);
        expect(message).not.toContain('S3CRET');
        expect(message).toContain(`not a URL (${bad.length} characters`);
      }
    });
  }
  it('a parseable backslash form with credentials: refused, credentials masked', () => {
    for (const message of [
      messageOf(() => createClient({ baseUrl: 'http:\\\\u:S3CRET@svc.example.com', apiKey: KEY })),
      messageOf(() => resolveOptions({ siteId: 12, baseUrl: 'http:\\\\u:S3CRET@svc.example.com' }, astro, {})),
    ]) {
      expect(message).toMatch(/credentials/);
      expect(message).not.toContain('S3CRET');
    }
  });
});

describe('item 14: plain http to another machine is refused when a key is set', () => {
  it('client and loaders refuse, naming the host and the opt-in', () => {
    const url = 'http://svc.example.com';
    const client = messageOf(() => createClient({ baseUrl: url, apiKey: KEY }));
    expect(client).toContain(
      '`baseUrl` uses plain http to svc.example.com, which is not this machine: the API key would travel in cleartext',
    );
    expect(client).toContain('createClient({ allowInsecureHttp: true })');
    for (const [name, make] of [
      ['articlesLoader', articlesLoader],
      ['keywordsLoader', keywordsLoader],
      ['liveArticlesLoader', liveArticlesLoader],
    ] as const) {
      let error: unknown;
      try {
        make({ siteId: 12, baseUrl: url, apiKey: KEY });
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`${name}({ allowInsecureHttp: true })`);
    }
  });

  it('loopback, https, no key, or the explicit opt-in: accepted', () => {
    for (const baseUrl of [
      'http://127.0.0.1:4321',
      'http://localhost:8080',
      'http://[::1]:9',
      'http://api.localhost',
      'https://svc.example.com',
    ]) {
      expect(() => createClient({ baseUrl, apiKey: KEY }), baseUrl).not.toThrow();
    }
    expect(() => createClient({ baseUrl: 'http://svc.example.com' })).not.toThrow();
    expect(() =>
      createClient({ baseUrl: 'http://svc.example.com', apiKey: KEY, allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() =>
      articlesLoader({ siteId: 12, baseUrl: 'http://10.0.0.5', apiKey: KEY, allowInsecureHttp: true }),
    ).not.toThrow();
  });
});
