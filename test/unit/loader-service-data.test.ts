/**
 * The article's own fields beside a stored entry (src/loader/entries/entry-schema.ts): kept only where the schema
 * reshaped them; otherwise the entry's data stands for them, and a stale copy from an earlier build goes.
 */
import { describe, expect, it } from 'vitest';
import { serviceDataOf, withServiceData } from '../../src/loader/entries/entry-schema.js';

const source = {
  slug: 'a',
  title: 'A',
  publishedAt: new Date('2026-01-02T00:00:00Z'),
  keywords: ['x', 'y'],
  featuredImageAsset: './a.jpg',
};

describe('withServiceData', () => {
  it('fields equal to the stored data (other key order, other Date and array objects): not held; data stands for them', () => {
    const data = { ...source, keywords: ['x', 'y'], publishedAt: new Date(source.publishedAt.getTime()) };
    const metadata = withServiceData({ headings: [], serviceData: { title: 'stale' } }, source, data);
    expect(metadata).toEqual({ headings: [] });
    expect(serviceDataOf({ data, rendered: { html: '', metadata } })).toBe(data);
  });

  it('fields the schema reshaped: held, and read back instead of the data', () => {
    const data = { title: 'A', pubDate: source.publishedAt, heroImage: './a.jpg' };
    const metadata = withServiceData({ headings: [] }, source, data);
    expect(metadata).toEqual({ headings: [], serviceData: source });
    expect(serviceDataOf({ data, rendered: { html: '', metadata } })).toBe(source);
  });

  it('a value that differs only in type or time is a difference', () => {
    expect(withServiceData({}, source, { ...source, publishedAt: '2026-01-02T00:00:00.000Z' })).toHaveProperty(
      'serviceData',
    );
    expect(withServiceData({}, source, { ...source, publishedAt: new Date('2026-01-03T00:00:00Z') })).toHaveProperty(
      'serviceData',
    );
  });
});
