import { changeReason, type ChangeReason, type RssSignal } from '../evidence/change-signals.js';
import { feedCopyIsNews, lastmodIsLater } from '../evidence/evidence.js';
import { incompleteElsewhere, retryDelayMs, type EntryState } from '../state/state.js';
import { CONFIRM_AFTER_MS, plannedRemovals } from './sync-removals.js';

/**
 * The sync plan: given what the list call, the free feeds and the stored state say, decide which articles
 * to fetch (and how), which wait, which leave the store. Pure, so every rule has a unit test.
 */

export interface ListedArticle {
  slug: string;
  /** Digest of the list item's own fields (see change-signals). */
  listDigest: string;
}

/**
 * `elsewhere`: an entry built from the feed because its slug's detail answered another language, missing the
 * detail-only fields: its detail is retried in case the service answers this language now. `missing` (pending
 * only): a listed article whose detail answered 404, waiting for its retry. `probe`: a slug only the sitemap shows,
 * which may be another language's. `confirm`: a stored article the list left out and no sitemap as new as the list
 * shows, asked whether it is still published (sync-removals.ts).
 */
export type FetchReason =
  | 'new'
  | 'changed'
  | 'fingerprint'
  | 'partial'
  | 'force'
  | 'elsewhere'
  | 'revalidate'
  | 'missing'
  | 'probe'
  | 'confirm';

export interface PlannedFetch {
  slug: string;
  reason: FetchReason;
  /** `detail`: one authenticated request; `rss`: the feed's content:encoded, no request. */
  via: 'detail' | 'rss';
  /** For `changed`: which signal said so. */
  signal?: ChangeReason;
}

export interface PlanInput {
  /** The list call's result, newest first. */
  listed: ListedArticle[];
  /** Listed slugs never stored, whose detail answered another language (the state's `elsewhereNew`). */
  elsewhereNew?: Readonly<Record<string, { retriedAt: number; retries: number }>> | undefined;
  /**
   * Slugs whose detail gave no article (404: `missing`; another language's for a sitemap-only slug: `foreign`),
   * with their next retry (the state's `unanswered`): a listed one waits for it without a request.
   */
  unanswered?: Readonly<Record<string, { retriedAt: number; retries: number }>> | undefined;
  /** State of the entries present in the store. An id in the store without state is passed with `undefined`. */
  stored: Map<string, EntryState | undefined>;
  /**
   * Did the state exist before this build (false on a first build, or after the store was cleared)? Kept for
   * callers; the mass-removal guard applies either way.
   */
  hadState: boolean;
  /** slug -> lastmod from the public sitemap, when it could be read. */
  sitemap?: Map<string, string>;
  /**
   * slug -> the held version's updated_at (ms), for stored entries whose state has no sitemap lastmod: the
   * baseline the sitemap is compared with until a lastmod is recorded.
   */
  heldUpdatedAt?: Map<string, number>;
  /**
   * The list may be cut short by the service (see listMayBeCapped): a stored article missing from it is only
   * removed when the public sitemap (every published article) was read and lacks it too.
   */
  listMayBeCapped?: boolean;
  /** Every slug of the public sitemap, when it could be read. */
  sitemapSlugs?: Set<string>;
  /** The sitemap changed since the last build (it answered with a body, not a 304). */
  sitemapChanged?: boolean;
  /** slug -> RSS signal for the feed's items, when it could be read. */
  rss?: Map<string, RssSignal>;
  /** The current loader fingerprint. */
  fingerprint: string;
  refresh: 'auto' | 'force';
  /** Detail calls this build may send (see budget.ts). */
  slots: number;
  now: number;
  /** Revalidate entries last checked longer ago than this (ms); false: never. */
  revalidateAfterMs: number | false;
  /**
   * The most revalidations (and `elsewhere` retries) this build may send, on top of `slots` (see budget.ts
   * revalidationSlots: a small share of the hourly window, so that confirming what no signal says changed never
   * eats the window).
   * @default slots
   */
  revalidateSlots?: number;
  allowMassRemoval: boolean;
  /**
   * Published articles that only the sitemap shows (neither listed nor stored), which this loader may load
   * with a detail call each: the list was cut short. They come after the listed new articles.
   * @default []
   */
  sitemapOnly?: string[];
  /**
   * The sitemap shows every language's articles (a loader with `language`): its other slugs may be this language's
   * articles beyond a list cut short, or, more often, the other languages'. Only a detail tells, so they are
   * probed (`probe`) within the revalidation share, after everything else: a whole list never costs a request per
   * article of the other languages in one build.
   * @default false
   */
  sitemapOnlyProbed?: boolean;
}

