import { describe, expect, it } from 'vitest';
import {
  handleInvalidate,
  MAX_ENDPOINT_TAG_LENGTH,
  sameSecret,
} from '../../src/integration/invalidate/invalidate-handler.js';
import { injectInvalidateRoute, invalidateWithoutProvider } from '../../src/integration/invalidate/invalidate-setup.js';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import {
  cacheTags,
  MAX_TAG_LENGTH,
  parseCacheTag,
  tagsForChangedArticles,
} from '../../src/loader/process/cache-tags.js';
import { changedSlugs, invalidationTags } from '../../src/watch/invalidate-request.js';

const TOKEN = 'a-random-secret-of-32-characters';

describe('cache tags', () => {
  it('one tag per article, apart from the list, sitemap and feed tags even for a slug named like them', () => {
    expect(cacheTags.article(12, 'my-post')).toBe('publisher:site-12:my-post');
    expect(cacheTags.article(12, 'articles')).not.toBe(cacheTags.list(12));
    expect(cacheTags.article(12, 'rss')).not.toBe(cacheTags.rss(12));
    expect([cacheTags.site(12), cacheTags.list(12), cacheTags.sitemap(12), cacheTags.rss(12)]).toEqual([
      'publisher:site-12',
      'publisher:site-12/articles',
      'publisher:site-12/sitemap',
      'publisher:site-12/rss',
    ]);
  });

  it('a slug with a comma or white space is encoded (providers send tags comma-separated) and parsed back', () => {
    const tag = cacheTags.article(12, 'a, b c');
    expect(tag).not.toMatch(/[\s,]/);
    expect(parseCacheTag(tag)).toEqual({ siteId: 12, kind: 'article', slug: 'a, b c' });
  });

  it('a slug too long for a tag (any script) is named by a digest: at most 128 visible ASCII characters, stable', () => {
    for (const slug of [
      'как-выбрать-правильный-тариф-для-небольшого-блога',
      'πώς-να-επιλέξετε-το-σωστό-πρόγραμμα-για-το-ιστολόγιο',
      '如何为您的小型博客选择合适的定价方案以及常见问题解答',
      'अपने-छोटे-ब्लॉग-के-लिए-सही-योजना-कैसे-चुनें',
      '🚀-launch-day-🎉-what-we-shipped-✨-and-what-comes-next-🔥-for-everyone',
      'a'.repeat(300),
    ]) {
      const tag = cacheTags.article(9_007_199_254_740_991, slug);
      expect(tag.length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
      expect(tag).toMatch(/^publisher:site-9007199254740991\/slug-[0-9a-f]{32}$/);
      expect(parseCacheTag(tag)).toEqual({ siteId: 9_007_199_254_740_991, kind: 'article', slug: undefined });
    }
    // Pinned: a page cached by one version is purged by the tag another version's `watch` sends.
    expect(cacheTags.article(12, 'как-выбрать-правильный-тариф-для-небольшого-блога')).toBe(
      'publisher:site-12/slug-7a9b8e324a2052b31c05f326f65e35d9',
    );
    // A short one stays readable; the endpoint takes every tag this package writes.
    expect(cacheTags.article(12, 'привет')).toBe('publisher:site-12:%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82');
    expect(MAX_TAG_LENGTH).toBeLessThanOrEqual(MAX_ENDPOINT_TAG_LENGTH);
  });

  it('parses its own tags and nothing else', () => {
    expect(parseCacheTag('publisher:site-12')).toEqual({ siteId: 12, kind: 'site' });
    expect(parseCacheTag('publisher:site-12/articles')).toEqual({ siteId: 12, kind: 'list' });
    expect(parseCacheTag('publisher:site-7/sitemap')).toEqual({ siteId: 7, kind: 'sitemap' });
    for (const other of [
      'products',
      'publisher:site-0',
      'publisher:site-12/other',
      'publisher:site-12:a/b',
      'x:publisher:site-12',
    ])
      expect(parseCacheTag(other), other).toBeUndefined();
  });

  it('changed articles: their tags and the lists, sitemap and feed; no slugs known: the whole site', () => {
    expect(tagsForChangedArticles(12, ['a', 'b', 'a'])).toEqual([
      'publisher:site-12:a',
      'publisher:site-12:b',
      'publisher:site-12/articles',
      'publisher:site-12/sitemap',
      'publisher:site-12/rss',
    ]);
    expect(tagsForChangedArticles(12, undefined)).toEqual(['publisher:site-12']);
  });
});

describe('watch --invalidate: the tags of the detected changes', () => {
  it('slugs from the RSS guid (the permalink) and the sitemap loc; the home page names no article', () => {
    expect(
      changedSlugs([
        { kind: 'content-changed', guid: 'https://pro-blog.example.com/blog/first/' },
        {
          kind: 'sitemap-updated',
          loc: 'https://pro-blog.example.com/blog/first/',
          from: '2026-01-01',
          to: '2026-01-02',
        },
        { kind: 'sitemap-added', loc: 'https://pro-blog.example.com/blog/second' },
        { kind: 'sitemap-removed', loc: 'https://pro-blog.example.com/' },
      ]),
    ).toEqual(['first', 'second']);
    expect(invalidationTags(12, [{ kind: 'item-removed', guid: 'https://pro-blog.example.com/blog/gone/' }])).toEqual([
      'publisher:site-12:gone',
      'publisher:site-12/articles',
      'publisher:site-12/sitemap',
      'publisher:site-12/rss',
    ]);
  });

  it('a guid that is not a URL, or no changes at all (first run), purges the whole site', () => {
    expect(invalidationTags(12, [{ kind: 'new-item', guid: 'urn:uuid:1234' }])).toEqual(['publisher:site-12']);
    expect(invalidationTags(12, [])).toEqual(['publisher:site-12']);
  });

  it('more changed articles than the endpoint would take in one request (a first run after a failed one): the site', () => {
    const changes = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        kind: 'new-item' as const,
        guid: `https://pro-blog.example.com/blog/post-${i}/`,
      }));
    expect(invalidationTags(12, changes(200))).toHaveLength(203);
    expect(invalidationTags(12, changes(201))).toEqual(['publisher:site-12']);
  });
});

