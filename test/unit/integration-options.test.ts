import { describe, expect, it } from 'vitest';
import { resolveOptions, type AstroConfigView } from '../../src/integration/options/resolve-options.js';

const astro: AstroConfigView = {
  site: 'https://blog.example.com',
  base: '/',
  output: 'static',
  trailingSlash: 'ignore',
};
const env = { PUBLISHER_BASE_URL: 'https://service.example.com' };

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect((error as Error).name).toBe('AstroUserError');
    return `${(error as Error).message} | ${(error as { hint?: string }).hint ?? ''}`;
  }
  throw new Error('no error thrown');
}

describe('integration options', () => {
  it('defaults: both routes, /blog/[slug]/, dev refresh endpoint, prerender follows output', () => {
    const { options, route, prerender } = resolveOptions({ siteId: 12 }, astro, env);
    expect(route).toMatchObject({
      sitemapUrl: 'https://service.example.com/api/sites/12/sitemap.xml',
      rssUrl: 'https://service.example.com/api/sites/12/rss.xml',
      blogSite: 'https://blog.example.com/',
      articlePattern: '/blog/[slug]/',
      sitemap: { path: '/sitemap.xml', maxUrlsPerFile: 50_000 },
      rss: { path: '/rss.xml' },
    });
    expect(options.devRefresh).toEqual({ endpoint: '/_publisher/refresh', minIntervalMs: 30_000, reserve: 5 });
    expect(prerender).toBe(true);
    expect(resolveOptions({ siteId: 12 }, { ...astro, output: 'server' }, env).prerender).toBe(false);
    expect(resolveOptions({ siteId: 12, prerender: true }, { ...astro, output: 'server' }, env).prerender).toBe(true);
  });

  it('siteId and baseUrl: from PUBLISHER_SITE_ID and PUBLISHER_BASE_URL', () => {
    const { route } = resolveOptions(undefined, astro, {
      PUBLISHER_SITE_ID: '21',
      PUBLISHER_BASE_URL: 'http://127.0.0.1:4000/svc/',
    });
    expect(route.sitemapUrl).toBe('http://127.0.0.1:4000/svc/api/sites/21/sitemap.xml');
  });

  it('baseUrl: an address ending in /api/v1 is refused, from the option or from PUBLISHER_BASE_URL', () => {
    expect(
      message(() => resolveOptions({ siteId: 12, baseUrl: 'https://service.example.com/api/v1' }, astro, {})),
    ).toContain(
      '`baseUrl` must be the service address without /api/v1 (got "https://service.example.com/api/v1"): drop the /api/v1, as in "https://service.example.com".',
    );
    expect(
      message(() =>
        resolveOptions({ siteId: 12 }, astro, { PUBLISHER_BASE_URL: 'https://service.example.com/api/v1/' }),
      ),
    ).toContain(
      'PUBLISHER_BASE_URL must be the service address without /api/v1 (got "https://service.example.com/api/v1/"): drop the /api/v1, as in "https://service.example.com".',
    );
  });

  it('base: the blog URL keeps the base path', () => {
    expect(resolveOptions({ siteId: 12 }, { ...astro, base: '/docs' }, env).route.blogSite).toBe(
      'https://blog.example.com/docs/',
    );
  });

  it('siteId: missing, or a bad PUBLISHER_SITE_ID, names the option and the variable', () => {
    expect(message(() => resolveOptions({}, astro, env))).toContain(
      '`siteId` is missing. | Set it in publisher({ siteId: 12 }) or in the environment variable PUBLISHER_SITE_ID',
    );
    expect(message(() => resolveOptions({}, astro, { ...env, PUBLISHER_SITE_ID: '12abc' }))).toContain(
      'PUBLISHER_SITE_ID must be a positive integer (got "12abc")',
    );
    expect(message(() => resolveOptions({ siteId: -3 }, astro, env))).toContain(
      '`siteId` must be a positive integer (got -3)',
    );
  });

  it('baseUrl: missing, not http(s), or with credentials', () => {
    expect(message(() => resolveOptions({ siteId: 12 }, astro, {}))).toContain('`baseUrl` is missing');
    expect(message(() => resolveOptions({ siteId: 12, baseUrl: 'ftp://x.example' }, astro, {}))).toContain(
      '`baseUrl` must use http or https',
    );
    const leak = message(() =>
      resolveOptions({ siteId: 12, baseUrl: 'https://user:btb_leakcheck_secret@x.example' }, astro, {}),
    );
    expect(leak).toContain('`baseUrl` must not contain credentials');
    expect(leak).not.toContain('btb_leakcheck_secret');
    const unparsable = message(() =>
      resolveOptions({ siteId: 12, baseUrl: 'user:btb_leakcheck_secret@x.example' }, astro, {}),
    );
    expect(unparsable).toContain('`baseUrl` must use http or https');
    expect(unparsable).not.toContain('btb_leakcheck_secret');
    const relative = message(() => resolveOptions({ siteId: 12, baseUrl: '//btb_leakcheck_secret@x' }, astro, {}));
    // An unparseable URL is never echoed (test/security/base-url.test.ts).
    expect(relative).toContain(
      '`baseUrl` must be an absolute http(s) URL (got a value that is not a URL (24 characters',
    );
    // A token with characters past [A-Za-z0-9_-] is masked whole, not up to the first "." or "/".
    const dotted = message(() =>
      resolveOptions({ siteId: 12, baseUrl: 'not a url btb_leakcheck.tail/more=x' }, astro, {}),
    );
    expect(dotted).toContain('`baseUrl` must be an absolute http(s) URL');
    expect(dotted).not.toContain('leakcheck');
    expect(dotted).not.toContain('.tail');
    expect(dotted).not.toContain('more=x');
  });

  it('site: required only while a route is enabled', () => {
    expect(message(() => resolveOptions({ siteId: 12 }, { ...astro, site: undefined }, env))).toContain(
      'has no `site`',
    );
    expect(() =>
      resolveOptions({ siteId: 12, sitemap: false, rss: false }, { ...astro, site: undefined }, env),
    ).not.toThrow();
  });

  it('sitemap and rss: bad values are named by their path', () => {
    expect(message(() => resolveOptions({ siteId: 12, sitemap: { path: 'sitemap.xml' } }, astro, env))).toContain(
      '`sitemap.path` must be an absolute path ending in ".xml"',
    );
    expect(message(() => resolveOptions({ siteId: 12, sitemap: { path: '/../x.xml' } }, astro, env))).toContain(
      '`sitemap.path`',
    );
    expect(message(() => resolveOptions({ siteId: 12, sitemap: { filter: 'no' } }, astro, env))).toContain(
      '`sitemap.filter` must be a function',
    );
    expect(message(() => resolveOptions({ siteId: 12, sitemap: true }, astro, env))).toContain(
      '`sitemap` must be an object of sitemap options or false',
    );
    expect(message(() => resolveOptions({ siteId: 12, rss: { path: '/sitemap.xml' } }, astro, env))).toContain(
      '`sitemap.path` and `rss.path` are both "/sitemap.xml"',
    );
    expect(message(() => resolveOptions({ siteId: 12, extra: 1 }, astro, env))).toContain('Unknown option `extra`');
  });

  it('articlePattern: [lang] once, or one pattern per language; bad ones are named with an example', () => {
    expect(
      resolveOptions({ siteId: 12, articlePattern: '/[lang]/blog/[slug]/' }, astro, env).route.articlePattern,
    ).toBe('/[lang]/blog/[slug]/');
    const map = { en: '/blog/[slug]/', 'pt-BR': '/pt/blog/[slug]/' };
    expect(resolveOptions({ siteId: 12, articlePattern: map }, astro, env).route.articlePattern).toEqual(map);
    expect(
      message(() => resolveOptions({ siteId: 12, articlePattern: '/[lang]/[lang]/[slug]/' }, astro, env)),
    ).toContain('`articlePattern` must start with "/", contain "[slug]" exactly once and "[lang]" at most once');
    expect(message(() => resolveOptions({ siteId: 12, articlePattern: { en: '/blog/' } }, astro, env))).toContain(
      '`articlePattern` values must start with "/" and contain "[slug]" exactly once',
    );
    expect(
      message(() => resolveOptions({ siteId: 12, articlePattern: { english: '/blog/[slug]/' } }, astro, env)),
    ).toContain('`articlePattern` keys must be language codes such as "en" or "pt-BR" (got "english")');
    expect(message(() => resolveOptions({ siteId: 12, articlePattern: {} }, astro, env))).toContain(
      '`articlePattern` must name at least one language',
    );
  });

  it("devRefresh: only this package's loaders, a sane poll interval", () => {
    expect(message(() => resolveOptions({ siteId: 12, devRefresh: { loaders: ['file'] } }, astro, env))).toContain(
      "`devRefresh.loaders` may only name this package's loaders",
    );
    expect(message(() => resolveOptions({ siteId: 12, devRefresh: { pollIntervalMs: 10 } }, astro, env))).toContain(
      '`devRefresh.pollIntervalMs` must be a whole number of milliseconds from 1000',
    );
    expect(resolveOptions({ siteId: 12, devRefresh: false }, astro, env).options.devRefresh).toBe(false);
  });

  it('the route settings carry no function and survive JSON', () => {
    const { route } = resolveOptions({ siteId: 12, sitemap: { filter: () => true } }, astro, env);
    expect(JSON.parse(JSON.stringify(route))).toEqual(route);
  });

  it('sitemap.customPages: absolute http(s) URLs, named in the error otherwise', () => {
    expect(
      resolveOptions({ siteId: 12, sitemap: { customPages: ['https://blog.example.com/shop/'] } }, astro, env).options
        .sitemap,
    ).toMatchObject({ customPages: ['https://blog.example.com/shop/'] });
    expect(() => resolveOptions({ siteId: 12, sitemap: { customPages: ['/shop/'] } }, astro, env)).toThrow(
      /`sitemap.customPages` must hold absolute http\(s\) URLs .*\(got "\/shop\/"\)/,
    );
  });
});
