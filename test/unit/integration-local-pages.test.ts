import { describe, expect, it } from 'vitest';
import { matchArticlePath } from '../../src/html/article-links.js';
import {
  selectLocalArticlePages,
  selectLocalPages,
  staticPagePathnames,
} from '../../src/integration/blog/local-pages.js';

const base = {
  blogSite: 'https://blog.example.com/docs/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'ignore' as const,
};

describe('integration local pages', () => {
  it('keeps pages, drops status pages, files and article routes; sorted and unique', () => {
    const pages = [
      '',
      'about/',
      '/about/',
      '404/',
      '500',
      'rss.xml',
      'robots.txt',
      'blog/',
      'blog/some-post/',
      'tags/seo/',
      'legal.html',
    ];
    expect(selectLocalPages(pages, base)).toEqual([
      'https://blog.example.com/docs/',
      'https://blog.example.com/docs/about/',
      'https://blog.example.com/docs/blog/',
      'https://blog.example.com/docs/legal.html',
      'https://blog.example.com/docs/tags/seo/',
    ]);
  });

  it('filter: receives absolute URLs and can drop pages', () => {
    const seen: string[] = [];
    const kept = selectLocalPages(['about/', 'secret/'], {
      ...base,
      filter: (url) => (seen.push(url), !url.endsWith('/secret/')),
    });
    expect(seen).toEqual(['https://blog.example.com/docs/about/', 'https://blog.example.com/docs/secret/']);
    expect(kept).toEqual(['https://blog.example.com/docs/about/']);
  });

  it('trailingSlash never: no trailing slash except the home page', () => {
    expect(selectLocalPages(['', 'about/'], { ...base, trailingSlash: 'never' })).toEqual([
      'https://blog.example.com/docs/',
      'https://blog.example.com/docs/about',
    ]);
  });

  it('articlePattern: other layouts', () => {
    expect(matchArticlePath('posts/a-b.html', '/posts/[slug].html')).toEqual({ slug: 'a-b' });
    expect(matchArticlePath('posts/a/b.html', '/posts/[slug].html')).toBeUndefined();
    expect(matchArticlePath('hello', '/[slug]/')).toEqual({ slug: 'hello' });
    expect(matchArticlePath('fr/blog/x/', '/[lang]/blog/[slug]/')).toEqual({ slug: 'x', language: 'fr' });
    expect(matchArticlePath('fr/blog/x/', { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' })).toEqual({
      slug: 'x',
      language: 'fr',
    });
    expect(matchArticlePath('blog/x/', { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' })).toEqual({
      slug: 'x',
      language: 'en',
    });
    expect(selectLocalPages(['articles/x/', 'blog/x/'], { ...base, articlePattern: '/articles/[slug]/' })).toEqual([
      'https://blog.example.com/docs/blog/x/',
    ]);
  });

  it("on demand: only the project's static page routes", () => {
    expect(
      staticPagePathnames([
        { type: 'page', origin: 'project', pathname: '/about', params: [] },
        { type: 'page', origin: 'project', pathname: undefined, params: ['tag'] },
        { type: 'endpoint', origin: 'project', pathname: '/api.json', params: [] },
        { type: 'page', origin: 'internal', pathname: '/_server-islands', params: [] },
        { type: 'endpoint', origin: 'external', pathname: '/rss.xml', params: [] },
      ]),
    ).toEqual(['/about']);
  });
});

describe('integration local pages under the article pattern (issue 11, item 3)', () => {
  it("selectLocalArticlePages: the blog's own posts and list pages under the pattern, with their slug, filtered, sorted", () => {
    const pages = ['blog/my-post/', 'blog/caf%C3%A9/', 'blog/', 'about/', 'blog/feed.xml', 'blog/hidden/', 'blog/a/b/'];
    expect(selectLocalArticlePages(pages, { ...base, filter: (url) => !url.includes('hidden') })).toEqual([
      { slug: 'café', url: 'https://blog.example.com/docs/blog/caf%C3%A9/' },
      { slug: 'my-post', url: 'https://blog.example.com/docs/blog/my-post/' },
    ]);
  });

  it("selectLocalArticlePages: a root-level pattern ('/[slug]', AstroWind's) takes no error page for a post", () => {
    expect(
      selectLocalArticlePages(['404', '404.html', '500/', 'about', 'my-post'], {
        ...base,
        articlePattern: '/[slug]',
        trailingSlash: 'never',
      }).map((page) => page.slug),
    ).toEqual(['about', 'my-post']);
  });

  it("selectLocalArticlePages: trailingSlash 'never' and a pattern such as /posts/[slug]", () => {
    expect(
      selectLocalArticlePages(['posts/2', 'posts/2/'], {
        ...base,
        articlePattern: '/posts/[slug]',
        trailingSlash: 'never',
      }),
    ).toEqual([{ slug: '2', url: 'https://blog.example.com/docs/posts/2' }]);
  });
});
