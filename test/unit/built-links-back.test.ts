import { describe, expect, it } from 'vitest';
import { serviceArticleUrl, type ArticleLinkContext } from '../../src/html/article-links.js';
import { goneArticleTarget } from '../../src/integration/build/built-links.js';

const S = 'https://pro-blog.example.com';
const ctx: ArticleLinkContext = {
  blogSite: 'https://blog.example.com/docs/',
  articlePattern: '/[lang]/blog/[slug]/',
  trailingSlash: 'always',
  serviceOrigins: ['http://127.0.0.1:4000', S],
  known: new Set(['pair', 'local']),
  languages: { pair: ['fr'] },
  // Built this time: fr "pair", and a page of the blog's own that matches the article route.
  pages: new Set(['fr/blog/pair', 'en/blog/local']),
};

describe('links of kept pages to articles the blog no longer has go back to the service', () => {
  const back = goneArticleTarget(ctx, S);

  it("the blog's URL of an article without its page this build: the service's URL, query and fragment kept", () => {
    expect(back('https://blog.example.com/docs/en/blog/pair/', undefined)).toBe(`${S}/en/blog/pair/`);
    expect(back('https://blog.example.com/docs/en/blog/gone/?a=1#top', 'en')).toBe(`${S}/en/blog/gone/?a=1#top`);
  });

  it('a page that was built, another form, another host or not an article route: left as it is', () => {
    expect(back('https://blog.example.com/docs/fr/blog/pair/', undefined)).toBeUndefined();
    expect(back('https://blog.example.com/docs/en/blog/local/', undefined)).toBeUndefined();
    expect(back('https://blog.example.com/docs/en/blog/pair', undefined)).toBeUndefined();
    expect(back('https://other.example.com/docs/en/blog/pair/', undefined)).toBeUndefined();
    expect(back('https://blog.example.com/docs/about/', undefined)).toBeUndefined();
    expect(back('/docs/en/blog/pair/', undefined)).toBeUndefined();
  });

  it('nothing is reverted when the built pages are unknown (on-demand output) or the public host is', () => {
    expect(
      goneArticleTarget({ ...ctx, pages: undefined }, S)('https://blog.example.com/docs/en/blog/pair/', 'en'),
    ).toBeUndefined();
    expect(goneArticleTarget(ctx, '')('https://blog.example.com/docs/en/blog/pair/', 'en')).toBeUndefined();
  });

  it("serviceArticleUrl: the form serviceArticleRef reads, with the language when the blog's route names one", () => {
    expect(serviceArticleUrl({ slug: 'x y', language: 'fr' }, `${S}/`)).toBe(`${S}/fr/blog/x%20y/`);
    expect(serviceArticleUrl({ slug: 'x' }, S)).toBe(`${S}/blog/x/`);
  });
});