export interface SyncPlan {
  fetch: PlannedFetch[];
  /** Needed content but did not fit in the budget: the stored version (if any) stays until a later build. */
  pending: Array<{ slug: string; reason: FetchReason }>;
  /** Stored ids that the list no longer has. */
  remove: string[];
  /**
   * Stored articles the list lacks and the sitemap lacks too, kept because that sitemap copy is no evidence as
   * new as the list (`empty`: it shows no article; `older`: it lacks `missing` listed articles).
   */
  withheld?: { count: number; reason: 'empty' | 'older'; missing: number };
  /** Set when the removals look like an upstream accident and were withheld (see allowMassRemoval). */
  massRemoval?: { removed: number; stored: number; listed: number };
  /**
   * Set when the list left out published articles: stored ones missing from it that were kept, why, and how
   * many more the sitemap shows (loaded by detail calls).
   */
  capped?: { listed: number; kept: number; checkedAgainstSitemap: boolean; beyond: number };
  /** Listed and stored, with nothing to do. */
  unchanged: string[];
}

/** The most articles the list call returns (the simulator clamps there; the API documents no paging). */
export const SERVICE_LIST_MAX = 1000;

/**
 * Can the list be missing published articles? Whenever no `limit` was asked for: the API documents neither
 * the default nor the maximum of `limit` (services answer 20, 50, 1000 or all), so a list of any size may
 * be cut short, and only the sitemap can say that a stored article is gone. With a `limit`, the newest
 * `limit` articles are what was asked for: older ones leave. (`count` is kept for callers.)
 */
export function listMayBeCapped(_count: number, limit: number | undefined): boolean {
  return limit === undefined;
}

// Order in which the budget is spent: what readers cannot see at all first, then what is wrong, then what is old.
const PRIORITY: FetchReason[] = ['new', 'changed', 'fingerprint', 'partial', 'force', 'elsewhere', 'revalidate'];

