import { describe, expect, it, vi } from 'vitest';
import {
  applyTrailingSlash,
  articleLinkTarget,
  blogArticleUrl,
  type ArticleLinkContext,
} from '../../src/html/article-links.js';
import { articleTargetOf } from '../../src/integration/links/article-links-response.js';
import { hreflangAlternates } from '../../src/integration/proxy/hreflang.js';
import { rewriteLinkChunk } from '../../src/integration/links/link-tags.js';

/** A whole page through the rewrite the middleware streams it through (and the build's pass over dist/). */
const rewritePage = (html: string, context: ArticleLinkContext) =>
  rewriteLinkChunk(html, articleTargetOf(context), true).out;

const ctx: ArticleLinkContext = {
  blogSite: 'https://blog.example.com/docs/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'ignore',
  serviceOrigins: ['https://pro-blog.example.com', 'https://api.service.example'],
  known: new Set(['kept', 'caf\u00e9']),
};

describe('article links: one mapping for the pages and the routes', () => {
  it('blogArticleUrl: site, base and pattern, under each trailingSlash rule', () => {
    expect(blogArticleUrl('kept', ctx)).toBe('https://blog.example.com/docs/blog/kept/');
    expect(blogArticleUrl('kept', { ...ctx, trailingSlash: 'never' })).toBe('https://blog.example.com/docs/blog/kept');
    expect(blogArticleUrl('kept', { ...ctx, articlePattern: '/posts/[slug]', trailingSlash: 'always' })).toBe(
      'https://blog.example.com/docs/posts/kept/',
    );
    expect(blogArticleUrl('kept', { ...ctx, articlePattern: '/posts/[slug].html', trailingSlash: 'always' })).toBe(
      'https://blog.example.com/docs/posts/kept.html',
    );
  });

  it('applyTrailingSlash: files keep their form, pages follow the rule', () => {
    expect(applyTrailingSlash('a/b/', 'never')).toBe('a/b');
    expect(applyTrailingSlash('a/b', 'always')).toBe('a/b/');
    expect(applyTrailingSlash('a/b', 'ignore')).toBe('a/b');
    expect(applyTrailingSlash('a/b.xml', 'always')).toBe('a/b.xml');
  });

  it('a service article the blog has goes to the blog, keeping query and fragment', () => {
    expect(articleLinkTarget('https://pro-blog.example.com/blog/kept/', ctx)).toBe(
      'https://blog.example.com/docs/blog/kept/',
    );
    expect(articleLinkTarget('https://pro-blog.example.com/blog/kept?x=1#part', ctx)).toBe(
      'https://blog.example.com/docs/blog/kept/?x=1#part',
    );
    expect(articleLinkTarget('https://pro-blog.example.com/blog/caf%C3%A9/', ctx)).toBe(
      'https://blog.example.com/docs/blog/caf%C3%A9/',
    );
  });

  it('a service article the blog does not have (pending, filtered out) keeps its service URL', () => {
    expect(articleLinkTarget('https://pro-blog.example.com/blog/pending/', ctx)).toBeUndefined();
  });

  it("with nothing known (no loader), every service article counts as the blog's", () => {
    expect(articleLinkTarget('https://pro-blog.example.com/blog/pending/', { ...ctx, known: undefined })).toBe(
      'https://blog.example.com/docs/blog/pending/',
    );
  });

  it('anything else is left alone: other origins, other service pages, relative and non-http links', () => {
    for (const href of [
      'https://elsewhere.example/blog/kept/',
      'https://pro-blog.example.com/',
      'https://pro-blog.example.com/tags/kept/',
      'https://pro-blog.example.com/blog/kept/extra/',
      '/blog/kept/',
      'mailto:kept@example.com',
      '#kept',
    ]) {
      expect(articleLinkTarget(href, ctx), href).toBeUndefined();
    }
  });

  it('the page rewrite: only the href of links to service articles changes; the rest is byte for byte', () => {
    const html =
      '<p>See <a href="https://pro-blog.example.com/blog/kept/" class="x">kept</a>, ' +
      "<a class='y' href='https://pro-blog.example.com/blog/pending/'>pending</a>, " +
      '<a href="https://pro-blog.example.com/blog/kept/?a=1&amp;b=2">query</a> and ' +
      '<img src="https://pro-blog.example.com/blog/kept/"> <link href="https://pro-blog.example.com/blog/kept/"></p>';
    expect(rewritePage(html, ctx)).toBe(
      '<p>See <a href="https://blog.example.com/docs/blog/kept/" class="x">kept</a>, ' +
        "<a class='y' href='https://pro-blog.example.com/blog/pending/'>pending</a>, " +
        '<a href="https://blog.example.com/docs/blog/kept/?a=1&amp;b=2">query</a> and ' +
        '<img src="https://pro-blog.example.com/blog/kept/"> <link href="https://pro-blog.example.com/blog/kept/"></p>',
    );
  });

  it('the page rewrite: a page without a service origin is returned as it is', () => {
    const html = '<a href="/blog/kept/">x</a>';
    expect(rewritePage(html, ctx)).toBe(html);
  });
});

