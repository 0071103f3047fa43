import { describe, expect, it } from 'vitest';
import type { ArticleListItem } from '../../src/client/index.js';
import {
  feedCopiesSeen,
  feedCopyIsNews,
  feedCopyProvenWhole,
  judgeList,
  lastmodIsLater,
  sitemapAsNewAsList,
  statusesOf,
  urlLanguage,
  urlMayBeOf,
} from '../../src/loader/evidence/evidence.js';

const item = (slug: string, over: Partial<ArticleListItem> = {}): ArticleListItem => ({
  slug,
  title: slug,
  status: 'published',
  language: 'en',
  published_at: '2026-01-01',
  view_count: 0,
  ...over,
});

describe('judgeList: what a list item proves', () => {
  it('keeps the statuses built and the loader language, in the service order, at most `limit`', () => {
    const judged = judgeList(
      [
        item('a'),
        item('draft', { status: 'draft' }),
        item('fr', { language: 'fr' }),
        item('b', { language: 'EN' }),
        item('c'),
      ],
      { statuses: statusesOf('published'), language: 'en', limit: 2 },
    );
    expect(judged.kept.map((i) => i.slug)).toEqual(['a', 'b']);
    expect(judged.otherStatus.map((i) => i.slug)).toEqual(['draft']);
    expect(judged.otherLanguage.map((i) => i.slug)).toEqual(['fr']);
    expect(judged.beyondLimit).toBe(1);
  });

  it('a widened status set keeps each of its statuses; regional codes compare as one language', () => {
    const judged = judgeList(
      [item('s', { status: 'scheduled', language: 'pt_BR' }), item('x', { status: 'archived' })],
      {
        statuses: statusesOf(['published', 'scheduled']),
        language: 'pt-br',
      },
    );
    expect(judged.kept.map((i) => i.slug)).toEqual(['s']);
    expect(judged.otherStatus.map((i) => i.slug)).toEqual(['x']);
  });
});

describe('URLs and languages', () => {
  it('a language segment before the slug names the language; none names none', () => {
    expect(urlLanguage('https://s.example/fr/blog/x/')).toBe('fr');
    expect(urlLanguage('https://s.example/pt-BR/blog/x/')).toBe('pt-BR');
    expect(urlLanguage('https://s.example/blog/x/')).toBeUndefined();
    expect(urlLanguage('not a url')).toBeUndefined();
    expect(urlMayBeOf('https://s.example/fr/blog/x/', 'en')).toBe(false);
    expect(urlMayBeOf('https://s.example/blog/x/', 'en')).toBe(true);
    expect(urlMayBeOf('https://s.example/en/blog/x/', 'en')).toBe(true);
    expect(urlMayBeOf('https://s.example/fr/blog/x/', undefined)).toBe(true);
  });
});

describe('removal evidence', () => {
  it('a sitemap is as new as the list only when it shows every listed article', () => {
    expect(sitemapAsNewAsList(new Set(['a', 'b', 'old']), ['a', 'b'])).toEqual({ asNew: true, missing: 0 });
    expect(sitemapAsNewAsList(new Set(['a', 'old']), ['a', 'b'])).toEqual({ asNew: false, missing: 1 });
    expect(sitemapAsNewAsList(new Set(), ['a'])).toEqual({ asNew: false, missing: 1 });
    expect(sitemapAsNewAsList(undefined, ['a'])).toEqual({ asNew: false, missing: 0 });
    // An empty sitemap beside an empty list agrees with it (the mass-removal guard judges that case).
    expect(sitemapAsNewAsList(new Set(), []).asNew).toBe(true);
  });
});

describe('change evidence', () => {
  it('a lastmod is news only when later than the held one; unparsable text when it differs', () => {
    expect(lastmodIsLater('2026-05-02T00:00:00Z', '2026-05-01T00:00:00Z')).toBe(true);
    expect(lastmodIsLater('2026-04-30T00:00:00Z', '2026-05-01T00:00:00Z')).toBe(false);
    expect(lastmodIsLater('2026-05-01T00:00:00.000+00:00', '2026-05-01T00:00:00Z')).toBe(false);
    expect(lastmodIsLater('v2', 'v1')).toBe(true);
  });

  it('a feed copy seen before the held detail is no change; the seen set is bounded and drops the current copy', () => {
    expect(feedCopyIsNews({ contentHash: 'h2' }, { rssHash: 'h1' })).toBe(true);
    expect(feedCopyIsNews({ contentHash: 'h0' }, { rssHash: 'h1', rssSeen: ['h0'] })).toBe(false);
    expect(feedCopyIsNews({}, { rssHash: 'h1' })).toBe(false);
    expect(feedCopyIsNews(undefined, { rssHash: 'h1' })).toBe(false);
    expect(feedCopiesSeen({ rssHash: 'h1', rssSeen: ['h0'] }, 'h2')).toEqual(['h0', 'h1']);
    expect(feedCopiesSeen({ rssHash: 'h1', rssSeen: ['h0'] }, 'h0')).toEqual(['h1']);
    expect(feedCopiesSeen({ rssHash: 'h5', rssSeen: ['h1', 'h2', 'h3', 'h4'] }, 'h9')).toHaveLength(4);
  });

  it('a copy never seen is news over a held feed copy only when taken from the service later than it, by more than Age counts', () => {
    const held = { rssHash: 'h1', rssTakenAt: 10_000_000 };
    // An older CDN edge's copy, never seen: taken before the held one.
    expect(feedCopyIsNews({ contentHash: 'h0', takenAt: 9_000_000 }, held)).toBe(false);
    // Within the second Age counts in: not shown to be later.
    expect(feedCopyIsNews({ contentHash: 'h2', takenAt: 10_000_900 }, held)).toBe(false);
    expect(feedCopyIsNews({ contentHash: 'h2', takenAt: 10_001_001 }, held)).toBe(true);
    // Held by its detail (no copy time kept), or a copy of unknown time: the hashes alone decide, as before.
    expect(feedCopyIsNews({ contentHash: 'h0', takenAt: 9_000_000 }, { rssHash: 'h1' })).toBe(true);
    expect(feedCopyIsNews({ contentHash: 'h2' }, held)).toBe(true);
  });

  it('a feed copy stands in only when every known detail matches its copy and it is no longer than one shown whole', () => {
    const copies = new Map([
      ['whole', 3000],
      ['cut', 200],
    ]);
    const base = { copies, answered: new Set(['whole']), own: [{ feed: 'whole', held: 'whole' }] };
    expect(feedCopyProvenWhole({ ...base, copyLength: 2500 })).toBe(true);
    expect(feedCopyProvenWhole({ ...base, copyLength: 3500 })).toBe(false);
    // A held article whose copy differs from its detail (cut or a teaser) disproves the whole feed.
    expect(feedCopyProvenWhole({ ...base, own: [...base.own, { feed: 'cut', held: 'long' }], copyLength: 100 })).toBe(
      false,
    );
    // No detail matches any copy: nothing shows the feed whole.
    expect(feedCopyProvenWhole({ copies, answered: new Set(['other']), own: [], copyLength: 10 })).toBe(false);
  });
});
