import { toDate } from '../entries/entries.js';
import { serviceDataOf } from '../entries/entry-schema.js';
import { nextMoves, renamesOf } from '../state/moves.js';
import { nextUnpublished, rememberElsewhereNew } from '../state/state.js';
import {
  applyRemovals,
  LanguageMismatchError,
  StatusMismatchError,
  type ApplyInput,
  type ApplyOutcome,
} from '../sync/sync-apply.js';
import type { SyncPlan } from '../sync/sync-plan.js';
import { goneOnDetail, removalsNow } from '../sync/sync-removals.js';
import { rememberUnanswered } from '../sync/unanswered.js';

/**
 * What a build's fetches leave to settle (after `applyFetches`, before the entries that stay are reconciled):
 * which failed details are evidence and not faults, what waits for the next build, and the removals with what
 * they leave remembered (renamed and unpublished slugs).
 */

/**
 * The failed details that are evidence: a slug of another language's loader (said once, asked again after 30
 * days), and a stored article the list left out whose detail says the service no longer publishes it (it
 * leaves now: evidence as new as the list). Those are taken out of `outcome.failures`; a change seen and not
 * fetched waits, first in the next build. Returns the slugs that are gone.
 */
export function settleFailures(apply: ApplyInput, plan: SyncPlan, outcome: ApplyOutcome, now: number): Set<string> {
  const { ctx, opts, state, items } = apply;
  const { store, logger } = ctx;
  const site = `site ${opts.siteId}`;
  rememberElsewhereNew(
    state,
    outcome.failures,
    (slug) => store.has(slug),
    (slug) => items.has(slug),
    now,
    (error) => error instanceof LanguageMismatchError,
  );
  // A slug only the sitemap showed whose detail is another language's is that language's loader's article: no
  // failure, said as one line (its retry waits 30 days, unanswered.ts).
  const foreign = outcome.failures.filter((f) => f.error instanceof LanguageMismatchError && !items.has(f.slug));
  if (foreign.length)
    logger.info(
      `${foreign.length} article(s) that the public sitemap of ${site} shows and the list does not are in another language than "${opts.language ?? '?'}" (first: "${foreign[0]!.slug}"): left to that language's loader; asked again after 30 days (a slug keeps its language).`,
    );
  rememberUnanswered(state, outcome.failures, {
    stored: (slug) => store.has(slug),
    listed: (slug) => items.has(slug),
    inSitemap: (slug) => apply.signals.sitemapSlugs?.has(slug) ?? true,
    now,
  });
  // A change seen and not fetched waits for its detail, first in the next build, whatever the signals show then.
  const notDone = new Set([...outcome.failures.map((f) => f.slug), ...outcome.unsent, ...outcome.skipped]);
  for (const need of [...plan.pending, ...plan.fetch.filter((f) => notDone.has(f.slug))]) {
    const entry = state.entries[need.slug];
    if (entry && need.reason === 'changed') entry.changedAt ??= now;
  }
  // A stored article the list left out whose detail says it is gone leaves now (evidence as new as the list).
  const confirmed = new Set(plan.fetch.filter((f) => f.reason === 'confirm').map((f) => f.slug));
  const gone = goneOnDetail(outcome.failures, confirmed, state.entries, now);
  if (gone.length)
    logger.info(
      `Removed ${gone.length} article(s) that the list of ${site} no longer shows and whose detail answers that the service does not publish them (a status it does not build, or 404 twice an hour apart; first: "${gone[0]!.slug}", ${gone[0]!.error instanceof StatusMismatchError ? `status "${gone[0]!.error.status}"` : '404'}).`,
    );
  const goneSlugs = new Set(gone.map((f) => f.slug));
  outcome.failures = outcome.failures.filter((f) => !foreign.includes(f) && !goneSlugs.has(f.slug));
  // The next build asks for the feed whole (not as a 304, which carries no copy) while something waits for it: a
  // failed fetch, or a feed copy not shown whole yet.
  if (outcome.failures.length || outcome.skipped.length) state.feedWanted = true;
  else delete state.feedWanted;
  return goneSlugs;
}

/** What a rename keeps: the title and the publication day. */
function identityOf(title: unknown, published: unknown): string | undefined {
  if (typeof title !== 'string' || !(published instanceof Date) || Number.isNaN(published.getTime())) return undefined;
  return `${published.toISOString().slice(0, 10)}|${title}`;
}

/**
 * The removals of this build, after the fetches (a renamed slug's old entry stays until the new one is stored),
 * with the `gone` slugs: applied to the store, and remembered as moves (a removed slug whose article is stored
 * under another slug now) or as unpublished. Returns what was removed.
 */
export function settleRemovals(
  apply: ApplyInput,
  plan: SyncPlan,
  gone: ReadonlySet<string>,
  now: number,
): ReturnType<typeof removalsNow> {
  const { ctx, opts, state, items } = apply;
  const { store, logger } = ctx;
  const identityOfStored = (slug: string) =>
    identityOf(serviceDataOf(store.get(slug))?.title, serviceDataOf(store.get(slug))?.publishedAt);
  const removals = removalsNow(plan, (slug) => store.has(slug), {
    ofStored: (slug) => identityOfStored(slug),
    ofListed: (slug) => identityOf(items.get(slug)?.title, toDate(items.get(slug)?.published_at)),
  });
  // A removed slug whose article is stored under another slug now was renamed: remembered before it goes.
  removals.remove.push(...gone);
  // Stored before the removed slug left the list (`now` when it left in this build): side by side, not a rename.
  const beside = (from: string, to: string) => {
    const since = state.entries[to]?.storedSince;
    return since !== undefined && since < (state.entries[from]?.unlistedSince ?? now);
  };
  const renames = renamesOf(removals.remove, store.keys(), identityOfStored, beside);
  applyRemovals(apply, removals.remove);
  const moved = nextMoves(
    state.moved,
    renames,
    now,
    opts.movesKeptDays * 86_400_000,
    (slug) => items.has(slug) || store.has(slug),
    (slug) => store.has(slug),
  );
  if (moved) state.moved = moved;
  else delete state.moved;
  const unpublished = nextUnpublished(
    state.unpublished,
    removals.remove,
    apply.signals.sitemapSlugs,
    (slug) => items.has(slug) || store.has(slug),
  );
  if (unpublished) state.unpublished = unpublished;
  else delete state.unpublished;
  if (removals.deferred) {
    logger.info(
      `Kept ${removals.deferred} article(s) no longer listed until the new article(s) of the same title and date are stored (a renamed slug keeps its old entry meanwhile).`,
    );
  }
  return removals;
}
