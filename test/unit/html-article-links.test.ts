import { describe, expect, it } from 'vitest';
import {
  applyTrailingSlash,
  articleLinkTarget,
  blogArticleUrl,
  rewriteArticleLinks,
  type ArticleLinkContext,
} from '../../src/html/article-links.js';

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

  it('rewriteArticleLinks: only the href of links to service articles changes; the rest is byte for byte', () => {
    const html =
      '<p>See <a href="https://pro-blog.example.com/blog/kept/" class="x">kept</a>, ' +
      "<a class='y' href='https://pro-blog.example.com/blog/pending/'>pending</a>, " +
      '<a href="https://pro-blog.example.com/blog/kept/?a=1&amp;b=2">query</a> and ' +
      '<img src="https://pro-blog.example.com/blog/kept/"> <link href="https://pro-blog.example.com/blog/kept/"></p>';
    expect(rewriteArticleLinks(html, ctx)).toBe(
      '<p>See <a href="https://blog.example.com/docs/blog/kept/" class="x">kept</a>, ' +
        "<a class='y' href='https://pro-blog.example.com/blog/pending/'>pending</a>, " +
        '<a href="https://blog.example.com/docs/blog/kept/?a=1&amp;b=2">query</a> and ' +
        '<img src="https://pro-blog.example.com/blog/kept/"> <link href="https://pro-blog.example.com/blog/kept/"></p>',
    );
  });

  it('rewriteArticleLinks: a page without a service origin is returned as it is', () => {
    const html = '<a href="/blog/kept/">x</a>';
    expect(rewriteArticleLinks(html, ctx)).toBe(html);
  });
});