describe('the invalidation endpoint', () => {
  const post = (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
    new Request('https://blog.example.com/_publisher/invalidate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const run = async (
    request: Request,
    options: { token?: string | undefined; enabled?: boolean; fail?: Error } = {},
  ) => {
    const local: string[][] = [];
    const purged: string[][] = [];
    const logged: string[] = [];
    const response = await handleInvalidate(
      {
        request,
        cache: {
          enabled: options.enabled ?? true,
          invalidate: async ({ tags }) => {
            if (options.fail) throw options.fail;
            purged.push(tags);
          },
        },
      },
      {
        token: 'token' in options ? options.token : TOKEN,
        invalidateLocally: (tags) => local.push(tags),
        log: (message) => logged.push(message),
      },
    );
    const text = await response.text();
    return { status: response.status, text, headers: response.headers, local, purged, logged };
  };

  it('200: the tags go to the route cache and to the local copies, once each', async () => {
    const result = await run(
      post({ tags: ['publisher:site-12:a', 'publisher:site-12/articles', 'publisher:site-12:a'] }),
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(result.text)).toEqual({
      invalidated: ['publisher:site-12:a', 'publisher:site-12/articles'],
      routeCache: true,
    });
    expect(result.purged).toEqual([['publisher:site-12:a', 'publisher:site-12/articles']]);
    expect(result.local).toEqual(result.purged);
  });

  it('without a cache provider only the local copies are dropped, and the answer says so', async () => {
    const result = await run(post({ tags: ['publisher:site-12'] }), { enabled: false });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text)).toEqual({ invalidated: ['publisher:site-12'], routeCache: false });
    expect(result.purged).toEqual([]);
    expect(result.local).toEqual([['publisher:site-12']]);
  });

  it('refusals: no token configured 503, none sent 401, another 403, not POST 405; nothing invalidated', async () => {
    const cases = [
      [await run(post({ tags: ['t'] }), { token: undefined }), 503],
      [await run(post({ tags: ['t'] }), { token: 'tiny-secret' }), 503],
      [await run(post({ tags: ['t'] }, {})), 401],
      [await run(post({ tags: ['t'] }, { authorization: `Basic ${btoa(`u:${TOKEN}`)}` })), 401],
      [await run(post({ tags: ['t'] }, { authorization: `Bearer ${TOKEN}x` })), 403],
      [await run(post({ tags: ['t'] }, { authorization: `Bearer ${TOKEN.slice(0, -1)}` })), 403],
      [await run(new Request('https://blog.example.com/_publisher/invalidate')), 405],
    ] as const;
    for (const [result, status] of cases) {
      expect(result.status).toBe(status);
      expect(result.text).not.toContain(TOKEN);
      expect(result.local).toEqual([]);
      expect(result.purged).toEqual([]);
    }
    expect(cases[2][0].headers.get('www-authenticate')).toBe('Bearer realm="astro-content-publisher"');
    expect(cases[0][0].text).toContain('Invalidation is not configured: set PUBLISHER_INVALIDATE_TOKEN');
    // Set, but too short: said as such, not "not configured".
    expect(cases[1][0].text).toContain('PUBLISHER_INVALIDATE_TOKEN is set but shorter than 16 characters');
    expect(cases[1][0].text).not.toContain('tiny-secret');
  });

  it('400 for a body that is not { tags: [...] }, 413 past 64 KB; nothing invalidated', async () => {
    for (const body of [
      'not json',
      {},
      { tags: [] },
      { tags: ['a,b'] },
      { tags: ['a b'] },
      { tags: ['a'], paths: ['/'] },
    ]) {
      const result = await run(post(body));
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(result.text).error).toMatch(/tags/);
      expect(result.local).toEqual([]);
    }
    const large = await run(post({ tags: ['x'.repeat(200)], pad: 'y'.repeat(70_000) }));
    expect(large.status).toBe(413);
    expect(JSON.parse(large.text).error).toMatch(/65536 bytes: split the tags over several requests/);
  });

  it('413 before reading when the declared Content-Length is over 64 KB (a body that never ends is not waited for)', async () => {
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined) });
    const request = new Request('https://blog.example.com/_publisher/invalidate', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-length': '1000000' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const result = await Promise.race([
      run(request),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
    ]);
    expect(result?.status).toBe(413);
    expect(result?.local).toEqual([]);
  });

  it("502 when the cache provider fails; the details go to the server's log, never the token", async () => {
    const result = await run(post({ tags: ['publisher:site-12'] }), { fail: new Error('purge API unreachable') });
    expect(result.status).toBe(502);
    expect(result.text).not.toContain('unreachable');
    expect(result.logged.join('\n')).toContain('purge API unreachable');
    expect(result.logged.join('\n')).not.toContain(TOKEN);
  });

  it('a configured token with a final newline (a mounted secret file) is the same token `watch` sends trimmed', async () => {
    expect((await run(post({ tags: ['t'] }), { token: `${TOKEN}\n` })).status).toBe(200);
    expect((await run(post({ tags: ['t'] }), { token: `  ${TOKEN.slice(0, 15)}  ` })).status).toBe(503);
    expect((await run(post({ tags: ['t'] }), { token: `${TOKEN}x\n` })).status).toBe(403);
  });

  it('sameSecret: equal strings only', async () => {
    expect(await sameSecret(TOKEN, TOKEN)).toBe(true);
    expect(await sameSecret(`${TOKEN} `, TOKEN)).toBe(false);
    expect(await sameSecret('', TOKEN)).toBe(false);
  });
});

