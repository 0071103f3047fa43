import { describe, expect, it } from 'vitest';
import { IMAGE_IMPORT_PREFIX } from '../../src/loader/entries/entry-schema.js';
import { articleDataSchema, entryDescription, readingTime, starterFields } from '../../src/loader/index.js';

const data = articleDataSchema.parse({
  slug: 'a',
  title: 'A title',
  status: 'published',
  language: 'en',
  publishedAt: new Date('2026-06-01T00:00:00Z'),
  updatedAt: new Date('2026-06-02T00:00:00Z'),
  viewCount: 3,
  url: 'https://pro-blog.example.com/blog/a/',
  excerpt: 'The excerpt.',
  metaDescription: 'The meta description.',
  featuredImage: 'https://cdn.example.com/a.jpg',
  keywords: ['astro', 'seo'],
});

describe('theme fields (issue 11, item 5)', () => {
  it("starterFields: a one-line schema transform to the blog starter's fields, every article field kept", () => {
    const mapped = articleDataSchema.transform(starterFields).parse(data);
    expect(mapped).toMatchObject({
      title: 'A title',
      description: 'The meta description.',
      pubDate: new Date('2026-06-01T00:00:00Z'),
      updatedDate: new Date('2026-06-02T00:00:00Z'),
      tags: ['astro', 'seo'],
      url: 'https://pro-blog.example.com/blog/a/',
      featuredImage: 'https://cdn.example.com/a.jpg',
      language: 'en',
    });
    // No local copy: no heroImage (the starter's <Image> takes an ImageMetadata); featuredImage keeps the URL.
    expect(mapped.heroImage).toBeUndefined();
  });

  it("starterFields: heroImage is the featured image's local copy, as the loader sets it before the schema runs", () => {
    const asset = `${IMAGE_IMPORT_PREFIX}/cache/astro-content-publisher/images/a.jpg`;
    const mapped = articleDataSchema.transform(starterFields).parse({ ...data, featuredImageAsset: asset });
    expect(mapped.heroImage).toBe(asset);
    expect(mapped.featuredImage).toBe('https://cdn.example.com/a.jpg');
  });

  it('entryDescription: meta description, else excerpt, else title; cut at a word with an ellipsis', () => {
    expect(entryDescription({ title: 'T', excerpt: 'E' })).toBe('E');
    expect(entryDescription({ title: 'T' })).toBe('T');
    expect(entryDescription({ title: 'T', metaDescription: 'one two three four five six' }, 14)).toBe('one two three…');
  });

  it('readingTime: words of the stored HTML (tags, scripts, entities left out), CJK as half words, at least 1 minute', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    expect(readingTime({ rendered: { html: `<p>${words(440)}</p><script>${words(1000)}</script>` } })).toBe(2);
    expect(readingTime({ rendered: { html: `<p>${words(441)}</p>` } })).toBe(3);
    expect(readingTime({ rendered: { html: '<p>短</p>' } })).toBe(1);
    expect(readingTime({ rendered: { html: `<p>${'字'.repeat(1000)}</p>` } }, 250)).toBe(2);
    expect(() => readingTime({}, 0)).toThrow('`wordsPerMinute` must be a positive number (got 0)');
  });
});
