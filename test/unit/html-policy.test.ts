import { describe, expect, test } from 'vitest';
import { IFRAME_SANDBOX, sanitizeArticle } from '../../src/html/index.js';

const ARTICLE_URL = 'https://pro-blog.example.com/blog/first-post/';
const clean = (html: string, articleUrl: string | null = ARTICLE_URL) =>
  sanitizeArticle(html, { articleUrl: articleUrl ?? undefined }).html;

describe('policy: typical article markup is kept', () => {
  test('tables, figures, code, lists and inline semantics survive unchanged', () => {
    const html = [
      '<table><caption>Plans</caption><thead><tr><th scope="col">Plan</th><th scope="col">Rate</th></tr></thead>',
      '<tbody><tr><td>Pro</td><td colspan="2">30/h</td></tr></tbody></table>',
      '<pre><code class="language-ts">const a = 1 &lt; 2 &amp;&amp; b;</code></pre>',
      '<ul><li>one</li><li><strong>two</strong> <em>2</em></li></ul><ol start="3"><li>three</li></ol>',
      '<blockquote><p>Quote <abbr title="Search engine optimisation">SEO</abbr></p></blockquote>',
      '<p>H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>, <mark>hi</mark>, <time datetime="2026-01-02">Jan 2</time></p>',
      '<details open><summary>More</summary><p>Hidden</p></details><hr />',
    ].join('');
    expect(clean(html)).toBe(html);
  });

  test('figure with an image: image gets lazy loading and async decoding', () => {
    expect(
      clean(
        '<figure><img src="https://cdn.example.com/a.jpg" alt="A chart" width="800" height="600"><figcaption>Chart</figcaption></figure>',
      ),
    ).toBe(
      '<figure><img src="https://cdn.example.com/a.jpg" alt="A chart" width="800" height="600" loading="lazy" decoding="async" /><figcaption>Chart</figcaption></figure>',
    );
  });

  test('classes: only language-* on code and pre', () => {
    expect(
      clean('<pre class="language-js evil"><code class="language-js hljs">x</code></pre><p class="lead">p</p>'),
    ).toBe('<pre class="language-js"><code class="language-js">x</code></pre><p>p</p>');
  });

  test('sanitising an already sanitised article changes nothing', () => {
    const once = clean(
      '<h2>Intro</h2><p><a href="/blog/b/">b</a> <a href="https://x.example/">x</a></p><img src="i.png"><iframe src="https://player.vimeo.com/video/1"></iframe>',
    );
    expect(clean(once)).toBe(once);
  });
});

describe('policy: dangerous markup is removed', () => {
  test('script, style, svg, math, noscript and template are dropped with their content', () => {
    expect(
      clean(
        '<p>a</p><script>alert(1)</script><style>p{}</style><svg><circle/></svg><math><mi>x</mi></math><noscript>ns</noscript><template><b>t</b></template><p>b</p>',
      ),
    ).toBe('<p>a</p><p>b</p>');
  });

  test('form controls, object/embed and document-level tags are dropped', () => {
    const out = clean(
      '<form action="https://evil.example/"><input name="q"><button>Go</button><select><option>1</option></select><textarea>t</textarea></form><object data="x.swf"></object><embed src="x.swf"><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/"><link rel="stylesheet" href="x.css"><p>ok</p>',
    );
    expect(out).toBe('Go<p>ok</p>');
  });

  test('event handlers, style and unknown attributes are removed', () => {
    expect(clean('<p onclick="alert(1)" style="color:red" data-x="1" id="p1" class="c" lang="en">x</p>')).toBe(
      '<p lang="en">x</p>',
    );
  });

  test('only http, https and mailto URLs; protocol-relative URLs are dropped', () => {
    const out = clean(
      '<a href="javascript:alert(1)">a</a><a href="vbscript:x">b</a><a href="data:text/html,x">c</a><a href="//evil.example/">d</a><a href="/\\evil.example/">e</a><a href="tel:123">f</a><a href="mailto:hi@example.com">g</a><img src="data:image/png;base64,AAAA">',
    );
    expect(out).toBe(
      '<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a><a>f</a><a href="mailto:hi@example.com">g</a><img loading="lazy" decoding="async" />',
    );
  });

  test('obfuscated schemes (entities, control characters, case) are dropped', () => {
    expect(
      clean(
        '<a href="jav&#x09;ascript:alert(1)">a</a><a href=" JaVaScRiPt:alert(1)">b</a><a href="java&#0000115;cript:x">c</a>',
      ),
    ).toBe('<a>a</a><a>b</a><a>c</a>');
  });
});

