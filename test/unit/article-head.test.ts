/**
 * Issue 38 item 2: `articleHead` and `jsonLdText` as pure functions (test/astro/article-head.test.ts checks the
 * built pages). Absent fields are left out, never "undefined"; the JSON-LD text is escaped at the JSON level.
 */
import { describe, expect, it } from 'vitest';
import { articleHead, jsonLdText } from '../../src/head/index.js';

const SITE = 'https://blog.example.com';

describe('jsonLdText', () => {
  it('writes <, >, &, U+2028 and U+2029 as \\u escapes, and parses back to the same value', () => {
    const value = { headline: '</script><!-- & \u2028\u2029 "x"' };
    const text = jsonLdText(value);
    expect(text).toBe('{"headline":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 \\"x\\""}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('articleHead', () => {
  const bare = { data: { title: 'Only a title', publishedAt: new Date('2024-05-01T00:00:00Z'), keywords: [] } };

  it('an article with only a title and a date: the fields it has, nothing written as undefined', () => {
    const head = articleHead(bare, { site: SITE, url: `${SITE}/blog/only/` });
    expect(head.jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Only a title',
      description: 'Only a title',
      datePublished: '2024-05-01T00:00:00+00:00',
      url: `${SITE}/blog/only/`,
      mainEntityOfPage: { '@type': 'WebPage', '@id': `${SITE}/blog/only/` },
    });
    expect(head.links).toEqual([{ rel: 'canonical', href: `${SITE}/blog/only/` }]);
    expect(head.meta).toContainEqual({ name: 'twitter:card', content: 'summary' });
    expect(head.meta.some((m) => 'property' in m && m.property.startsWith('og:image'))).toBe(false);
    expect(JSON.stringify(head)).not.toContain('undefined');
  });

  it("reads the article's fields kept beside an entry whose schema reshaped them (a theme's strict schema)", () => {
    const entry = {
      data: { heading: 'x' },
      rendered: {
        metadata: { serviceData: { ...bare.data, title: 'Kept title', language: 'fr', metaDescription: 'Meta.' } },
      },
    };
    const head = articleHead(entry, {
      site: SITE,
      url: '/fr/blog/kept/',
      image: { src: '/_astro/a.webp', width: 800, height: 400 },
    });
    expect(head.title).toBe('Kept title');
    expect(head.description).toBe('Meta.');
    expect(head.canonical).toBe(`${SITE}/fr/blog/kept/`);
    expect(head.jsonLd.inLanguage).toBe('fr');
    expect(head.jsonLd.image).toEqual([`${SITE}/_astro/a.webp`]);
    expect(head.meta).toContainEqual({ property: 'og:image:width', content: '800' });
  });

  it('hreflang: only with two or more languages at distinct URLs, each one itself included, sorted', () => {
    const entry = { data: { ...bare.data, language: 'fr' } };
    const one = articleHead(entry, {
      site: SITE,
      url: '/fr/blog/x/',
      alternates: [{ hreflang: 'fr', href: '/fr/blog/x/' }],
    });
    expect(one.links).toHaveLength(1);
    const two = articleHead(entry, {
      site: SITE,
      url: '/fr/blog/x/',
      alternates: [{ hreflang: 'en', href: '/en/blog/x/' }],
    });
    expect(two.links.slice(1)).toEqual([
      { rel: 'alternate', hreflang: 'en', href: `${SITE}/en/blog/x/` },
      { rel: 'alternate', hreflang: 'fr', href: `${SITE}/fr/blog/x/` },
    ]);
  });
});