describe('publisher({ invalidate })', () => {
  const astro = { site: 'https://blog.example.com', base: '/', output: 'server', trailingSlash: 'ignore' } as const;
  const env = { PUBLISHER_BASE_URL: 'https://service.example.com' };
  const resolve = (invalidate: unknown) => resolveOptions({ siteId: 12, invalidate }, astro, env).options.invalidate;

  it('off by default; true puts it at /_publisher/invalidate; a path moves it; anything else names the option', () => {
    expect(resolveOptions({ siteId: 12 }, astro, env).options.invalidate).toBe(false);
    expect(resolve(true)).toEqual({ path: '/_publisher/invalidate' });
    expect(resolve({ path: '/hooks/purge' })).toEqual({ path: '/hooks/purge' });
    expect(() => resolve('yes')).toThrow(/`invalidate` must be true, false or an object/);
    expect(() => resolve({ path: 'purge?x=1' })).toThrow(/`invalidate.path` must be an absolute path without query/);
    expect(() => resolve({ token: 'x' })).toThrow(/invalidate/);
  });

  it('injected on demand; without an adapter the build fails with the fix; without a provider a warning', () => {
    const injected: unknown[] = [];
    injectInvalidateRoute({ path: '/_publisher/invalidate' }, { adapter: { name: 'x' } as never }, (route) =>
      injected.push(route),
    );
    expect(injected).toEqual([{ pattern: '/_publisher/invalidate', entrypoint: expect.any(URL), prerender: false }]);
    injectInvalidateRoute(false, { adapter: undefined }, (route) => injected.push(route));
    expect(injected).toHaveLength(1);
    expect(() => injectInvalidateRoute({ path: '/p' }, { adapter: undefined }, () => undefined)).toThrow(
      /`invalidate` serves an endpoint on demand, and this project has no adapter/,
    );
    expect(invalidateWithoutProvider({ path: '/p' }, { cache: {} } as never)).toMatch(/no `cache.provider`/);
    expect(invalidateWithoutProvider({ path: '/p' }, { cache: { provider: { entrypoint: 'x' } } } as never)).toBe(
      undefined,
    );
    expect(invalidateWithoutProvider(false, { cache: {} } as never)).toBe(undefined);
  });
});
