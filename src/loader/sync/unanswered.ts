import { NotFoundError } from '../../client/index.js';
import { LanguageMismatchError } from './sync-apply.js';
import { retryDelayMs, type SyncState } from '../state/state.js';

/**
 * Slugs whose detail gave this loader no article, remembered so that they do not cost a request in every build:
 * `missing`, a 404 (the list or the sitemap named an article the detail does not have: not yet, or no longer);
 * `foreign`, a slug only the sitemap showed whose detail is another language's (the sitemap cannot tell a
 * language loader's articles from the others'). A missing one is asked again after 1, 2, 4 ... up to 24 hours
 * (`retryDelayMs`), or when the sitemap changed; a foreign one after 30 days (a slug keeps its language). A listed slug whose detail answered another language is
 * the state's `elsewhereNew` (state.ts), as before.
 */

/** A slug's language does not change: another language's article is asked about again after this long. */
export const FOREIGN_RETRY_MS = 30 * 24 * 3_600_000;

/** May this slug's detail be asked for now? */
export function unansweredDue(state: SyncState, slug: string, now: number, sitemapChanged: boolean): boolean {
  const last = state.unanswered?.[slug];
  if (last === undefined) return true;
  if (last.why === 'foreign') return now - last.retriedAt >= FOREIGN_RETRY_MS;
  return sitemapChanged || now - last.retriedAt >= retryDelayMs(last.retries);
}

/** Keeps `unanswered` current after a build's fetches (`failures`), and forgets what no signal shows any more. */
export function rememberUnanswered(
  state: SyncState,
  failures: ReadonlyArray<{ slug: string; error: unknown }>,
  known: {
    stored: (slug: string) => boolean;
    listed: (slug: string) => boolean;
    /** Unknown (sitemap unreadable): true, nothing is forgotten for want of it. */
    inSitemap: (slug: string) => boolean;
    now: number;
  },
): void {
  const next = { ...state.unanswered };
  for (const { slug, error } of failures) {
    const why =
      error instanceof NotFoundError
        ? 'missing'
        : error instanceof LanguageMismatchError && !known.listed(slug)
          ? 'foreign'
          : undefined;
    if (why && !known.stored(slug)) next[slug] = { why, retriedAt: known.now, retries: (next[slug]?.retries ?? 0) + 1 };
  }
  for (const slug of Object.keys(next))
    if (known.stored(slug) || (!known.listed(slug) && !known.inSitemap(slug))) delete next[slug];
  if (Object.keys(next).length > 0) state.unanswered = next;
  else delete state.unanswered;
}
