// The URL collector of the real-theme tests: what it reads from a page decides what "every URL the built
// site names" means there.
import { describe, expect, it } from 'vitest';
import { urlsOfHtml } from './site-urls.js';

const PAGE = 'https://example.com/en/blog/post/';

describe('urlsOfHtml', () => {
  it('reads href, src and every candidate of srcset, resolved against the page and without fragments', () => {
    const html = `<link rel="stylesheet" href="/_astro/a.css"><a href="../other/#top">x</a>
      <img src="cover.webp" srcset="/_astro/c-320.webp 320w, /_astro/c-640.webp 640w">
      <source srcset="/_astro/d.avif 1x,/_astro/d2.avif 2x"><script src="https://cdn.example.net/s.js"></script>`;
    expect(urlsOfHtml(html, PAGE)).toEqual([
      'https://example.com/_astro/a.css',
      'https://example.com/en/blog/other/',
      'https://example.com/en/blog/post/cover.webp',
      'https://example.com/_astro/c-320.webp',
      'https://example.com/_astro/c-640.webp',
      'https://example.com/_astro/d.avif',
      'https://example.com/_astro/d2.avif',
      'https://cdn.example.net/s.js',
    ]);
  });

  it('decodes entities and leaves out mailto:, tel:, javascript: and data: URLs and empty values', () => {
    const html = `<a href="/search?q=a&amp;b=c">s</a><a href="mailto:x@example.com">m</a><a href="tel:+1">t</a>
      <a href="javascript:void(0)">j</a><img src="data:image/png;base64,AAAA"><a href="">e</a><a href="#top">top</a>`;
    expect(urlsOfHtml(html, PAGE)).toEqual(['https://example.com/search?q=a&b=c', PAGE]);
  });

  it('keeps a value that is not a URL as invalid (it fails the check)', () => {
    expect(urlsOfHtml('<a href="https://exa mple.com:99999/">x</a>', PAGE)).toEqual([
      'invalid:https://exa mple.com:99999/',
    ]);
  });
});
