import { describe, expect, it } from 'vitest';
import { changedArticles, detectRssChanges, detectSitemapChanges, toItemRecord } from '../../src/watch/detect.js';
import type { FeedItemRecord } from '../../src/watch/state.js';

const item = (n: number, extra: Partial<FeedItemRecord> = {}): FeedItemRecord => ({
  guid: `https://x.example/blog/a${n}/`,
  pubDate: `Mon, ${String(n).padStart(2, '0')} Jan 2026 00:00:00 GMT`,
  digest: `d${n}`,
  ...extra,
});
/** Newest first, like the feed: items from..to descending. */
const feed = (newest: number, oldest: number) =>
  Array.from({ length: newest - oldest + 1 }, (_, i) => item(newest - i));

describe('detectRssChanges', () => {
  it('an identical feed has no change', () => {
    expect(detectRssChanges(feed(10, 1), feed(10, 1))).toEqual([]);
  });

  it('a new guid is a change; the oldest item pushed out of a full feed is not', () => {
    const changes = detectRssChanges(feed(10, 1), feed(11, 2));
    expect(changes).toEqual([{ kind: 'new-item', guid: item(11).guid }]);
  });

  it('a burst pushing out several old items reports only the new ones', () => {
    const changes = detectRssChanges(feed(10, 1), feed(13, 4));
    expect(changes.map((c) => c.kind)).toEqual(['new-item', 'new-item', 'new-item']);
  });

  it('an item removed from the middle is a change (unpublished), even when a new item arrives', () => {
    const current = feed(11, 2).filter((i) => i.guid !== item(6).guid);
    current.push(item(1));
    const changes = detectRssChanges(feed(10, 1), current);
    expect(changes).toContainEqual({ kind: 'item-removed', guid: item(6).guid });
  });

  it('the oldest item leaving a feed that shrank is a change, not ageing out', () => {
    expect(detectRssChanges(feed(10, 1), feed(10, 2))).toEqual([{ kind: 'item-removed', guid: item(1).guid }]);
  });

  it('a changed pubDate is a change', () => {
    const current = feed(10, 1);
    current[3] = { ...current[3]!, pubDate: 'Tue, 02 Jun 2026 00:00:00 GMT' };
    expect(detectRssChanges(feed(10, 1), current)).toEqual([
      { kind: 'pubdate-changed', guid: item(7).guid, from: item(7).pubDate, to: 'Tue, 02 Jun 2026 00:00:00 GMT' },
    ]);
  });

  it('a changed content digest is a change', () => {
    const current = feed(10, 1);
    current[0] = { ...current[0]!, digest: 'other' };
    expect(detectRssChanges(feed(10, 1), current)).toEqual([{ kind: 'content-changed', guid: item(10).guid }]);
  });
});

describe('toItemRecord', () => {
  it('uses the guid, falls back to the link, and digests what a reader sees', () => {
    const a = toItemRecord({ guid: 'g', title: 'T', description: 'x', pubDate: 'p' });
    const b = toItemRecord({ guid: 'g', title: 'T', description: 'y', pubDate: 'p' });
    expect(a?.guid).toBe('g');
    expect(a?.digest).not.toBe(b?.digest);
    expect(toItemRecord({ link: 'https://l/' })?.guid).toBe('https://l/');
    expect(toItemRecord({ title: 'no id' })).toBeUndefined();
  });
});

describe('detectSitemapChanges', () => {
  const before = { 'https://x/a/': '2026-01-01T00:00:00Z', 'https://x/b/': '2026-01-02T00:00:00Z' };

  it('a newer lastmod is a change; the same or an older one is not', () => {
    expect(detectSitemapChanges(before, { ...before, 'https://x/a/': '2026-03-01T00:00:00Z' })).toEqual([
      { kind: 'sitemap-updated', loc: 'https://x/a/', from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' },
    ]);
    expect(detectSitemapChanges(before, { ...before })).toEqual([]);
    expect(detectSitemapChanges(before, { ...before, 'https://x/a/': '2025-01-01T00:00:00Z' })).toEqual([]);
  });

  it('an added and a removed URL are changes', () => {
    expect(detectSitemapChanges(before, { 'https://x/a/': before['https://x/a/'], 'https://x/c/': '' })).toEqual([
      { kind: 'sitemap-added', loc: 'https://x/c/' },
      { kind: 'sitemap-removed', loc: 'https://x/b/' },
    ]);
  });
});

describe('applyObservation', () => {
  it('a feed that answered 304 keeps its record; a 200 replaces records and validators', async () => {
    const { applyObservation, observationDiffers } = await import('../../src/watch/poll.js');
    const base = { site: 12, baseUrl: 'http://x', now: new Date('2026-01-02T00:00:00Z') };
    const first = applyObservation(
      undefined,
      {
        rss: { notModified: false, data: feed(3, 1), etag: '"r1"' },
        sitemap: { notModified: false, data: { a: '1' }, etag: '"s1"' },
      },
      base,
    );
    const unchanged = { rss: { notModified: true as const }, sitemap: { notModified: true as const } };
    expect(observationDiffers(first, unchanged)).toBe(false);
    const next = applyObservation(
      first,
      { rss: { notModified: true }, sitemap: { notModified: false, data: { a: '2' }, etag: '"s2"' } },
      { ...base, triggered: { changes: 1 } },
    );
    expect(next.rss).toEqual(first.rss);
    expect(next.sitemap).toEqual({ etag: '"s2"', entries: { a: '2' } });
    expect(next.lastTrigger).toEqual({ at: '2026-01-02T00:00:00.000Z', changes: 1 });
    expect(
      observationDiffers(first, {
        rss: { notModified: true },
        sitemap: { notModified: false, data: { a: '1' }, etag: '"s9"' },
      }),
    ).toBe(true);
  });
});

describe('changedArticles', () => {
  it('counts an edit seen by the feed and by the sitemap once', () => {
    const url = 'https://pro-blog.example.com/blog/a/';
    expect(
      changedArticles([
        { kind: 'content-changed', guid: url },
        { kind: 'sitemap-updated', loc: url, from: '2026-01-01', to: '2026-01-02' },
        { kind: 'sitemap-added', loc: 'https://pro-blog.example.com/blog/b' },
        { kind: 'new-item', guid: 'https://pro-blog.example.com/blog/b/' },
      ]),
    ).toBe(2);
    expect(changedArticles([])).toBe(0);
  });
});
