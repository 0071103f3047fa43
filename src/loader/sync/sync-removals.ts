/**
 * Which stored entries leave the store: those the list no longer has, when the list is whole or the sitemap
 * confirms they are gone; none when that looks like an upstream accident (allowMassRemoval); and a renamed
 * slug's old entry waits for its new one (removalsNow). Pure, with the sync plan's unit tests.
 */
import { NotFoundError } from '../../client/index.js';
import { sitemapAsNewAsList } from '../evidence/evidence.js';
import { StatusMismatchError } from './sync-apply.js';
import type { EntryState } from '../state/state.js';
import type { PlanInput, SyncPlan } from './sync-plan.js';

/**
 * A stored article the list left out, kept for want of a sitemap as new as the list, has its detail asked
 * (`confirm`) once this long after its last check: an answer that it is gone is evidence as new as the list.
 * An hour: the public feeds' cache time, so a sitemap edge that lagged behind has caught up by then, and a
 * build right after the last one costs no request for it.
 */
export const CONFIRM_AFTER_MS = 3_600_000;

/** An upstream list that loses more than this share of the stored entries at once is suspect. */
export const MASS_REMOVAL_SHARE = 0.5;

/**
 * A renamed slug looks like one removal plus one new article: the old entry stays until the new one is
 * stored. The pair is recognised by its title and publication date (a rename changes the slug only): a
 * removal waits while a new article of the same identity could not be stored in this build (pending, or its
 * fetch failed).
 */
export function removalsNow(
  plan: Pick<SyncPlan, 'fetch' | 'pending' | 'remove'>,
  stored: (slug: string) => boolean,
  identity: { ofStored: (slug: string) => string | undefined; ofListed: (slug: string) => string | undefined },
): { remove: string[]; deferred: number; waitingNew: number } {
  const newSlugs = [
    ...plan.fetch.filter((f) => f.reason === 'new'),
    ...plan.pending.filter((p) => p.reason === 'new'),
  ].map((f) => f.slug);
  const waiting = newSlugs.filter((slug) => !stored(slug));
  const waitingIds = new Set(waiting.map((slug) => identity.ofListed(slug)).filter((t) => t !== undefined));
  const remove = plan.remove.filter((slug) => {
    const id = identity.ofStored(slug);
    return id === undefined || !waitingIds.has(id);
  });
  return { remove, deferred: plan.remove.length - remove.length, waitingNew: waiting.length };
}

/**
 * The removals of a plan: the stored entries the list left out; when the list may be cut short, only those a
 * sitemap copy as new as the list lacks (one that shows every listed article: evidence.ts), the rest kept
 * (`kept`) and, when no such copy was read, said (`withheld`); and none at all when they look like an upstream
 * accident (`massRemoval`) unless allowMassRemoval. `unconfirmed`: the kept ones no such sitemap copy shows
 * (an empty, older or unreadable one), whose detail can tell (CONFIRM_AFTER_MS).
 */
export function plannedRemovals(
  input: Pick<PlanInput, 'listed' | 'stored' | 'listMayBeCapped' | 'sitemapSlugs' | 'allowMassRemoval'>,
  listedSlugs: ReadonlySet<string>,
): Pick<SyncPlan, 'remove' | 'massRemoval' | 'withheld'> & { kept: number; unconfirmed: string[] } {
  const unlisted = [...input.stored.keys()].filter((id) => !listedSlugs.has(id));
  // A capped list says nothing about what it left out: a sitemap as new as the list decides, and without one
  // nothing leaves (an older CDN copy lacks articles published since, an empty one lacks everything).
  const evidence = input.listMayBeCapped ? sitemapAsNewAsList(input.sitemapSlugs, listedSlugs) : undefined;
  const removeAll = !input.listMayBeCapped
    ? unlisted
    : evidence?.asNew
      ? unlisted.filter((id) => !input.sitemapSlugs!.has(id))
      : [];
  const withheld =
    evidence && !evidence.asNew && input.sitemapSlugs
      ? unlisted.filter((id) => !input.sitemapSlugs!.has(id)).length
      : 0;
  const storedCount = input.stored.size;
  const kept = unlisted.length - removeAll.length;
  const unconfirmed = input.listMayBeCapped && !evidence?.asNew ? unlisted : [];
  const said =
    withheld > 0
      ? {
          withheld: {
            count: withheld,
            reason: input.sitemapSlugs!.size === 0 ? ('empty' as const) : ('older' as const),
            missing: evidence!.missing,
          },
        }
      : {};
  // With or without state: a lost state or a changed filter must not let an empty list empty the store.
  const suspect =
    storedCount > 0 &&
    removeAll.length > 0 &&
    (input.listed.length === 0 || removeAll.length > storedCount * MASS_REMOVAL_SHARE);
  if (!suspect || input.allowMassRemoval) return { remove: removeAll, kept, unconfirmed, ...said };
  return {
    remove: [],
    massRemoval: { removed: removeAll.length, stored: storedCount, listed: input.listed.length },
    kept,
    unconfirmed,
    ...said,
  };
}

/**
 * The `confirm` fetches (stored articles the list left out and no sitemap as new as the list shows) whose detail
 * answered that the service no longer publishes them: a status the loader does not build, or a 404 for the second
 * time, an hour after the first at least (`goneAt`: one 404 may be a passing fault). Evidence as new as the list,
 * so they leave. A first 404 is recorded on the entry, which stays.
 */
export function goneOnDetail(
  failures: ReadonlyArray<{ slug: string; error: unknown }>,
  confirmed: ReadonlySet<string>,
  entries: Record<string, EntryState>,
  now: number,
): Array<{ slug: string; error: NotFoundError | StatusMismatchError }> {
  const gone: Array<{ slug: string; error: NotFoundError | StatusMismatchError }> = [];
  for (const { slug, error } of failures) {
    const entry = entries[slug];
    if (!confirmed.has(slug) || entry === undefined) continue;
    if (error instanceof StatusMismatchError) gone.push({ slug, error });
    else if (error instanceof NotFoundError) {
      if (entry.goneAt !== undefined && now - entry.goneAt >= CONFIRM_AFTER_MS) gone.push({ slug, error });
      else entry.goneAt ??= now;
    }
  }
  return gone;
}
