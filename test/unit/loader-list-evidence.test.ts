import { describe, expect, it } from 'vitest';
import { listShownCut, markUnlisted, SITEMAP_CDN_MAX_AGE_MS } from '../../src/loader/evidence/list-evidence.js';
import type { EntryState } from '../../src/loader/state/state.js';
import { cappedNotice } from '../../src/loader/articles/sync-notices.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const entry = (over: Partial<EntryState> = {}): EntryState => ({
  listDigest: 'd',
  checkedAt: NOW,
  fingerprint: 'fp',
  ...over,
});

describe('markUnlisted', () => {
  it('dates the first build that missed a stored entry, keeps that date, and forgets it once the list has it again', () => {
    const entries = {
      listed: entry({ unlistedSince: NOW - 10 }),
      missing: entry(),
      missingLong: entry({ unlistedSince: NOW - 5 * SITEMAP_CDN_MAX_AGE_MS }),
      answered: entry({ unlistedSince: 0 }),
    };
    markUnlisted(entries, (slug) => slug === 'listed', NOW);
    expect(entries.listed.unlistedSince).toBeUndefined();
    expect(entries.missing.unlistedSince).toBe(NOW);
    expect(entries.missingLong.unlistedSince).toBe(NOW - 5 * SITEMAP_CDN_MAX_AGE_MS);
    expect(entries.answered.unlistedSince).toBe(0);
  });
});

describe('listShownCut: a list cut short, or a sitemap behind the list', () => {
  it('a stored article the list dropped within the hour the CDN may keep the sitemap is no evidence', () => {
    expect(listShownCut({ paged: false, unlisted: [NOW - 1000, undefined], sitemapReadAt: NOW })).toBe(false);
    expect(listShownCut({ paged: false, unlisted: [NOW - SITEMAP_CDN_MAX_AGE_MS], sitemapReadAt: NOW })).toBe(false);
  });

  it('one the list has lacked for longer than that, one a detail answered while unlisted, or a next page are', () => {
    expect(listShownCut({ paged: false, unlisted: [NOW - SITEMAP_CDN_MAX_AGE_MS - 1], sitemapReadAt: NOW })).toBe(true);
    expect(listShownCut({ paged: false, unlisted: [NOW - 1000, 0], sitemapReadAt: NOW })).toBe(true);
    expect(listShownCut({ paged: true, unlisted: [], sitemapReadAt: NOW })).toBe(true);
  });
});

describe('cappedNotice', () => {
  const capped = (over: Partial<{ listed: number; kept: number; checkedAgainstSitemap: boolean; beyond: number }>) => ({
    capped: { listed: 11, kept: 1, checkedAgainstSitemap: true, beyond: 0, ...over },
  });
  const base = { cut: false, paged: false, sitemapOnly: [], pending: new Set<string>(), stored: 12 };

  it('without evidence of a cut list: an info line that names both causes, never "cuts the list short"', () => {
    const notice = cappedNotice(capped({}), 'site 12', base)!;
    expect(notice.level).toBe('info');
    expect(notice.message).toBe(
      'The list of site 12 came back with 11 articles, without 1 stored one(s) that the public sitemap still shows: they were kept. The sitemap may be a CDN copy up to an hour old, so they may have been unpublished since (they leave once the sitemap drops them); if it still shows them after that hour, the service cuts its list short, and a build says so.',
    );
    const beyond = cappedNotice(capped({ kept: 0, beyond: 2 }), 'site 12', {
      ...base,
      sitemapOnly: ['a', 'b'],
      pending: new Set(['b']),
    })!;
    expect(beyond).toEqual({
      level: 'info',
      message:
        'The public sitemap of site 12 shows 2 article(s) the list (11 articles) does not have, loaded with one detail call each within the budget (1 pending after this build).',
    });
  });

  it('without evidence, but losing as many as the mass-removal guard withholds: a warning that names both causes', () => {
    expect(cappedNotice(capped({ listed: 0, kept: 12 }), 'site 12', base)).toEqual({
      level: 'warn',
      key: 'lost:0:12',
      message:
        'The list of site 12 came back with 0 articles, without 12 of the 12 stored ones, which the public sitemap still shows: they were kept. Losing so many at once looks like an upstream accident (a list cut short or broken), unless they were unpublished within the hour the CDN may keep its copy of the sitemap: then they leave once it drops them.',
    });
    expect(cappedNotice(capped({ listed: 3, kept: 9 }), 'site 12', base)?.level).toBe('warn');
    expect(cappedNotice(capped({ listed: 6, kept: 6 }), 'site 12', base)?.level).toBe('info');
  });

  it('with evidence: the warning that the service cuts the list short', () => {
    expect(cappedNotice(capped({ beyond: 2 }), 'site 12', { ...base, cut: true, sitemapOnly: ['a', 'b'] })).toEqual({
      level: 'warn',
      key: 'cut:11',
      message:
        'The list of site 12 came back with 11 articles and left out published ones: the service cuts the list short. The public sitemap shows 2 more, loaded with one detail call each within the budget (0 pending after this build). 1 stored article(s) missing from the list are still in the public sitemap and were kept.',
    });
  });

  it('an unreadable sitemap warns that nothing was removed; a paged list read in part says nothing', () => {
    expect(cappedNotice(capped({ kept: 2, checkedAgainstSitemap: false }), 'site 12', base)).toMatchObject({
      level: 'warn',
      message: expect.stringContaining(
        'The public sitemap could not be read, so none of the 2 stored article(s) missing from the list was removed',
      ),
    });
    expect(cappedNotice(capped({}), 'site 12', { ...base, cut: true, paged: true })).toBeUndefined();
    expect(cappedNotice({}, 'site 12', base)).toBeUndefined();
  });
});