export function planSync(input: PlanInput): SyncPlan {
  const listedSlugs = new Set(input.listed.map((a) => a.slug));
  /** `rssOk`: the feed's copy instead of a detail call; `rssFallback`: the copy when no detail call is left. */
  const needs: Array<{
    slug: string;
    reason: FetchReason;
    signal?: ChangeReason;
    checkedAt: number;
    rssOk: boolean;
    rssFallback?: boolean;
  }> = [];
  const unchanged: string[] = [];
  const revalidateCandidates: Array<{ slug: string; checkedAt: number }> = [];
  const elsewhere: Array<{ slug: string; retriedAt: number }> = [];
  /** Incomplete entries whose next retry is not due: pending, without a request. */
  const waitingRetry: string[] = [];
  /** Listed articles whose detail answered 404, whose next retry is not due: pending, without a request. */
  const waitingMissing: string[] = [];
  /** Of `waitingRetry`, the slugs never stored whose feed has a copy: tried from it, which costs no request. */
  const copiesToTry: string[] = [];
  /** A retry of a detail answered in another language: due after its wait, or at once when the sitemap changed. */
  const retryDue = (retriedAt: number, retries: number | undefined) =>
    input.sitemapChanged === true || input.now - retriedAt >= retryDelayMs(retries);

  /**
   * A stored entry no signal says changed: a new fingerprint or a forced refresh re-fetch it, an entry built from
   * the feed is completed, one whose detail answered another language is retried once its wait is over, and one
   * checked long enough ago may be revalidated with what is left. Returns whether it needs anything now.
   */
  const otherNeeds = (slug: string, state: EntryState, rss: RssSignal | undefined): boolean => {
    if (state.fingerprint !== input.fingerprint) {
      // Same source HTML, new policy or options: the feed's copy can be re-sanitised for free, but only when
      // it is the very HTML we hold (a feed of teasers would replace whole articles with their first lines).
      needs.push({
        slug,
        reason: 'fingerprint',
        checkedAt: state.checkedAt,
        rssOk: rss?.contentHash !== undefined && rss.contentHash === state.contentHash,
      });
    } else if (input.refresh === 'force') {
      needs.push({ slug, reason: 'force', checkedAt: state.checkedAt, rssOk: false });
    } else if (state.partial && !state.detailElsewhere) {
      // Built from the feed (a cold build past its budget): completed by a detail call, or it stays without its
      // detail-only fields while every build says a later one completes it.
      needs.push({ slug, reason: 'partial', checkedAt: state.checkedAt, rssOk: false });
    } else if (incompleteElsewhere(state)) {
      // Incomplete, and its detail answered another language: a retry may find this language's article now,
      // once the wait after the retries that found the other language again is over, or when the sitemap
      // changed (the other language's article may have gone).
      if (retryDue(state.retriedAt ?? 0, state.retriesElsewhere))
        elsewhere.push({ slug, retriedAt: state.retriedAt ?? 0 });
      else waitingRetry.push(slug);
    } else {
      if (
        input.revalidateAfterMs !== false &&
        !state.detailElsewhere &&
        input.now - state.checkedAt >= input.revalidateAfterMs
      ) {
        revalidateCandidates.push({ slug, checkedAt: state.checkedAt });
      }
      return false;
    }
    return true;
  };

  for (const item of input.listed) {
    const isStored = input.stored.has(item.slug);
    const state = input.stored.get(item.slug);
    const rss = input.rss?.get(item.slug);
    const answeredElsewhere = input.elsewhereNew?.[item.slug];
    const unanswered = input.unanswered?.[item.slug];
    if (!isStored && (answeredElsewhere ?? unanswered)) {
      // Its detail answered another language, or 404: retried like an incomplete entry (below), within the
      // revalidation share, once its wait is over, and waits meanwhile. Waiting, a slug of another language's
      // detail tries its feed copy in every build: taken only once details show the feed whole (the apply step,
      // evidence.ts feedCopyProvenWhole), which a later build may show when the first could not.
      const last = (answeredElsewhere ?? unanswered)!;
      if (retryDue(last.retriedAt, last.retries)) elsewhere.push({ slug: item.slug, retriedAt: last.retriedAt });
      else {
        (answeredElsewhere ? waitingRetry : waitingMissing).push(item.slug);
        if (answeredElsewhere && rss?.contentHash !== undefined) copiesToTry.push(item.slug);
      }
      continue;
    }
    if (!isStored) {
      needs.push({ slug: item.slug, reason: 'new', checkedAt: 0, rssOk: false });
      continue;
    }
    if (!state) {
      // In the store but unknown to us (state lost): refresh it like a fingerprint change, never drop it. Nothing
      // shows which HTML is held, so the feed's copy is no stand-in.
      needs.push({ slug: item.slug, reason: 'fingerprint', checkedAt: 0, rssOk: false });
      continue;
    }
    const signal = changeReason(
      state,
      item.listDigest,
      input.sitemap?.get(item.slug),
      rss,
      input.heldUpdatedAt?.get(item.slug),
    );
    // A change is content only from the detail: the feed's copy may be cut, a teaser, another language's or an
    // older CDN edge's, and it lacks the detail-only fields (the featured image, the meta description).
    if (signal && state.detailElsewhere) {
      // Its detail answers another language: a detail call would only find that one again. The change waits for
      // the entry's next retry, as its completion does (found by a trial: a feed turned to teasers sent one
      // refused detail per shared slug on every build). A change held from an earlier build (`changedAt`: its
      // feed copy was not shown whole) waits alike: it is no reason to ask before the retry is due (found by
      // test/astro/loader-language-variant.test.ts, the teaser case: one refused detail in every build after).
      // A retry that is due comes first (the other language's article may have gone: its detail may answer this
      // language now, with the fields the copy lacks). Otherwise, or with no detail call left, its own feed copy
      // stands in when the feed shows a newer one (also one an earlier build could not show whole: tried in every
      // build, at no request; the apply step checks the feed is shown whole: evidence.ts feedCopyProvenWhole).
      const newCopy = signal === 'rss' || feedCopyIsNews(rss, state);
      if (retryDue(state.retriedAt ?? 0, state.retriesElsewhere))
        needs.push({
          slug: item.slug,
          reason: 'changed',
          signal,
          checkedAt: state.checkedAt,
          rssOk: false,
          ...(newCopy ? { rssFallback: true } : {}),
        });
      else if (newCopy)
        needs.push({ slug: item.slug, reason: 'changed', signal, checkedAt: state.checkedAt, rssOk: true });
      else waitingRetry.push(item.slug);
    } else if (signal) {
      needs.push({ slug: item.slug, reason: 'changed', signal, checkedAt: state.checkedAt, rssOk: false });
    } else if (!otherNeeds(item.slug, state, rss)) unchanged.push(item.slug);
  }

  // Beyond a capped list: the sitemap's other articles are new (detail only: no list item to build from), and
  // stored ones it keeps need what a listed one would (a new fingerprint, a forced refresh, completing, a
  // revalidation), with their sitemap lastmod the only change signal left: all by detail, as the feed's copy
  // is built over a list item.
  const probes = input.sitemapOnlyProbed ? (input.sitemapOnly ?? []) : [];
  if (!input.sitemapOnlyProbed)
    for (const slug of input.sitemapOnly ?? []) needs.push({ slug, reason: 'new', checkedAt: 0, rssOk: false });
  if (input.listMayBeCapped && input.sitemapSlugs) {
    for (const [slug, state] of input.stored) {
      if (listedSlugs.has(slug) || !input.sitemapSlugs.has(slug)) continue;
      if (!state) {
        needs.push({ slug, reason: 'fingerprint', checkedAt: 0, rssOk: false });
        continue;
      }
      const lastmod = input.sitemap?.get(slug);
      if (state.changedAt !== undefined) {
        needs.push({ slug, reason: 'changed', signal: 'held', checkedAt: state.checkedAt, rssOk: false });
      } else if (lastmod !== undefined && state.lastmod !== undefined && lastmodIsLater(lastmod, state.lastmod)) {
        needs.push({ slug, reason: 'changed', signal: 'sitemap', checkedAt: state.checkedAt, rssOk: false });
      } else otherNeeds(slug, state, undefined);
    }
  }

  // Stable sort by priority; inside fingerprint/force/partial the entries checked longest ago go first.
  // A change an earlier build saw and could not fetch comes first of all: it has waited one build already.
  const rank = (need: { reason: FetchReason; signal?: ChangeReason }) =>
    need.signal === 'held' ? -1 : PRIORITY.indexOf(need.reason);
  const ordered = needs
    .map((n, index) => ({ ...n, index }))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (a.reason === 'new' || a.reason === 'changed' ? 0 : a.checkedAt - b.checkedAt) ||
        a.index - b.index,
    );

  // Pending still (a copy lacks the detail-only fields), whether or not the copy is taken.
  const fetch: PlannedFetch[] = copiesToTry.map((slug) => ({ slug, reason: 'elsewhere', via: 'rss' }));
  const pending: SyncPlan['pending'] = [
    ...waitingRetry.map((slug) => ({ slug, reason: 'elsewhere' as const })),
    ...waitingMissing.map((slug) => ({ slug, reason: 'missing' as const })),
  ];
  let slots = input.slots;
  for (const need of ordered) {
    const base = { slug: need.slug, reason: need.reason, ...(need.signal ? { signal: need.signal } : {}) };
    // A re-fingerprinted article whose very HTML is in the feed costs nothing; everything else needs its detail.
    if (need.rssOk && (need.reason === 'fingerprint' || need.reason === 'changed')) fetch.push({ ...base, via: 'rss' });
    else if (slots > 0) {
      fetch.push({ ...base, via: 'detail' });
      slots -= 1;
    } else if (need.rssFallback) fetch.push({ ...base, via: 'rss' });
    else pending.push({ slug: need.slug, reason: need.reason });
  }

  // Leftover budget, within the revalidation share: stored articles the list left out and no sitemap as new as
  // the list shows, checked longest ago first, once an hour at most (sync-removals.ts): is each still published?
  const removals = plannedRemovals(input, listedSlugs);
  let revalidations = input.revalidateSlots ?? Number.POSITIVE_INFINITY;
  const toConfirm = removals.unconfirmed
    .map((slug) => {
      const state = input.stored.get(slug);
      return { slug, checkedAt: Math.max(state?.checkedAt ?? 0, state?.goneAt ?? 0) };
    })
    .filter((c) => input.now - c.checkedAt >= CONFIRM_AFTER_MS && !fetch.some((f) => f.slug === c.slug))
    .sort((a, b) => a.checkedAt - b.checkedAt);
  const confirming = new Set<string>();
  for (const { slug } of toConfirm) {
    if (slots <= 0 || revalidations <= 0) break;
    confirming.add(slug);
    fetch.push({ slug, reason: 'confirm', via: 'detail' });
    slots -= 1;
    revalidations -= 1;
  }

  // Then (the answer may be another language's again, every build): retry the detail of incomplete entries whose detail answered another language, least recently retried
  // first. Pending when it does not fit: the entry lacks fields the service has.
  elsewhere.sort((a, b) => a.retriedAt - b.retriedAt);
  for (const candidate of elsewhere) {
    if (slots > 0 && revalidations > 0) {
      fetch.push({ slug: candidate.slug, reason: 'elsewhere', via: 'detail' });
      slots -= 1;
      revalidations -= 1;
    } else pending.push({ slug: candidate.slug, reason: 'elsewhere' });
  }
  for (const slug of probes) {
    if (slots > 0 && revalidations > 0) {
      fetch.push({ slug, reason: 'probe', via: 'detail' });
      slots -= 1;
      revalidations -= 1;
    } else pending.push({ slug, reason: 'probe' });
  }

  // Leftover budget: revalidate what was checked longest ago. Not pending when it does not fit: it is current
  // as far as every signal can tell.
  revalidateCandidates.sort((a, b) => a.checkedAt - b.checkedAt);
  const revalidated = new Set<string>();
  for (const candidate of revalidateCandidates) {
    if (slots <= 0 || revalidations <= 0) break;
    if (confirming.has(candidate.slug)) continue;
    revalidations -= 1;
    fetch.push({ slug: candidate.slug, reason: 'revalidate', via: 'detail' });
    revalidated.add(candidate.slug);
    slots -= 1;
  }

  const plan: SyncPlan = {
    fetch,
    pending,
    remove: removals.remove,
    unchanged: unchanged.filter((slug) => !revalidated.has(slug)),
  };
  if (removals.massRemoval) plan.massRemoval = removals.massRemoval;
  if (removals.withheld) plan.withheld = removals.withheld;
  const kept = removals.kept;
  const beyond = input.sitemapOnly?.length ?? 0;
  if (input.listMayBeCapped && (kept > 0 || beyond > 0)) {
    plan.capped = {
      listed: input.listed.length,
      kept,
      checkedAgainstSitemap: input.sitemapSlugs !== undefined,
      beyond,
    };
  }
  return plan;
}
