import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listMayBeCapped, planSync, SERVICE_LIST_MAX, type PlanInput } from '../../src/loader/sync/sync-plan.js';
import { removalsNow } from '../../src/loader/sync/sync-removals.js';
import { detailSlots, listRetries, revalidationSlots } from '../../src/loader/budget/budget.js';
import { rememberElsewhereNew, retryDelayMs, type SyncState } from '../../src/loader/state/state.js';
import { summaryLine } from '../../src/loader/articles/summary.js';
import type { EntryState } from '../../src/loader/state/state.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3_600_000;

function state(over: Partial<EntryState> = {}): EntryState {
  return {
    listDigest: 'd',
    lastmod: '2026-05-01T00:00:00Z',
    contentHash: 'c',
    checkedAt: NOW - HOUR,
    fingerprint: 'fp',
    ...over,
  };
}

function input(over: Partial<PlanInput> & { storedStates?: Record<string, EntryState | undefined> } = {}): PlanInput {
  const storedStates = over.storedStates ?? { a: state(), b: state(), c: state() };
  const { storedStates: _ignored, ...rest } = over;
  return {
    listed: Object.keys(storedStates).map((slug) => ({ slug, listDigest: 'd' })),
    stored: new Map(Object.entries(storedStates)),
    hadState: true,
    fingerprint: 'fp',
    refresh: 'auto',
    slots: 10,
    now: NOW,
    revalidateAfterMs: 24 * HOUR,
    allowMassRemoval: false,
    ...rest,
  };
}

