import { describe, expect, it } from 'vitest';
import { blogArticleSlug } from '../../src/html/article-links.js';
import {
  customizeRss,
  rssHandlerOptionsSchema,
  type RssHandlerOptions,
} from '../../src/integration/proxy/rss-customize.js';

const layout = {
  blogSite: 'https://blog.example.com/docs/',
  articlePattern: '/blog/[slug]/',
  trailingSlash: 'ignore' as const,
};
const ctx = { ...layout, languages: { a: ['en'], b: ['fr'], c: ['en'] } };
const item = (slug: string, date: string) =>
  `<item><title>${slug.toUpperCase()}</title><link>https://blog.example.com/docs/blog/${slug}/</link><pubDate>${date}</pubDate></item>`;
const feed = (items: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Service</title><link>https://blog.example.com/docs/</link><description>Theirs</description>${items.join('\n')}</channel></rss>`;
const source = feed([
  item('a', 'Wed, 03 Jun 2026 00:00:00 GMT'),
  item('b', 'Tue, 02 Jun 2026 00:00:00 GMT'),
  item('c', 'Mon, 01 Jun 2026 00:00:00 GMT'),
]);
const run = (options: RssHandlerOptions) => customizeRss(source, rssHandlerOptionsSchema.parse(options), ctx);

describe('rssHandler options (issue 13: the RSS route as a handler)', () => {
  it('no option: the feed byte for byte', () => {
    expect(run({})).toBe(source);
  });

  it("title and description replace the channel's, escaped", () => {
    const out = run({ title: 'Mine & yours', description: 'Ours' });
    expect(out).toContain('<channel><title>Mine &amp; yours</title>');
    expect(out).toContain('<description>Ours</description>');
  });

  it("language keeps the articles the loaders know in that language, and says it in the channel's <language>; filter sees title, link and language", () => {
    expect(run({ language: 'en' })).toBe(
      feed([item('a', 'Wed, 03 Jun 2026 00:00:00 GMT'), item('c', 'Mon, 01 Jun 2026 00:00:00 GMT')]).replace(
        '<description>Theirs</description>',
        '<description>Theirs</description>\n<language>en</language>',
      ),
    );
    // A channel <language> of the service's own is replaced, not doubled.
    const withLanguage = source.replace('<description>Theirs</description>', '$&<language>fr</language>');
    const out = customizeRss(withLanguage, rssHandlerOptionsSchema.parse({ language: 'en' }), ctx);
    expect(out.match(/<language>[^<]*<\/language>/g)).toEqual(['<language>en</language>']);
    const seen: unknown[] = [];
    run({ filter: (view) => (seen.push(view), view.title !== 'B') });
    expect(seen[1]).toEqual({ title: 'B', link: 'https://blog.example.com/docs/blog/b/', language: 'fr' });
  });

  it("items of the blog's own are merged by pubDate, newest first, links resolved against site and base", () => {
    const out = run({ items: [{ title: 'Local', link: 'posts/local/', pubDate: new Date('2026-06-02T12:00:00Z') }] });
    expect(out).toBe(
      feed([
        item('a', 'Wed, 03 Jun 2026 00:00:00 GMT'),
        '<item><title>Local</title><link>https://blog.example.com/docs/posts/local/</link><guid isPermaLink="true">https://blog.example.com/docs/posts/local/</guid><pubDate>Tue, 02 Jun 2026 12:00:00 GMT</pubDate></item>',
        item('b', 'Tue, 02 Jun 2026 00:00:00 GMT'),
        item('c', 'Mon, 01 Jun 2026 00:00:00 GMT'),
      ]),
    );
  });

  it("items as @astrojs/rss users map them: a path from the site's root goes under the base, trailingSlash applies, the frontmatter spread is not refused, categories are written", () => {
    const never = { ...ctx, trailingSlash: 'never' as const };
    const post = { title: 'Post', heroImage: './a.jpg', updatedDate: new Date('2026-06-04T00:00:00Z') };
    const options = rssHandlerOptionsSchema.parse({
      items: [
        { ...post, link: '/blog/post-1/', categories: ['a & b'] },
        { ...post, link: 'blog/post-2/' },
        { ...post, link: '/docs/blog/post-3/' },
        { ...post, link: 'https://elsewhere.example/x/' },
      ],
    });
    const links = [...customizeRss(source, options, never).matchAll(/<link>([^<]+)<\/link>/g)].map((m) => m[1]);
    // Found by a new user migrating a blog under base '/docs' and trailingSlash 'never': both answered 404.
    expect(links).toContain('https://blog.example.com/docs/blog/post-1');
    expect(links).toContain('https://blog.example.com/docs/blog/post-2');
    expect(links).toContain('https://blog.example.com/docs/blog/post-3');
    expect(links).toContain('https://elsewhere.example/x/');
    expect(customizeRss(source, options, never)).toContain('<category>a &amp; b</category>');
  });

  it("an item of the blog's own at an article's URL (the same slug under a shared path) is left out and named: one guid, one item", () => {
    const named: string[] = [];
    const options = rssHandlerOptionsSchema.parse({
      items: [
        { title: 'My own A', link: '/blog/a/' },
        { title: 'Mine', link: 'blog/mine/' },
      ],
    });
    const out = customizeRss(source, options, { ...ctx, onDuplicate: (link) => named.push(link) });
    expect(out.match(/<link>https:\/\/blog\.example\.com\/docs\/blog\/a\/<\/link>/g)).toHaveLength(1);
    expect(out).not.toContain('My own A');
    expect(out).toContain('<title>Mine</title>');
    expect(named).toEqual(['https://blog.example.com/docs/blog/a/']);
  });

  it('a bad option is named', () => {
    expect(rssHandlerOptionsSchema.safeParse({ items: [{ title: 'x' }] }).error?.issues[0]?.message).toBe(
      '`items[].link` must be a string URL or path.',
    );
  });

  it("blogArticleSlug: the inverse of the blog's article URL", () => {
    expect(blogArticleSlug('https://blog.example.com/docs/blog/a/', layout)).toBe('a');
    expect(blogArticleSlug('https://blog.example.com/docs/blog/a', layout)).toBe('a');
    expect(blogArticleSlug('https://blog.example.com/docs/about/', layout)).toBeUndefined();
    expect(blogArticleSlug('https://elsewhere.example/docs/blog/a/', layout)).toBeUndefined();
  });
});
