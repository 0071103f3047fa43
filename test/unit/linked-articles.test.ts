import { describe, expect, it } from 'vitest';
import { sanitizeArticle } from '../../src/html/index.js';
import { linkedServiceArticles } from '../../src/html/linked-articles.js';

const SERVICE = 'https://pro-blog.example.com';

describe('linkedServiceArticles (the tags of the articles a page links to)', () => {
  it("finds the service's article links of sanitised HTML, once each, in order, the article itself left out", () => {
    const { html } = sanitizeArticle(
      [
        '<p><a href="/blog/first/">relative, resolved against the article</a>',
        `<a href="${SERVICE}/fr/blog/deuxi%C3%A8me/?a=1&b=2#top">language, query, fragment</a>`,
        `<a title='x"y' href="${SERVICE}/blog/first/">again</a>`,
        `<a href="${SERVICE}/blog/self/">itself</a>`,
        '<a href="https://elsewhere.example.com/blog/other/">another site</a>',
        `<a href="${SERVICE}/about/">a page that is no article</a>`,
        `<img src="${SERVICE}/blog/image-not-a-link/"></p>`,
      ].join(''),
      { articleUrl: `${SERVICE}/blog/self/` },
    );
    expect(linkedServiceArticles(html, [SERVICE], 'self', 32)).toEqual(['first', 'deuxième']);
    expect(linkedServiceArticles(html, ['https://other.example.com'], 'self', 32)).toEqual([]);
  });

  it('stops at `max` articles', () => {
    const html = Array.from({ length: 40 }, (_, i) => `<a href="${SERVICE}/blog/a-${i}/">${i}</a>`).join('');
    const slugs = linkedServiceArticles(html, [SERVICE], 'self', 32);
    expect(slugs).toHaveLength(32);
    expect(slugs.at(-1)).toBe('a-31');
  });
});