describe('planSync: change signals', () => {
  it('nothing changed: no fetch, nothing pending, nothing removed', () => {
    const plan = planSync(input());
    expect(plan).toEqual({ fetch: [], pending: [], remove: [], unchanged: ['a', 'b', 'c'] });
  });

  it('sitemap: a lastmod that moved marks the article changed; the same instant in another format does not', () => {
    const plan = planSync(
      input({
        sitemap: new Map([
          ['a', '2026-05-02T00:00:00Z'],
          ['b', '2026-05-01T00:00:00.000+00:00'],
        ]),
      }),
    );
    expect(plan.fetch).toEqual([{ slug: 'a', reason: 'changed', signal: 'sitemap', via: 'detail' }]);
    expect(plan.unchanged).toEqual(['b', 'c']);
  });

  it('list: a changed title (list digest) marks it changed; the view count is not part of the digest', () => {
    const p = input();
    p.listed[1] = { slug: 'b', listDigest: 'other' };
    expect(planSync(p).fetch).toEqual([{ slug: 'b', reason: 'changed', signal: 'list', via: 'detail' }]);
  });

  it('rss: a feed copy neither held nor seen before the held detail marks it changed, and costs its detail (the feed copy is no content)', () => {
    const plan = planSync(
      input({
        storedStates: {
          a: state({ rssHash: 'r1' }),
          b: state({ rssHash: 'r1' }),
          c: state({ rssHash: 'r2', rssSeen: ['r1'] }),
        },
        rss: new Map([
          ['a', { contentHash: 'r2' }],
          ['b', { contentHash: 'r1' }],
          // Another CDN edge serves a copy seen before c's detail was fetched: at most as new as what is held.
          ['c', { contentHash: 'r1' }],
        ]),
      }),
    );
    expect(plan.fetch).toEqual([{ slug: 'a', reason: 'changed', signal: 'rss', via: 'detail' }]);
    expect(plan.unchanged).toEqual(['b', 'c']);
  });

  it('sitemap: a lastmod earlier than the held one is an older copy, not a change', () => {
    const plan = planSync(input({ sitemap: new Map([['a', '2026-04-30T00:00:00Z']]) }));
    expect(plan.fetch).toEqual([]);
  });

  it('a change an earlier build could not fetch (changedAt) comes first, before new articles, whatever the signals show now', () => {
    const p = input({ storedStates: { a: state(), b: state({ changedAt: NOW - HOUR }) }, slots: 1 });
    p.listed = [{ slug: 'n1', listDigest: 'd' }, ...p.listed];
    const plan = planSync(p);
    expect(plan.fetch).toEqual([{ slug: 'b', reason: 'changed', signal: 'held', via: 'detail' }]);
    expect(plan.pending).toEqual([{ slug: 'n1', reason: 'new' }]);
  });

  it('a sitemap change is fetched by detail, whatever the feed holds', () => {
    const plan = planSync(
      input({
        storedStates: { a: state({ rssHash: 'old' }), b: state({ rssHash: 'same' }) },
        sitemap: new Map([
          ['a', '2026-05-03T00:00:00Z'],
          ['b', '2026-05-03T00:00:00Z'],
        ]),
        rss: new Map([
          ['a', { contentHash: 'new' }],
          ['b', { contentHash: 'same' }],
        ]),
      }),
    );
    expect(plan.fetch).toEqual([
      { slug: 'a', reason: 'changed', signal: 'sitemap', via: 'detail' },
      { slug: 'b', reason: 'changed', signal: 'sitemap', via: 'detail' },
    ]);
  });

  it('sitemap without a recorded lastmod (unreadable when the detail was fetched): later than the held updated_at means changed', () => {
    const held = Date.parse('2026-05-01T10:00:00Z');
    const plan = planSync(
      input({
        storedStates: {
          a: state({ lastmod: undefined }),
          b: state({ lastmod: undefined }),
          c: state({ lastmod: undefined }),
        },
        sitemap: new Map([
          ['a', '2026-05-01T10:30:00Z'],
          ['b', '2026-05-01T10:00:00.000+00:00'],
          ['c', '2026-05-02T00:00:00Z'],
        ]),
        // c has no updated_at to compare with: nothing to go on, the current lastmod becomes the baseline.
        heldUpdatedAt: new Map([
          ['a', held],
          ['b', held],
        ]),
      }),
    );
    expect(plan.fetch).toEqual([{ slug: 'a', reason: 'changed', signal: 'sitemap', via: 'detail' }]);
    expect(plan.unchanged).toEqual(['b', 'c']);
  });

  it('new articles take a detail call while the budget lasts, then wait: the feed copy is no stand-in', () => {
    const p = input({ storedStates: {}, slots: 1, hadState: false });
    p.listed = [
      { slug: 'n1', listDigest: 'd' },
      { slug: 'n2', listDigest: 'd' },
      { slug: 'n3', listDigest: 'd' },
    ];
    p.rss = new Map([['n2', { contentHash: 'x' }]]);
    const plan = planSync(p);
    expect(plan.fetch).toEqual([{ slug: 'n1', reason: 'new', via: 'detail' }]);
    expect(plan.pending).toEqual([
      { slug: 'n2', reason: 'new' },
      { slug: 'n3', reason: 'new' },
    ]);
  });

  it('a listed article whose detail answered 404 waits for its retry without a request, then is asked again', () => {
    const p = input({ storedStates: {}, hadState: true });
    p.listed = [{ slug: 'gone', listDigest: 'd' }];
    p.unanswered = { gone: { retriedAt: NOW - 10 * 60_000, retries: 1 } };
    expect(planSync(p)).toMatchObject({ fetch: [], pending: [{ slug: 'gone', reason: 'missing' }] });
    p.unanswered = { gone: { retriedAt: NOW - HOUR, retries: 1 } };
    expect(planSync(p).fetch).toEqual([{ slug: 'gone', reason: 'elsewhere', via: 'detail' }]);
  });

  it('an RSS-built (partial) entry is completed by a detail call when the budget allows, and waits silently otherwise', () => {
    const withSlot = planSync(input({ storedStates: { a: state({ partial: true, checkedAt: 0 }) }, slots: 1 }));
    expect(withSlot.fetch).toEqual([{ slug: 'a', reason: 'partial', via: 'detail' }]);
    const without = planSync(input({ storedStates: { a: state({ partial: true, checkedAt: 0 }) }, slots: 0 }));
    expect(without.pending).toEqual([{ slug: 'a', reason: 'partial' }]);
  });

  it('an incomplete entry whose detail answered another language is retried after every other need, within the revalidation share, least recently retried first; pending otherwise', () => {
    const elsewhere = (retriedAt: number) => state({ partial: true, detailElsewhere: true, checkedAt: 0, retriedAt });
    const storedStates = {
      a: elsewhere(NOW - HOUR),
      b: elsewhere(NOW - 2 * HOUR),
      c: state({ partial: true, checkedAt: 0 }),
    };
    const plan = planSync(input({ storedStates, slots: 2 }));
    expect(plan.fetch).toEqual([
      { slug: 'c', reason: 'partial', via: 'detail' },
      { slug: 'b', reason: 'elsewhere', via: 'detail' },
    ]);
    expect(plan.pending).toEqual([{ slug: 'a', reason: 'elsewhere' }]);
    // The share of the hour used up: no retry, both pending.
    const spent = planSync(input({ storedStates, slots: 10, revalidateSlots: 0 }));
    expect(spent.fetch).toEqual([{ slug: 'c', reason: 'partial', via: 'detail' }]);
    expect(spent.pending.map((p) => p.slug).sort()).toEqual(['a', 'b']);
    // A complete entry (an earlier detail filled it) that lives on its feed copy is not retried.
    const complete = planSync(input({ storedStates: { a: state({ detailElsewhere: true }) } }));
    expect(complete).toEqual({ fetch: [], pending: [], remove: [], unchanged: ['a'] });
  });

  it('a change held from an earlier build (changedAt) of an entry whose detail answers another language waits for its retry, not a refused detail every build', () => {
    // Found by test/astro/loader-language-variant.test.ts (a feed turned to teasers): the teaser was not shown
    // whole, the change was held, and every later build asked for the detail, which answered the other language.
    const held = (retriedAt: number) =>
      state({
        partial: true,
        detailElsewhere: true,
        checkedAt: 0,
        retriedAt,
        retriesElsewhere: 1,
        changedAt: NOW - HOUR,
        rssHash: 'c',
      });
    const waiting = planSync(input({ storedStates: { a: held(NOW - HOUR / 2) } }));
    expect(waiting.fetch).toEqual([]);
    expect(waiting.pending).toEqual([{ slug: 'a', reason: 'elsewhere' }]);
    // Once the retry is due, the detail is asked for, first of all.
    const due = planSync(input({ storedStates: { a: held(NOW - 2 * HOUR) } }));
    expect(due.fetch).toEqual([{ slug: 'a', reason: 'changed', signal: 'held', via: 'detail' }]);
    // A feed copy newer than the held one is tried meanwhile, at no request (the apply step takes it only when the
    // feed is shown whole), and when the retry is due with no detail call left; with one left, the detail goes.
    const rss = new Map([['a', { contentHash: 'newer' }]]);
    const copy = [{ slug: 'a', reason: 'changed', signal: 'held', via: 'rss' }];
    expect(planSync(input({ storedStates: { a: held(NOW - HOUR / 2) }, rss })).fetch).toEqual(copy);
    expect(planSync(input({ storedStates: { a: held(NOW - 2 * HOUR) }, rss, slots: 0 })).fetch).toEqual(copy);
    expect(planSync(input({ storedStates: { a: held(NOW - 2 * HOUR) }, rss })).fetch).toEqual(due.fetch);
  });

  it('an entry living on its feed copy whose retry is due asks its detail even when the feed shows a new copy', () => {
    // Found by the site model (a random run): the other language's article of the slug was renamed away (the
    // sitemap changed: the retry was due), but the entry's copy changed in the same builds and was taken from the
    // feed each time; the detail, which now answered its language with the featured image, waited an hour.
    const onCopy = state({ detailElsewhere: true, partial: true, retriedAt: NOW - HOUR / 2, retriesElsewhere: 1 });
    const rss = new Map([['a', { contentHash: 'newer' }]]);
    const plan = (over: Partial<PlanInput>) =>
      planSync(input({ storedStates: { a: { ...onCopy, rssHash: 'c' } }, rss, ...over }));
    expect(plan({ sitemapChanged: true }).fetch).toEqual([
      { slug: 'a', reason: 'changed', signal: 'rss', via: 'detail' },
    ]);
    // Not due: the copy (no request); due without a detail call left: the copy too.
    expect(plan({}).fetch).toEqual([{ slug: 'a', reason: 'changed', signal: 'rss', via: 'rss' }]);
    expect(plan({ sitemapChanged: true, slots: 0 }).fetch).toEqual([
      { slug: 'a', reason: 'changed', signal: 'rss', via: 'rss' },
    ]);
  });
});

