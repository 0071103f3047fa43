import { feedCopyIsNews, lastmodIsLater } from './evidence.js';
import type { EntryState } from '../state/state.js';

/** An RSS item reduced to what the plan needs: whether it carries the full HTML, and its hash. */
export interface RssSignal {
  contentHash?: string;
  /**
   * When the feed's copy was taken from the service, by the loader's clock (ms): the response's time less its
   * `Age` (a CDN edge's copy may be up to an hour old; an answer without `Age` is the origin's, taken then).
   */
  takenAt?: number;
}

export type ChangeReason = 'held' | 'sitemap' | 'list' | 'rss';

/**
 * Why a stored article must be refreshed, cheapest signal first, or undefined when nothing shows a newer
 * version (evidence.ts: a signal that merely differs from what was held may be an older CDN copy):
 * - held: an earlier build saw a change it could not fetch (`changedAt`); it waits for its detail whatever the
 *   signals show now;
 * - sitemap: its lastmod is later than the one recorded with the version we hold (or, when none was recorded
 *   then, later than the held version's updated_at);
 * - list: the list item's own fields changed (title, status, language, published_at; not the view count);
 * - rss: the feed's content:encoded is a copy neither held nor seen before the held detail was fetched; or the
 *   first copy seen of it, unless it is the held HTML: the detail was fetched while the feed (a CDN copy up to an
 *   hour old) lacked the article, and a copy seen since may show an edit that no other signal carries (the list
 *   has no update time, a sitemap may have no lastmod).
 */
export function changeReason(
  state: EntryState,
  listDigest: string,
  sitemapLastmod: string | undefined,
  rss: RssSignal | undefined,
  heldUpdatedAt?: number,
): ChangeReason | undefined {
  if (state.changedAt !== undefined) return 'held';
  if (sitemapLastmod !== undefined && state.lastmod !== undefined && lastmodIsLater(sitemapLastmod, state.lastmod)) {
    return 'sitemap';
  }
  // No lastmod was recorded with the held version (the sitemap was unreadable then): the held detail's own
  // updated_at is the only baseline, and a sitemap lastmod later than it means an update in between.
  if (sitemapLastmod !== undefined && state.lastmod === undefined && heldUpdatedAt !== undefined) {
    const lastmod = Date.parse(sitemapLastmod);
    if (Number.isFinite(lastmod) && lastmod > heldUpdatedAt) return 'sitemap';
  }
  if (listDigest !== state.listDigest) return 'list';
  if (feedCopyIsNews(rss, state)) return 'rss';
  if (state.rssHash === undefined && rss?.contentHash !== undefined && rss.contentHash !== state.contentHash)
    return 'rss';
  return undefined;
}
