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
  it('bad options are named', () => {
    expect(() => makeArticleUrlMapper({ blogSite: '/relative/', upstreamOrigins })).toThrow(
      /`blogSite` must be an absolute http\(s\) URL/,
    );
    expect(() =>
      makeArticleUrlMapper({ blogSite: 'https://b.example', articlePattern: '/blog/:slug/', upstreamOrigins }),
    ).toThrow(/`articlePattern` must contain \[slug\]/);
  });
});