describe('planSync: budget, pending and revalidation', () => {
  it('never plans more detail calls than the slots; the rest is pending, newest (list order) first', () => {
    const p = input({ storedStates: {}, slots: 2, hadState: false });
    p.listed = ['s1', 's2', 's3', 's4', 's5'].map((slug) => ({ slug, listDigest: 'd' }));
    const plan = planSync(p);
    expect(plan.fetch.map((f) => f.slug)).toEqual(['s1', 's2']);
    expect(plan.pending.map((f) => f.slug)).toEqual(['s3', 's4', 's5']);
  });

  it('spends the budget on new, then changed, then fingerprint refreshes', () => {
    const p = input({
      storedStates: { old: state({ fingerprint: 'previous' }), ch: state(), keep: state() },
      sitemap: new Map([['ch', '2026-05-09T00:00:00Z']]),
      slots: 2,
    });
    p.listed.push({ slug: 'fresh', listDigest: 'd' });
    const plan = planSync(p);
    expect(plan.fetch.map((f) => `${f.slug}:${f.reason}`)).toEqual(['fresh:new', 'ch:changed']);
    expect(plan.pending).toEqual([{ slug: 'old', reason: 'fingerprint' }]);
  });

  it('leftover budget revalidates entries checked longest ago, only past revalidateAfterHours', () => {
    const plan = planSync(
      input({
        storedStates: {
          recent: state({ checkedAt: NOW - HOUR }),
          older: state({ checkedAt: NOW - 30 * HOUR }),
          oldest: state({ checkedAt: NOW - 90 * HOUR }),
          old: state({ checkedAt: NOW - 48 * HOUR }),
        },
        slots: 2,
      }),
    );
    expect(plan.fetch).toEqual([
      { slug: 'oldest', reason: 'revalidate', via: 'detail' },
      { slug: 'old', reason: 'revalidate', via: 'detail' },
    ]);
    expect(plan.pending).toEqual([]);
    expect(plan.unchanged).toEqual(['recent', 'older']);
  });

  it('revalidateAfterHours false turns revalidation off', () => {
    const plan = planSync(input({ storedStates: { a: state({ checkedAt: 0 }) }, revalidateAfterMs: false }));
    expect(plan.fetch).toEqual([]);
  });

  it("refresh 'force' re-fetches every entry within the budget, oldest checked first; the rest waits", () => {
    const plan = planSync(
      input({
        refresh: 'force',
        storedStates: {
          a: state({ checkedAt: NOW - 2 * HOUR }),
          b: state({ checkedAt: NOW - 5 * HOUR }),
          c: state({ checkedAt: NOW - 3 * HOUR }),
        },
        slots: 2,
        rss: new Map([['a', { contentHash: 'c' }]]),
      }),
    );
    expect(plan.fetch).toEqual([
      { slug: 'b', reason: 'force', via: 'detail' },
      { slug: 'c', reason: 'force', via: 'detail' },
    ]);
    expect(plan.pending).toEqual([{ slug: 'a', reason: 'force' }]);
  });
});

