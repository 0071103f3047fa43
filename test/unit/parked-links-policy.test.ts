/**
 * A parked link (`data-unpublished-href`, written by the link passes when an article was unpublished) comes back
 * as `href` only where the sanitiser would have kept that URL (issue 37, finding 6). An owner who allows `data-*`
 * on `<a>` lets an article write the attribute itself: before, the middleware and the build's link pass turned
 * `//evil.example/login`, `tel:`, `sms:` or `ftp:` into a live link. The article goes through the real
 * sanitiser, then through the middleware's stream (as a page's Response) and the build's pass.
 */
import { describe, expect, it } from 'vitest';
import { type ArticleLinkContext } from '../../src/html/article-links.js';
import { sanitizeArticle } from '../../src/html/sanitize.js';
import { articleTargetOf } from '../../src/integration/links/article-links-response.js';
import { linkRewriteStream, rewriteLinkChunk } from '../../src/integration/links/link-tags.js';

const S = 'https://pro-blog.example.com';
const ctx: ArticleLinkContext = {
  blogSite: 'https://blog.example.com/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'always',
  serviceOrigins: [S],
  known: new Set(['kept']),
};
const HOSTILE = [
  '//evil.example/login',
  '\\\\evil.example/login',
  ' //evil.example/login',
  'tel:+15550100',
  'sms:+15550100',
  'ftp://evil.example/file',
  'javascript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  'data:text/html,x',
];

async function middleware(html: string): Promise<string> {
  const page = new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  return new Response(page.body!.pipeThrough(linkRewriteStream(articleTargetOf(ctx)))).text();
}
const buildPass = (html: string) => rewriteLinkChunk(html, articleTargetOf(ctx), true).out;

describe('parked links and the URL policy', () => {
  it('an article writes data-unpublished-href itself (data-* allowed on <a>): neither pass makes it a link', async () => {
    for (const value of HOSTILE) {
      const { html } = sanitizeArticle(`<p><a data-unpublished-href="${value}">Sign in</a></p>`, {
        sanitize: { allowedAttributes: { a: ['data-*'] } },
        articleUrl: `${S}/blog/post/`,
      });
      // The attack's premise: the sanitiser keeps the attribute (it drops a script URL there itself).
      if (!/script:|&#x09;|^data:/.test(value)) expect(html, value).toContain('data-unpublished-href');
      const page = `<!doctype html><html lang="en"><body>${html}</body></html>`;
      for (const out of [await middleware(page), buildPass(page)]) {
        expect(out, value).not.toMatch(/\shref=/);
        expect(out, value).toBe(page);
      }
    }
  });

  it('a parked link to an article that answers again comes back (the service URL mapped to the blog)', async () => {
    const page = `<html><body><a data-unpublished-href="${S}/blog/kept/">Kept</a></body></html>`;
    for (const out of [await middleware(page), buildPass(page)])
      expect(out).toContain('<a href="https://blog.example.com/blog/kept/">Kept</a>');
  });

  it('a parked http(s) or relative URL the sanitiser keeps comes back as it was', async () => {
    for (const value of ['https://elsewhere.example/page/', '/blog/other/', 'mailto:team@blog.example.com']) {
      const page = `<html><body><a data-unpublished-href="${value}">x</a></body></html>`;
      for (const out of [await middleware(page), buildPass(page)]) expect(out, value).toContain(`href="${value}"`);
    }
  });
});
