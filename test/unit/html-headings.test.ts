import { describe, expect, test } from 'vitest';
import { sanitizeArticle, slugify } from '../../src/html/index.js';

describe('headings', () => {
  test('h1-h6 get slug ids and are returned with depth, slug and text', () => {
    const { html, headings } = sanitizeArticle(
      '<h1>Title</h1><h2>Getting started</h2><h3>Install it</h3><h4>A</h4><h5>B</h5><h6>C</h6>',
    );
    expect(html).toBe(
      '<h1 id="title">Title</h1><h2 id="getting-started">Getting started</h2><h3 id="install-it">Install it</h3><h4 id="a">A</h4><h5 id="b">B</h5><h6 id="c">C</h6>',
    );
    expect(headings).toEqual([
      { depth: 1, slug: 'title', text: 'Title' },
      { depth: 2, slug: 'getting-started', text: 'Getting started' },
      { depth: 3, slug: 'install-it', text: 'Install it' },
      { depth: 4, slug: 'a', text: 'A' },
      { depth: 5, slug: 'b', text: 'B' },
      { depth: 6, slug: 'c', text: 'C' },
    ]);
  });

  test('ids are stable across runs', () => {
    const html = '<h2>One</h2><p>x</p><h2>One</h2><h3>Two &amp; three</h3>';
    const first = sanitizeArticle(html);
    expect(sanitizeArticle(html)).toEqual(first);
    expect(first.html).not.toMatch(/acp-/);
  });

  test('duplicate headings are numbered -1, -2 in document order', () => {
    const { headings } = sanitizeArticle('<h2>FAQ</h2><h3>FAQ</h3><h2>faq</h2><h2>FAQ-1</h2>');
    expect(headings.map((h) => h.slug)).toEqual(['faq', 'faq-1', 'faq-2', 'faq-1-1']);
  });

  test('text has entities decoded and tags stripped; nested markup is fine', () => {
    const { html, headings } = sanitizeArticle(
      '<h2>Caf&eacute; &amp; <em>cr&egrave;me</em> <code>&lt;br&gt;</code> <a href="https://x.example/">link</a><script>bad()</script></h2>',
    );
    expect(headings).toEqual([{ depth: 2, slug: 'café--crème-br-link', text: 'Café & crème <br> link' }]);
    expect(html).toBe(
      '<h2 id="café--crème-br-link">Café &amp; <em>crème</em> <code>&lt;br&gt;</code> <a href="https://x.example/" rel="noopener noreferrer">link</a></h2>',
    );
  });

  test('safe existing ids are kept, unsafe or duplicate ones replaced', () => {
    const { headings } = sanitizeArticle(
      '<h2 id="intro">Introduction</h2><h2 id="intro">Again</h2><h2 id="x&quot; onclick=&quot;a">Quoted</h2><h2 id="__proto__">Proto</h2><h2>Intro</h2>',
    );
    expect(headings.map((h) => h.slug)).toEqual(['intro', 'again', 'quoted', 'proto', 'intro-1']);
  });

  test('whitespace is collapsed; empty headings keep an id but are not listed', () => {
    const { html, headings } = sanitizeArticle('<h2>\n  Spaced   out\n</h2><h3></h3><h3>!!!</h3>');
    expect(headings).toEqual([
      { depth: 2, slug: 'spaced-out', text: 'Spaced out' },
      { depth: 3, slug: 'heading-1', text: '!!!' },
    ]);
    expect(html).toContain('<h3 id="heading"></h3>');
  });

  test('a forged placeholder id in the source is not mistaken for one', () => {
    const { html, headings } = sanitizeArticle(
      '<h2 id="acp-AAAAAAAAAAAA-0">Real</h2><abbr title="acp-AAAAAAAAAAAA-0">p</abbr>',
    );
    expect(headings).toEqual([{ depth: 2, slug: 'acp-AAAAAAAAAAAA-0', text: 'Real' }]);
    expect(html).toBe('<h2 id="acp-AAAAAAAAAAAA-0">Real</h2><abbr title="acp-AAAAAAAAAAAA-0">p</abbr>');
  });

  test('ids land on the right heading whatever surrounds it: attribute order, unclosed headings, refused iframes inside', () => {
    // A source id before other attributes keeps its place; a generated id goes last.
    const ordered = sanitizeArticle('<h2 id="keep" class="note">A</h2><h3 class="x">B</h3>', {
      sanitize: { allowedClasses: { h2: ['note'], h3: ['x'] } },
    });
    expect(ordered.html).toBe('<h2 id="keep" class="note">A</h2><h3 class="x" id="b">B</h3>');
    expect(sanitizeArticle('<p>x</p><h2>Open <b>bold').html).toBe('<p>x</p><h2 id="open-bold">Open <b>bold</b></h2>');
    const framed = sanitizeArticle('<h2>T<iframe src="https://evil.example/">x</iframe>U</h2><h2>T</h2>');
    expect(framed.html).toBe('<h2 id="tu">TU</h2><h2 id="t">T</h2>');
    expect(framed.headings).toEqual([
      { depth: 2, slug: 'tu', text: 'TU' },
      { depth: 2, slug: 't', text: 'T' },
    ]);
  });

  test('slugify follows github-slugger (as Astro Markdown headings do)', () => {
    expect(slugify('Hello, World!')).toBe('hello-world');
    expect(slugify('Über straße 2026')).toBe('über-straße-2026');
    expect(slugify('snake_case and-dash')).toBe('snake_case-and-dash');
  });
});
