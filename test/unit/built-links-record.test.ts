/**
 * The end-of-build link pass (src/integration/build/built-links.ts) over an output it already passed: with the same
 * inputs, a page still as the pass left it (same time and size) is not read again; a page written since, and
 * every page once the inputs change (an article added, a page built or gone), is.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rewriteBuiltArticleLinks } from '../../src/integration/build/built-links.js';
import type { RouteConfig } from '../../src/integration/settings/route-config.js';

const SERVICE = 'https://pro-blog.example.com';
const base = mkdtempSync(join(tmpdir(), 'acp-built-links-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function config(slugs: string[]): RouteConfig {
  return {
    siteId: 12,
    serviceOrigin: 'http://127.0.0.1:4000',
    sitemapUrl: '',
    rssUrl: '',
    blogSite: 'https://blog.example.com/',
    articlePattern: '/blog/[slug]/',
    trailingSlash: 'always',
    timeoutMs: 1000,
    sitemap: false,
    rss: false,
    dev: false,
    localPages: [],
    articles: { slugs, origins: [SERVICE] },
    builtPages: ['/', ...slugs.map((slug) => `/blog/${slug}/`)],
  };
}

/** An output with a page per article, each linking to the service's page of `next` (and a home page). */
function output(name: string, pages: Record<string, string>) {
  const out = join(base, name, 'out');
  for (const [slug, next] of Object.entries(pages)) {
    mkdirSync(join(out, 'blog', slug), { recursive: true });
    writeFileSync(join(out, 'blog', slug, 'index.html'), `<a href="${SERVICE}/blog/${next}/">next</a>`);
  }
  writeFileSync(join(out, 'index.html'), `<a href="${SERVICE}/blog/a/">first</a>`);
  return { dir: pathToFileURL(`${out}/`), cacheDir: pathToFileURL(join(base, name, 'cache/')), out };
}

const page = (out: string, slug: string) => readFileSync(join(out, 'blog', slug, 'index.html'), 'utf8');

describe('the link pass over an output it already passed', () => {
  it('same inputs: nothing read again; a page written since is; new inputs: every page is', () => {
    const { dir, cacheDir, out } = output('chain', { a: 'b', b: 'c', c: 'a' });
    const first = rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, cacheDir);
    // c has no page this build: its page is removed; the links to a and b (home, a) go to the blog, b's to c
    // stays on the service.
    expect(first).toEqual({ rewritten: 2, removed: ['blog/c/index.html'], skipped: 0 });
    expect(page(out, 'a')).toBe('<a href="https://blog.example.com/blog/b/">next</a>');
    expect(page(out, 'b')).toBe(`<a href="${SERVICE}/blog/c/">next</a>`);

    // The same inputs, nothing written since: every page is skipped.
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, cacheDir)).toEqual({
      rewritten: 0,
      removed: [],
      skipped: 3,
    });

    // A page rendered again (Astro's incremental build renders a changed article): read and rewritten.
    writeFileSync(join(out, 'blog', 'a', 'index.html'), `<a href="${SERVICE}/blog/b/">again</a>`);
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, cacheDir)).toMatchObject({
      rewritten: 1,
      skipped: 2,
    });
    expect(page(out, 'a')).toBe('<a href="https://blog.example.com/blog/b/">again</a>');

    // Same size, another time (a restored cache, a copy): read again, left as it is.
    utimesSync(join(out, 'blog', 'b', 'index.html'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, cacheDir)).toMatchObject({
      rewritten: 0,
      skipped: 2,
    });

    // c arrives (its page built): every page is read again, and b's link goes to c's page on the blog.
    mkdirSync(join(out, 'blog', 'c'), { recursive: true });
    writeFileSync(join(out, 'blog', 'c', 'index.html'), `<a href="${SERVICE}/blog/a/">next</a>`);
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b', 'c']), undefined, cacheDir)).toMatchObject({
      rewritten: 2,
      skipped: 0,
    });
    expect(page(out, 'b')).toBe('<a href="https://blog.example.com/blog/c/">next</a>');
  });

  it('without a cache directory, or with another output, every page is read each time', () => {
    const { dir, cacheDir } = output('plain', { a: 'b', b: 'a' });
    rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, undefined);
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b']))).toMatchObject({ skipped: 0 });
    rewriteBuiltArticleLinks(dir, config(['a', 'b']), undefined, cacheDir);
    const other = output('other', { a: 'b', b: 'a' });
    expect(rewriteBuiltArticleLinks(other.dir, config(['a', 'b']), undefined, cacheDir)).toMatchObject({
      rewritten: 3,
      skipped: 0,
    });
  });

  it('a page rewritten in place has exactly the new bytes, whether the links grew or shrank', () => {
    const { dir, out } = output('sizes', { a: 'b', b: 'a' });
    const longer = { ...config(['a', 'b']), blogSite: 'https://blog.example.com/a/much/longer/base/path/' };
    writeFileSync(join(out, 'blog', 'a', 'index.html'), `<a href="${SERVICE}/blog/b/">next</a>`.repeat(3));
    expect(rewriteBuiltArticleLinks(dir, longer)).toMatchObject({ rewritten: 3 });
    expect(page(out, 'a')).toBe(
      '<a href="https://blog.example.com/a/much/longer/base/path/blog/b/">next</a>'.repeat(3),
    );
    writeFileSync(join(out, 'blog', 'b', 'index.html'), `<a href="${SERVICE}/blog/a/">x</a>`);
    expect(rewriteBuiltArticleLinks(dir, config(['a', 'b']))).toMatchObject({ rewritten: 1 });
    expect(page(out, 'b')).toBe('<a href="https://blog.example.com/blog/a/">x</a>');
  });

  it('the same inputs in another order (pages written in another order, an edited article stored again last): skipped', () => {
    const { dir, cacheDir } = output('order', { a: 'b', b: 'c', c: 'a' });
    const first = config(['a', 'b', 'c']);
    rewriteBuiltArticleLinks(
      dir,
      { ...first, articles: { ...first.articles!, languages: { a: ['en'], b: ['en', 'fr'] } } },
      undefined,
      cacheDir,
    );
    const again: RouteConfig = {
      ...first,
      builtPages: [...first.builtPages!].reverse(),
      articles: { slugs: ['c', 'a', 'b'], origins: [SERVICE], languages: { b: ['fr', 'en'], a: ['en'] } },
    };
    expect(rewriteBuiltArticleLinks(dir, again, undefined, cacheDir)).toMatchObject({ rewritten: 0, skipped: 4 });
  });
});
