/**
 * Links to an article the service stopped publishing: the loader remembers the slugs it removed that the public
 * sitemap lacks too (`nextUnpublished`), and a link to one that the blog does not have in the language it asks
 * for loses its address (`articleTargetOf` answers UNLINK; the page rewrite drops the `href`): the blog's page
 * and the service's both answer 404. Before, the link went back to the service's dead URL.
 */
import { describe, expect, it } from 'vitest';
import { unpublishedKey, type ArticleLinkContext } from '../../src/html/article-links.js';
import { articleTargetOf } from '../../src/integration/links/article-links-response.js';
import { servedPagesOf } from '../../src/integration/blog/known-articles.js';
import { rewriteLinkChunk } from '../../src/integration/links/link-tags.js';
import { nextUnpublished, UNPUBLISHED_KEPT } from '../../src/loader/state/state.js';

const S = 'https://pro-blog.example.com';
const B = 'https://blog.example.com/';
const ctx: ArticleLinkContext = {
  blogSite: B,
  articlePattern: '/[lang]/blog/[slug]/',
  trailingSlash: 'always',
  serviceOrigins: [S],
  known: new Set(['pair', 'kept']),
  languages: { pair: ['fr'], kept: ['en'] },
  unpublished: new Set([unpublishedKey('en', 'pair'), unpublishedKey('en', 'solo'), unpublishedKey('', 'any')]),
};

describe('links to articles the service unpublished', () => {
  const target = articleTargetOf(ctx);

  it('lose their address when the blog lacks the article in that language: service URL or blog URL', () => {
    expect(target(`${S}/en/blog/solo/#top`, undefined)).toBe('');
    expect(target(`${B}en/blog/solo/`, undefined)).toBe('');
    // "pair" is gone in en, still on the blog in fr.
    expect(target(`${S}/en/blog/pair/`, undefined)).toBe('');
    // Recorded by a loader without a language: gone in every language.
    expect(target(`${S}/de/blog/any/`, undefined)).toBe('');
    expect(target(`${S}/blog/any/`, undefined)).toBe('');
    // A link without a language takes the page's.
    expect(target(`${S}/blog/solo/`, 'en')).toBe('');
    // ... even where another language still has the slug: an English page's link named the English article.
    expect(target(`${S}/blog/pair/`, 'en')).toBe('');
  });

  it('a static build: a page it wrote keeps the link; a page only an on-demand route would answer does not', () => {
    const config = {
      builtPages: ['en/blog/solo/'],
      onDemandPages: [String.raw`^\/([^/]+?)\/blog\/([^/]+?)\/?$`],
    };
    const pages = servedPagesOf(config)!;
    expect(pages.has('en/blog/any')).toBe(true);
    const hybrid = articleTargetOf({ ...ctx, pages });
    expect(hybrid(`${B}en/blog/solo/`, undefined)).toBeUndefined();
    expect(hybrid(`${B}de/blog/any/`, undefined)).toBe('');
  });

  it('keep it where the article still answers: on the blog, in another language, or never recorded', () => {
    expect(target(`${S}/fr/blog/pair/`, undefined)).toBe(`${B}fr/blog/pair/`);
    expect(target(`${S}/blog/pair/`, 'fr')).toBe(`${B}fr/blog/pair/`);
    expect(target(`${S}/blog/pair/`, undefined)).toBe(`${B}fr/blog/pair/`);
    expect(target(`${S}/fr/blog/solo/`, undefined)).toBeUndefined();
    expect(target(`${S}/blog/solo/`, 'fr')).toBeUndefined();
    expect(target(`${S}/blog/solo/`, undefined)).toBeUndefined();
    expect(target(`${S}/en/blog/other/`, undefined)).toBeUndefined();
    expect(target(`${S}/en/blog/kept/`, undefined)).toBe(`${B}en/blog/kept/`);
    expect(target('https://elsewhere.example.com/en/blog/solo/', undefined)).toBeUndefined();
    expect(articleTargetOf({ ...ctx, unpublished: undefined })(`${S}/en/blog/solo/`, undefined)).toBeUndefined();
  });

  it('the page rewrite parks the href (no link, the rest of the tag and the text kept), and gives it back once the article answers', () => {
    const html = `<html lang="en"><p><a class="x" href="${S}/en/blog/solo/" rel="noopener">solo</a> <a href="${S}/fr/blog/pair/">pair</a></p>`;
    const parked = rewriteLinkChunk(html, target, true).out;
    expect(parked).toBe(
      `<html lang="en"><p><a class="x" data-unpublished-href="${S}/en/blog/solo/" rel="noopener">solo</a> <a href="${B}fr/blog/pair/">pair</a></p>`,
    );
    // A later pass (a page an incremental build keeps): still gone, nothing changes.
    expect(rewriteLinkChunk(parked, target, true).out).toBe(parked);
    // Published again on the blog: the link points at its page; on the service only: at the service again.
    const back = articleTargetOf({
      ...ctx,
      known: new Set([...ctx.known!, 'solo']),
      languages: { ...ctx.languages, solo: ['en'] },
      unpublished: new Set(),
    });
    expect(rewriteLinkChunk(parked, back, true).out).toContain(
      `<a class="x" href="${B}en/blog/solo/" rel="noopener">solo</a>`,
    );
    const service = articleTargetOf({ ...ctx, unpublished: new Set() });
    expect(rewriteLinkChunk(parked, service, true).out).toContain(
      `<a class="x" href="${S}/en/blog/solo/" rel="noopener">solo</a>`,
    );
  });

  it('a page of the blog that this build wrote is never unlinked, whatever slug it once had', () => {
    const root = articleTargetOf({
      ...ctx,
      articlePattern: '/[slug]/',
      pages: new Set(['about']),
      unpublished: new Set([unpublishedKey('', 'about')]),
    });
    expect(root(`${B}about/`, undefined)).toBeUndefined();
  });
});

describe('nextUnpublished: what the loader remembers', () => {
  const none = () => false;

  it('removed slugs that the sitemap lacks join; those it lists do not (a filter, not the service, removed them)', () => {
    expect(nextUnpublished(undefined, ['a', 'b'], new Set(['b']), none)).toEqual(['a']);
  });

  it('adds nothing when the sitemap could not be read: a removal alone is no evidence', () => {
    expect(nextUnpublished(undefined, ['a'], undefined, none)).toBeUndefined();
    expect(nextUnpublished(['x'], ['a'], undefined, none)).toEqual(['x']);
  });

  it('a slug listed or stored again leaves, not one a (maybe stale) sitemap lists; the oldest go past the cap', () => {
    expect(nextUnpublished(['x', 'y'], [], new Set(), (slug) => slug === 'x')).toEqual(['y']);
    // A CDN edge's older copy still lists an unpublished article: no evidence that it is back (issue 38, item 4).
    expect(nextUnpublished(['x', 'y'], [], new Set(['y']), none)).toEqual(['x', 'y']);
    expect(nextUnpublished(['x'], ['x'], new Set(), none)).toEqual(['x']);
    const many = Array.from({ length: UNPUBLISHED_KEPT }, (_, i) => `old-${i}`);
    const next = nextUnpublished(many, ['new'], new Set(), none)!;
    expect(next).toHaveLength(UNPUBLISHED_KEPT);
    expect(next.at(-1)).toBe('new');
    expect(next[0]).toBe('old-1');
  });
});