describe('iframes', () => {
  test('YouTube embeds are kept, sandboxed, lazy, with a referrer policy and fullscreen', () => {
    const out = clean(
      '<iframe src="https://www.youtube.com/embed/abc123" width="560" height="315" title="Demo" frameborder="0" allow="autoplay; camera; encrypted-media" sandbox="allow-top-navigation" onload="x()">fallback</iframe>',
    );
    expect(out).toBe(
      '<iframe src="https://www.youtube.com/embed/abc123" width="560" height="315" title="Demo" allow="autoplay; encrypted-media" ' +
        `sandbox="${IFRAME_SANDBOX}" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`,
    );
  });

  test('youtube-nocookie and Vimeo players are kept', () => {
    expect(clean('<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>')).toContain(
      'src="https://www.youtube-nocookie.com/embed/x"',
    );
    expect(clean('<iframe src="https://player.vimeo.com/video/76979871"></iframe>')).toContain(
      `sandbox="${IFRAME_SANDBOX}"`,
    );
  });

  test('iframes from any other host, over http, relative or without src are removed with their content', () => {
    for (const src of [
      'https://evil.example/embed',
      'http://www.youtube.com/embed/x',
      '/embed/x',
      '//www.youtube.com/embed/x',
      'https://youtube.com.evil.example/',
      'javascript:alert(1)',
    ]) {
      expect(clean(`<p>a</p><iframe src="${src}">fallback <b>x</b></iframe><p>b</p>`), src).toBe('<p>a</p><p>b</p>');
    }
    expect(clean('<iframe srcdoc="<script>alert(1)</script>"></iframe>')).toBe('');
  });

  test('allowedIframeHosts adds a host', () => {
    const out = sanitizeArticle('<iframe src="https://www.loom.com/embed/1"></iframe>', {
      sanitize: { allowedIframeHosts: ['www.loom.com'] },
    }).html;
    expect(out).toContain('src="https://www.loom.com/embed/1"');
    expect(out).toContain(`sandbox="${IFRAME_SANDBOX}"`);
  });
});

describe('links', () => {
  test('relative links resolve against the article URL and stay internal', () => {
    expect(clean('<a href="/blog/other/">o</a><a href="../third/">t</a><a href="#part-2">p</a>')).toBe(
      '<a href="https://pro-blog.example.com/blog/other/">o</a><a href="https://pro-blog.example.com/blog/third/">t</a><a href="#part-2">p</a>',
    );
  });

  test('without articleUrl relative links are kept as they are', () => {
    expect(clean('<a href="/blog/other/">o</a>', null)).toBe('<a href="/blog/other/">o</a>');
  });

  test('external links get rel="noopener noreferrer"; same-origin links do not', () => {
    expect(
      clean(
        '<a href="https://other.example/">x</a><a href="https://pro-blog.example.com/blog/b/">y</a><a href="HTTPS://PRO-BLOG.example.com/">z</a>',
      ),
    ).toBe(
      '<a href="https://other.example/" rel="noopener noreferrer">x</a><a href="https://pro-blog.example.com/blog/b/">y</a><a href="HTTPS://PRO-BLOG.example.com/">z</a>',
    );
  });

  test('target is kept only as _blank (with noopener); safe rel tokens are kept', () => {
    expect(
      clean(
        '<a href="/a/" target="_top">a</a><a href="/b/" target="_BLANK" rel="nofollow opener me">b</a><a href="https://x.example/" rel="sponsored">c</a>',
      ),
    ).toBe(
      '<a href="https://pro-blog.example.com/a/">a</a><a href="https://pro-blog.example.com/b/" target="_blank" rel="nofollow noopener noreferrer">b</a><a href="https://x.example/" rel="sponsored noopener noreferrer">c</a>',
    );
  });
});