describe('planSync: fingerprint change', () => {
  it('re-fetches progressively and never drops an entry; the feed re-sanitises for free', () => {
    const plan = planSync(
      input({
        fingerprint: 'new-fp',
        storedStates: { a: state(), b: state({ checkedAt: NOW - 5 * HOUR }), c: state() },
        rss: new Map([['c', { contentHash: 'c' }]]),
        slots: 1,
      }),
    );
    expect(plan.fetch).toEqual([
      { slug: 'b', reason: 'fingerprint', via: 'detail' },
      { slug: 'c', reason: 'fingerprint', via: 'rss' },
    ]);
    expect(plan.pending).toEqual([{ slug: 'a', reason: 'fingerprint' }]);
    expect(plan.remove).toEqual([]);
  });

  it('an entry in the store without state is refreshed, not dropped', () => {
    const plan = planSync(input({ storedStates: { a: undefined }, slots: 0 }));
    expect(plan.pending).toEqual([{ slug: 'a', reason: 'fingerprint' }]);
    expect(plan.remove).toEqual([]);
  });
});

describe('planSync: removals and the mass-removal guard', () => {
  it('removes exactly the stored ids that the list no longer has', () => {
    const p = input({ storedStates: { a: state(), b: state(), c: state(), d: state() } });
    p.listed = p.listed.filter((l) => l.slug !== 'c');
    const plan = planSync(p);
    expect(plan.remove).toEqual(['c']);
    expect(plan.massRemoval).toBeUndefined();
  });

  it('an empty list is suspect: nothing removed, the guard reports it', () => {
    const plan = planSync(input({ listed: [] }));
    expect(plan.remove).toEqual([]);
    expect(plan.massRemoval).toEqual({ removed: 3, stored: 3, listed: 0 });
  });

  it('losing more than half the store is suspect; exactly half is not', () => {
    const four = { a: state(), b: state(), c: state(), d: state() };
    const half = input({ storedStates: four });
    half.listed = half.listed.slice(0, 2);
    expect(planSync(half).remove).toEqual(['c', 'd']);
    const most = input({ storedStates: four });
    most.listed = most.listed.slice(0, 1);
    const plan = planSync(most);
    expect(plan.remove).toEqual([]);
    expect(plan.massRemoval).toEqual({ removed: 3, stored: 4, listed: 1 });
  });

  it('allowMassRemoval confirms it', () => {
    const plan = planSync(input({ listed: [], allowMassRemoval: true }));
    expect(plan.remove).toEqual(['a', 'b', 'c']);
    expect(plan.massRemoval).toBeUndefined();
  });

  it('applies without previous state too (state lost, filters changed): an empty list never empties the store', () => {
    const plan = planSync(input({ listed: [], hadState: false }));
    expect(plan.remove).toEqual([]);
    expect(plan.massRemoval).toEqual({ removed: 3, stored: 3, listed: 0 });
  });
});

