import { describe, expect, it } from 'vitest';
import { makeArticleUrlMapper } from '../../src/feeds/index.js';

describe('makeArticleUrlMapper', () => {
  const upstreamOrigins = ['https://pro-blog.example.com', 'http://127.0.0.1:4321'];

  it('articlePattern (default /blog/[slug]/): an upstream article URL maps to the blog article URL by slug', () => {
    const map = makeArticleUrlMapper({ blogSite: 'https://blog.example.com', upstreamOrigins });
    expect(map('https://pro-blog.example.com/blog/hello-world/')).toBe('https://blog.example.com/blog/hello-world/');
    expect(map('https://pro-blog.example.com/blog/hello-world')).toBe('https://blog.example.com/blog/hello-world/');
  });
  it('blogSite base path and a custom articlePattern are respected; slugs stay percent-encoded', () => {
    const map = makeArticleUrlMapper({
      blogSite: 'https://blog.example.com/base',
      articlePattern: '/articles/[slug]',
      upstreamOrigins,
    });
    expect(map('https://pro-blog.example.com/blog/caf%C3%A9/')).toBe(
      'https://blog.example.com/base/articles/caf%C3%A9',
    );
    expect(map('https://pro-blog.example.com/blog/a/?utm=x#h')).toBe(
      'https://blog.example.com/base/articles/a?utm=x#h',
    );
  });
  it('the upstream home maps to the blog home; other service pages keep their path on the blog origin', () => {
    const map = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/base/', upstreamOrigins });
    expect(map('https://pro-blog.example.com/')).toBe('https://blog.example.com/base/');
    expect(map('https://pro-blog.example.com/about/?x=1')).toBe('https://blog.example.com/about/?x=1');
    expect(map('http://127.0.0.1:4321/blog/x/y/')).toBe('https://blog.example.com/blog/x/y/');
  });
  it('URLs on other origins and unparsable values are returned unchanged', () => {
    const map = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins });
    expect(map('https://cdn.example.com/blog/x/')).toBe('https://cdn.example.com/blog/x/');
    expect(map('http://pro-blog.example.com/blog/x/')).toBe('http://pro-blog.example.com/blog/x/');
    expect(map('not a url')).toBe('not a url');
  });
  it('a service URL whose path resolves to "//..." keeps that path on the blog origin instead of throwing', () => {
    const map = makeArticleUrlMapper({ blogSite: 'https://blog.example.com/', upstreamOrigins });
    expect(map('https://pro-blog.example.com/blog/..//')).toBe('https://blog.example.com//');
    expect(map('https://pro-blog.example.com/x/..//evil.example/')).toBe('https://blog.example.com//evil.example/');
  });
  it('the shortcut for plain article URLs gives exactly what URL resolution gives', () => {
    // The reference: the mapping written with URL parses only (what makeArticleUrlMapper does for any URL).
    const reference = (blogSite: string, pattern: string, upstream: string): string => {
      const site = new URL(blogSite);
      const home = new URL(site.pathname.endsWith('/') ? site.pathname : `${site.pathname}/`, site.origin).href;
      let url: URL;
      try {
        url = new URL(upstream.trim());
      } catch {
        return upstream;
      }
      if (!['https://pro-blog.example.com', 'http://127.0.0.1:4321'].includes(url.origin)) return upstream;
      const article = /^\/blog\/([^/]+)\/?$/.exec(url.pathname);
      if (article?.[1] !== undefined)
        return new URL(pattern.replace(/^\/+/, '').replaceAll('[slug]', article[1]) + url.search + url.hash, home).href;
      if (url.pathname === '/' && url.search === '' && url.hash === '') return home;
      return new URL(site.origin + url.pathname + url.search + url.hash).href;
    };
    const slugs = [
      'a',
      'a-b_c~d',
      'x.y',
      '.hidden',
      '..',
      '.',
      'UPPER',
      '0',
      'a..b',
      '~',
      '-',
      '%2e',
      'caf%C3%A9',
      'é',
    ];
    const upstreams = slugs.flatMap((slug) => [
      `https://pro-blog.example.com/blog/${slug}/`,
      `https://pro-blog.example.com/blog/${slug}`,
      `https://PRO-blog.example.com/blog/${slug}/`,
      `https://pro-blog.example.com:443/blog/${slug}/`,
      `http://127.0.0.1:4321/blog/${slug}/`,
      ` https://pro-blog.example.com/blog/${slug}/ `,
      `https://pro-blog.example.com/blog/${slug}//`,
      `https://pro-blog.example.com/blog/${slug}/?q=1`,
      // Queries: kept as written where the URL parser keeps them, a lone '?' dropped, the rest encoded.
      ...[
        '?',
        '?a=1&b=2&c=3&nbsp;&d',
        "?x='y'",
        '?x="y"',
        '?%zz',
        '?a b',
        '?é',
        '?a?b/c:d@e!$()*+,;',
        '?<a>',
        '?x#h',
      ].map((query) => `https://pro-blog.example.com/blog/${slug}${query}`),
    ]);
    for (const [blogSite, pattern] of [
      ['https://blog.example.com/', '/blog/[slug]/'],
      ['https://blog.example.com/base', '/articles/[slug]'],
      ['https://blog.example.com/base/', 'posts/[slug]/index.html'],
      ['https://blog.example.com/', '/a b/[slug]/'],
      ['https://blog.example.com/', '/../[slug]/'],
      ['https://blog.example.com/', '/[slug]/x/[slug]'],
    ] as const) {
      const map = makeArticleUrlMapper({ blogSite, articlePattern: pattern, upstreamOrigins });
      for (const upstream of upstreams)
        expect(map(upstream), `${blogSite} ${pattern} ${upstream}`).toBe(reference(blogSite, pattern, upstream));
    }
  });
  it('bad options are named', () => {
    expect(() => makeArticleUrlMapper({ blogSite: '/relative/', upstreamOrigins })).toThrow(
      /`blogSite` must be an absolute http\(s\) URL/,
    );
    expect(() =>
      makeArticleUrlMapper({ blogSite: 'https://b.example', articlePattern: '/blog/:slug/', upstreamOrigins }),
    ).toThrow(/`articlePattern` must contain \[slug\]/);
  });
});