describe('images', () => {
  test('relative src and srcset resolve against the article; unsafe srcset candidates are dropped', () => {
    expect(
      clean(
        '<img src="img/a.png" srcset="img/a.png 1x, /b.png 2x, //evil.example/c.png 3x, javascript:x 4x" loading="eager" alt="">',
      ),
    ).toBe(
      '<img src="https://pro-blog.example.com/blog/first-post/img/a.png" srcset="https://pro-blog.example.com/blog/first-post/img/a.png 1x, https://pro-blog.example.com/b.png 2x" loading="lazy" alt="" decoding="async" />',
    );
  });

  test('a srcset with only unsafe candidates is removed', () => {
    expect(clean('<img src="https://cdn.example.com/a.png" srcset="//evil.example/c.png 1x">')).toBe(
      '<img src="https://cdn.example.com/a.png" loading="lazy" decoding="async" />',
    );
  });

  test('srcset width descriptors and sizes are kept', () => {
    expect(
      clean(
        '<img src="https://cdn.example.com/a.png" srcset="https://cdn.example.com/a-640.png 640w, https://cdn.example.com/a-1280.png 1280w" sizes="(max-width: 600px) 100vw, 600px">',
      ),
    ).toBe(
      '<img src="https://cdn.example.com/a.png" srcset="https://cdn.example.com/a-640.png 640w, https://cdn.example.com/a-1280.png 1280w" sizes="(max-width: 600px) 100vw, 600px" loading="lazy" decoding="async" />',
    );
  });
});

describe('extensions', () => {
  test('allowedTags and allowedAttributes keep extra markup, URL attributes still checked', () => {
    const sanitize = {
      allowedTags: ['video', 'source'],
      allowedAttributes: { video: ['controls', 'poster', 'src'], source: ['src', 'type'] },
    };
    const out = sanitizeArticle(
      '<video controls poster="javascript:alert(1)" src="https://cdn.example.com/v.mp4" onplay="x"><source src="//evil.example/v.mp4" type="video/mp4"></video>',
      { sanitize },
    ).html;
    expect(out).toBe('<video controls src="https://cdn.example.com/v.mp4"><source type="video/mp4" /></video>');
  });

  test('attribute globs (data-*, aria-*) and global attributes', () => {
    const sanitize = { allowedAttributes: { div: ['data-*'], '*': ['aria-*', 'lang'] } };
    expect(
      sanitizeArticle(
        '<div data-kind="note" data-x="javascript:alert(1)" onclick="x" aria-label="Note" lang="fr" style="x">n</div><p aria-hidden="true" data-kind="y">p</p>',
        { sanitize },
      ).html,
    ).toBe('<div data-kind="note" aria-label="Note" lang="fr">n</div><p aria-hidden="true">p</p>');
  });

  test('allowedClasses keeps extra classes', () => {
    expect(
      sanitizeArticle('<div class="callout callout-warn x">c</div>', {
        sanitize: { allowedClasses: { div: ['callout', 'callout-*'] } },
      }).html,
    ).toBe('<div class="callout callout-warn">c</div>');
  });

  test('allowedSchemes can narrow the policy (no mailto)', () => {
    expect(
      sanitizeArticle('<a href="mailto:a@example.com">m</a>', { sanitize: { allowedSchemes: ['https'] } }).html,
    ).toBe('<a>m</a>');
  });
});