describe("planSync: a list at the service's maximum (1000) may be capped", () => {
  // 1000 stored and listed articles, plus two stored ones the list no longer shows.
  const many = Array.from({ length: SERVICE_LIST_MAX }, (_, i) => `a${i}`);
  const cappedInput = (over: Partial<PlanInput> = {}) => {
    const storedStates = Object.fromEntries([...many, 'old-kept', 'old-gone'].map((slug) => [slug, state()]));
    const p = input({ storedStates, revalidateAfterMs: false, ...over });
    p.listed = many.map((slug) => ({ slug, listDigest: 'd' }));
    return p;
  };

  it('listMayBeCapped: whenever no limit was sent (the maximum is not documented; a limit asks for the newest N: older ones leave)', () => {
    expect(listMayBeCapped(1000, undefined)).toBe(true);
    expect(listMayBeCapped(20, undefined)).toBe(true);
    expect(listMayBeCapped(10, 10)).toBe(false);
    expect(listMayBeCapped(1000, 1000)).toBe(false);
  });

  it('with the sitemap read: only articles missing from the sitemap too are removed', () => {
    const plan = planSync(cappedInput({ listMayBeCapped: true, sitemapSlugs: new Set([...many, 'old-kept']) }));
    expect(plan.remove).toEqual(['old-gone']);
    expect(plan.capped).toEqual({ listed: 1000, kept: 1, checkedAgainstSitemap: true, beyond: 0 });
    expect(plan.massRemoval).toBeUndefined();
  });

  it('a sitemap copy older than the list (it lacks a listed article) or empty removes nothing, and says why', () => {
    const older = planSync(
      cappedInput({ listMayBeCapped: true, sitemapSlugs: new Set([...many.slice(1), 'old-kept']) }),
    );
    expect(older.remove).toEqual([]);
    expect(older.withheld).toEqual({ count: 1, reason: 'older', missing: 1 });
    const empty = planSync(cappedInput({ listMayBeCapped: true, sitemapSlugs: new Set() }));
    expect(empty.remove).toEqual([]);
    expect(empty.withheld).toMatchObject({ count: 2, reason: 'empty' });
  });

  it('without the sitemap: nothing unlisted is removed', () => {
    const plan = planSync(cappedInput({ listMayBeCapped: true }));
    expect(plan.remove).toEqual([]);
    expect(plan.capped).toEqual({ listed: 1000, kept: 2, checkedAgainstSitemap: false, beyond: 0 });
  });

  it('articles only the sitemap shows are new, after the listed new ones, by detail; kept ones follow their sitemap lastmod', () => {
    const p = cappedInput({
      listMayBeCapped: true,
      slots: 3,
      sitemapSlugs: new Set([...many, 'listed-new', 'old-kept', 'beyond-1', 'beyond-2']),
      sitemapOnly: ['beyond-1', 'beyond-2'],
    });
    p.sitemap = new Map([['old-kept', '2026-06-01T00:00:00Z']]);
    p.listed.unshift({ slug: 'listed-new', listDigest: 'd' });
    const plan = planSync(p);
    expect(plan.fetch.map((f) => [f.slug, f.reason, f.via])).toEqual([
      ['listed-new', 'new', 'detail'],
      ['beyond-1', 'new', 'detail'],
      ['beyond-2', 'new', 'detail'],
    ]);
    expect(plan.pending).toEqual([{ slug: 'old-kept', reason: 'changed' }]);
    expect(plan.capped).toEqual({ listed: 1001, kept: 1, checkedAgainstSitemap: true, beyond: 2 });
  });

  it('removalsNow: a removal waits while a new article of the same title and day waits (a renamed slug)', () => {
    const identity = {
      ofStored: (s: string) => (s === 'old' ? 'T' : undefined),
      ofListed: (s: string) => (s === 'renamed' ? 'T' : 'U'),
    };
    const plan = {
      fetch: [],
      pending: [
        { slug: 'renamed', reason: 'new' as const },
        { slug: 'other', reason: 'new' as const },
      ],
      remove: ['old', 'gone'],
    };
    expect(removalsNow(plan, () => false, identity)).toEqual({ remove: ['gone'], deferred: 1, waitingNew: 2 });
    expect(removalsNow({ ...plan, pending: [] }, () => false, identity)).toEqual({
      remove: ['old', 'gone'],
      deferred: 0,
      waitingNew: 0,
    });
  });

  /** Listed a and b, stored x and y beyond the list (the sitemap keeps them), each checked `hoursAgo` ago. */
  const beyondInput = (over: Partial<PlanInput> = {}, fingerprint = 'fp') => {
    const checked = { a: 4, b: 1, x: 5, y: 2 };
    const storedStates = Object.fromEntries(
      Object.entries(checked).map(([slug, hoursAgo]) => [
        slug,
        state({ checkedAt: NOW - hoursAgo * HOUR, fingerprint }),
      ]),
    );
    const p = input({ storedStates, listMayBeCapped: true, sitemapSlugs: new Set(['a', 'b', 'x', 'y']), ...over });
    p.listed = [
      { slug: 'a', listDigest: 'd' },
      { slug: 'b', listDigest: 'd' },
    ];
    return p;
  };
  const planned = (plan: ReturnType<typeof planSync>) => plan.fetch.map((f) => `${f.slug}:${f.reason}:${f.via}`);

  it('a new fingerprint re-fetches the stored articles beyond the list too, by detail, oldest checked first; the rest waits', () => {
    // Before: only a and b were re-fetched; x and y kept the old fingerprint's HTML for good.
    const plan = planSync(beyondInput({ slots: 3, revalidateAfterMs: false }, 'old'));
    expect(planned(plan)).toEqual(['x:fingerprint:detail', 'a:fingerprint:detail', 'y:fingerprint:detail']);
    expect(plan.pending).toEqual([{ slug: 'b', reason: 'fingerprint' }]);
    // The next build (the fetched ones now under the new fingerprint) takes what waited.
    const next = beyondInput({ slots: 3, revalidateAfterMs: false }, 'old');
    for (const slug of ['x', 'a', 'y']) next.stored.get(slug)!.fingerprint = 'fp';
    expect(planned(planSync(next))).toEqual(['b:fingerprint:detail']);
  });

  it("refresh 'force' and revalidation reach them too; one whose state was lost is re-fetched, never left as it is", () => {
    expect(planned(planSync(beyondInput({ refresh: 'force', slots: 10, revalidateAfterMs: false })))).toEqual([
      'x:force:detail',
      'a:force:detail',
      'y:force:detail',
      'b:force:detail',
    ]);
    expect(planned(planSync(beyondInput({ slots: 2, revalidateAfterMs: 3 * HOUR })))).toEqual([
      'x:revalidate:detail',
      'a:revalidate:detail',
    ]);
    const lost = beyondInput({ slots: 10, revalidateAfterMs: false });
    lost.stored.set('x', undefined);
    expect(planned(planSync(lost))).toEqual(['x:fingerprint:detail']);
    // Not in the sitemap either: removed, not fetched.
    const gone = beyondInput({ slots: 10, revalidateAfterMs: false, sitemapSlugs: new Set(['a', 'b', 'y']) }, 'old');
    const plan = planSync(gone);
    expect(plan.remove).toEqual(['x']);
    expect(plan.fetch.map((f) => f.slug)).not.toContain('x');
  });

  it('a list below the maximum is complete: the unlisted leave whatever the sitemap says', () => {
    const plan = planSync(cappedInput({ listMayBeCapped: false, sitemapSlugs: new Set([...many, 'old-kept']) }));
    expect(plan.remove).toEqual(['old-kept', 'old-gone']);
    expect(plan.capped).toBeUndefined();
  });
});

