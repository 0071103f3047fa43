/** Which built pages ask search engines not to index them (left out of the static sitemap). */
import { describe, expect, it } from 'vitest';
import { pageSaysNoindex } from '../../src/integration/blog/noindex.js';

const page = (head: string, body = '') =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;

describe('pageSaysNoindex', () => {
  it('reads robots and googlebot meta tags however they are written', () => {
    // astro-erudite's tag and author pages; AstroPaper's and others' variants.
    expect(pageSaysNoindex(page('<meta name="robots" content="noindex, nofollow">'))).toBe(true);
    expect(pageSaysNoindex(page("<meta content='NOINDEX' name='Robots'/>"))).toBe(true);
    expect(pageSaysNoindex(page('<meta name=googlebot content="noindex,follow">'))).toBe(true);
    expect(pageSaysNoindex(page('<meta name="robots" content="none">'))).toBe(true);
  });

  it('an indexable page, another meta, or a noindex outside the head is not one', () => {
    expect(pageSaysNoindex(page('<meta name="robots" content="index, follow">'))).toBe(false);
    expect(pageSaysNoindex(page('<meta name="description" content="noindex is a word">'))).toBe(false);
    expect(
      pageSaysNoindex(
        page('', '<pre>&lt;meta name="robots" content="noindex"&gt;</pre><meta name="robots" content="noindex">'),
      ),
    ).toBe(false);
    expect(pageSaysNoindex(page('<meta name="robots" content="noarchive">'))).toBe(false);
  });
});