describe('article links of a multilingual service (/<lang>/blog/<slug>/ URLs)', () => {
  const multi: ArticleLinkContext = {
    blogSite: 'https://blog.example.com/',
    articlePattern: '/[lang]/blog/[slug]/',
    trailingSlash: 'ignore',
    serviceOrigins: ['https://pro-blog.example.com'],
    known: new Set(['pair', 'only-en']),
    languages: { pair: ['en', 'fr'], 'only-en': ['en'] },
  };
  const S = 'https://pro-blog.example.com';

  it('[lang]: the language of the URL, else the only one the blog has; another language is not had', () => {
    expect(articleLinkTarget(`${S}/fr/blog/pair/`, multi)).toBe('https://blog.example.com/fr/blog/pair/');
    expect(articleLinkTarget(`${S}/en/blog/pair/?a=1#b`, multi)).toBe('https://blog.example.com/en/blog/pair/?a=1#b');
    expect(articleLinkTarget(`${S}/blog/only-en/`, multi)).toBe('https://blog.example.com/en/blog/only-en/');
    expect(articleLinkTarget(`${S}/de/blog/pair/`, multi)).toBeUndefined();
    expect(articleLinkTarget(`${S}/fr/blog/only-en/`, multi)).toBeUndefined();
    // No language in the URL and two on the blog: the page's language decides, else the link stays.
    expect(articleLinkTarget(`${S}/blog/pair/`, multi)).toBeUndefined();
    expect(articleLinkTarget(`${S}/blog/pair/`, { ...multi, pageLanguage: 'fr' })).toBe(
      'https://blog.example.com/fr/blog/pair/',
    );
  });

  it('one pattern per language: the language without a pattern has no page on the blog', () => {
    const map = { ...multi, articlePattern: { en: '/blog/[slug]/', FR: '/fr/articles/[slug]/' } };
    expect(articleLinkTarget(`${S}/fr/blog/pair/`, map)).toBe('https://blog.example.com/fr/articles/pair/');
    expect(articleLinkTarget(`${S}/en/blog/pair/`, map)).toBe('https://blog.example.com/blog/pair/');
    const enOnly = { ...multi, articlePattern: { en: '/blog/[slug]/' } };
    expect(articleLinkTarget(`${S}/fr/blog/pair/`, enOnly)).toBeUndefined();
  });

  it('a pattern without [lang] (one page per slug): the languages the loaders load are listed there', () => {
    const single = { ...multi, articlePattern: '/blog/[slug]/', languages: { pair: ['en'], 'only-en': ['en'] } };
    expect(articleLinkTarget(`${S}/en/blog/pair/`, single)).toBe('https://blog.example.com/blog/pair/');
    expect(articleLinkTarget(`${S}/fr/blog/pair/`, single)).toBeUndefined();
  });

  it('the built pages, when known: an article without its page keeps the service URL', () => {
    const built = { ...multi, pages: new Set(['en/blog/pair', 'en/blog/only-en']) };
    expect(articleLinkTarget(`${S}/en/blog/pair/`, built)).toBe('https://blog.example.com/en/blog/pair/');
    expect(articleLinkTarget(`${S}/fr/blog/pair/`, built)).toBeUndefined();
  });

  it("the page rewrite: a link without a language goes to the page's own language (<html lang>)", () => {
    const html = `<html lang="fr"><body><a href="${S}/blog/pair/">x</a><a href="${S}/en/blog/pair/">y</a></body></html>`;
    expect(rewritePage(html, multi)).toBe(
      '<html lang="fr"><body><a href="https://blog.example.com/fr/blog/pair/">x</a><a href="https://blog.example.com/en/blog/pair/">y</a></body></html>',
    );
  });

  it('hreflang alternates: one link per language for the article listed in both, none for one language', () => {
    const alternates = hreflangAlternates([`${S}/en/blog/pair/`, `${S}/fr/blog/pair/`, `${S}/en/blog/only-en/`], multi);
    const pair = [
      { hreflang: 'en', href: 'https://blog.example.com/en/blog/pair/' },
      { hreflang: 'fr', href: 'https://blog.example.com/fr/blog/pair/' },
    ];
    expect(alternates('https://blog.example.com/en/blog/pair/')).toEqual(pair);
    expect(alternates('https://blog.example.com/fr/blog/pair/')).toEqual(pair);
    expect(alternates('https://blog.example.com/en/blog/only-en/')).toEqual([]);
    // Both languages at one URL (no [lang]): one page, no alternates.
    const single = hreflangAlternates([`${S}/en/blog/pair/`, `${S}/fr/blog/pair/`], {
      ...multi,
      articlePattern: '/blog/[slug]/',
    });
    expect(single('https://blog.example.com/blog/pair/')).toEqual([]);
  });

  it('a runtime without URL.parse (Workers before 2024) maps the same links', async () => {
    const parse = URL.parse;
    const hrefs = [
      'https://pro-blog.example.com/blog/kept/?a=1#b',
      'https://pro-blog.example.com/blog/gone/',
      'https://pro-blog.example.com/blog/caf%C3%A9/',
      'https://blog.example.com/docs/blog/kept/',
      'http://[bad/',
      '#kept',
    ];
    const expected = hrefs.map((href) => articleLinkTarget(href, ctx));
    expect(expected[0]).toBe('https://blog.example.com/docs/blog/kept/?a=1#b');
    vi.resetModules();
    // @ts-expect-error -- removed to stand for a runtime without it
    delete URL.parse;
    try {
      const fresh = await import('../../src/html/article-links.js');
      expect(hrefs.map((href) => fresh.articleLinkTarget(href, ctx))).toEqual(expected);
      expect(fresh.parseUrl('http://[bad/')).toBeNull();
      expect(fresh.parseUrl('https://a.example/x')?.href).toBe('https://a.example/x');
    } finally {
      URL.parse = parse;
    }
  });
});