describe('budget arithmetic', () => {
  it('min(maxRequests, X-RateLimit-Remaining - reserve), counting the list call', () => {
    expect(detailSlots({ maxRequests: 20, reserve: 5, spent: 1, remaining: 184 })).toBe(19);
    expect(detailSlots({ maxRequests: 20, reserve: 5, spent: 1, remaining: 8 })).toBe(3);
    expect(detailSlots({ maxRequests: 20, reserve: 5, spent: 1, remaining: 2 })).toBe(0);
    expect(detailSlots({ maxRequests: 1, reserve: 0, spent: 1, remaining: 100 })).toBe(0);
    expect(detailSlots({ maxRequests: 10, reserve: 0, spent: 3, remaining: undefined })).toBe(7);
  });

  it('loaders of the same key waiting behind this one: one request kept for each data loader, the rest shared evenly', () => {
    // 29 left, reserve 5: 24 between three articles loaders, 8 each; the last one alone takes what is left.
    expect(
      detailSlots({ maxRequests: 100, reserve: 5, spent: 1, remaining: 29, waiting: { shares: 2, singles: 0 } }),
    ).toBe(8);
    expect(
      detailSlots({ maxRequests: 100, reserve: 5, spent: 1, remaining: 12, waiting: { shares: 0, singles: 0 } }),
    ).toBe(7);
    // Keywords and digest behind: one request each, then half of the rest for the other language.
    expect(
      detailSlots({ maxRequests: 100, reserve: 5, spent: 1, remaining: 29, waiting: { shares: 1, singles: 2 } }),
    ).toBe(11);
    // Fewer than one each: none for this one, the others keep their list calls.
    expect(
      detailSlots({ maxRequests: 100, reserve: 5, spent: 1, remaining: 7, waiting: { shares: 2, singles: 0 } }),
    ).toBe(0);
    expect(
      detailSlots({ maxRequests: 4, reserve: 0, spent: 1, remaining: 100, waiting: { shares: 3, singles: 0 } }),
    ).toBe(3);
  });

  it('retries of a detail answered in another language wait 1, 2, 4 ... hours, at most a day (the first at once)', () => {
    expect([undefined, 0, 1, 2, 3, 5, 6, 40].map((n) => retryDelayMs(n) / 3_600_000)).toEqual([
      0, 0, 1, 2, 4, 16, 24, 24,
    ]);
  });

  it('a new slug whose detail answered another language, with no feed copy, is not asked again on every build', () => {
    // Found by a trial on Astro Micro (one slug in several languages): 12 such details on every build.
    const listed = [{ slug: 'x', listDigest: 'd' }];
    const plan = (over: Partial<PlanInput>) => planSync(input({ storedStates: {}, listed, ...over }));
    // Retried an hour after the first answer (one retry so far), within the revalidation share.
    expect(plan({ elsewhereNew: { x: { retriedAt: NOW - HOUR / 2, retries: 1 } } })).toMatchObject({
      fetch: [],
      pending: [{ slug: 'x', reason: 'elsewhere' }],
    });
    expect(plan({ elsewhereNew: { x: { retriedAt: NOW - HOUR, retries: 1 } } }).fetch).toEqual([
      { slug: 'x', reason: 'elsewhere', via: 'detail' },
    ]);
    expect(plan({ elsewhereNew: { x: { retriedAt: NOW - HOUR, retries: 1 } }, revalidateSlots: 0 }).pending).toEqual([
      { slug: 'x', reason: 'elsewhere' },
    ]);
    // At once when the sitemap changed; a feed copy does not end the wait (it proves neither the language nor a
    // whole body), but is tried meanwhile at no cost: the apply step takes it once details show the feed whole.
    expect(plan({ elsewhereNew: { x: { retriedAt: NOW, retries: 3 } }, sitemapChanged: true }).fetch).toHaveLength(1);
    expect(
      plan({
        elsewhereNew: { x: { retriedAt: NOW, retries: 3 } },
        rss: new Map([['x', { contentHash: 'h' }]]),
      }),
    ).toMatchObject({
      fetch: [{ slug: 'x', reason: 'elsewhere', via: 'rss' }],
      pending: [{ slug: 'x', reason: 'elsewhere' }],
    });
    // Not for a slug whose detail answered 404 (no evidence of an article of this language at all).
    expect(
      plan({ unanswered: { x: { retriedAt: NOW, retries: 1 } }, rss: new Map([['x', { contentHash: 'h' }]]) }).fetch,
    ).toEqual([]);
  });

  it('rememberElsewhereNew: a refused new slug waits an hour; stored or unlisted slugs are forgotten', () => {
    const s: SyncState = { version: 1, entries: {}, elsewhereNew: { gone: { retriedAt: 0, retries: 2 } } };
    const refused = new Error('another language');
    rememberElsewhereNew(
      s,
      [
        { slug: 'x', error: refused },
        { slug: 'y', error: refused },
        { slug: 'z', error: new Error('network') },
      ],
      (slug) => slug === 'y',
      (slug) => slug !== 'gone',
      NOW,
      (error) => error === refused,
    );
    expect(s.elsewhereNew).toEqual({ x: { retriedAt: NOW, retries: 1 } });
    rememberElsewhereNew(
      s,
      [],
      () => true,
      () => true,
      NOW,
      () => true,
    );
    expect(s.elsewhereNew).toBeUndefined();
  });

  it('revalidations: at most 10% of the hourly limit per sliding hour, at least one', () => {
    expect(revalidationSlots(30, [], 0)).toBe(3);
    expect(revalidationSlots(30, [1, 2], 1000)).toBe(1);
    expect(revalidationSlots(30, [1, 2, 3], 3_600_010)).toBe(3);
    expect(revalidationSlots(5, [], 0)).toBe(1);
    const p = input({
      storedStates: { a: state({ checkedAt: 0 }), b: state({ checkedAt: 0 }) },
      slots: 10,
      revalidateAfterMs: 1,
      revalidateSlots: 1,
    });
    expect(planSync(p).fetch.filter((f) => f.reason === 'revalidate')).toHaveLength(1);
  });

  it('list retries never push the list call past the budget', () => {
    expect(listRetries(1)).toBe(0);
    expect(listRetries(2)).toBe(1);
    expect(listRetries(20)).toBe(2);
  });
});

describe('summaryLine', () => {
  it('is the one line of the README', () => {
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain(
      '1000 articles: 12 new, 3 changed, 2 removed, 983 unchanged, 7 pending; 16 requests, 38 left this hour',
    );
    expect(
      summaryLine({
        total: 1000,
        added: 12,
        changed: 3,
        removed: 2,
        unchanged: 983,
        pending: 7,
        requests: 16,
        remaining: 38,
      }),
    ).toBe('1000 articles: 12 new, 3 changed, 2 removed, 983 unchanged, 7 pending; 16 requests, 38 left this hour');
    expect(
      summaryLine({
        total: 1,
        added: 0,
        changed: 0,
        removed: 0,
        unchanged: 1,
        pending: 0,
        requests: 1,
        remaining: undefined,
      }),
    ).toBe('1 article: 0 new, 0 changed, 0 removed, 1 unchanged, 0 pending; 1 request, rate limit unknown');
  });
});
