import type { EntryState } from './state.js';

/** An RSS item reduced to what the plan needs: whether it carries the full HTML, and its hash. */
export interface RssSignal {
  contentHash?: string;
}

export type ChangeReason = 'sitemap' | 'list' | 'rss';

/** Same instant? Compares as dates when both parse (formats differ between sitemap and API), else as text. */
export function sameInstant(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isFinite(ta) && Number.isFinite(tb)) return ta === tb;
  return a.trim() === b.trim();
}

/**
 * Why a stored article must be refreshed, cheapest signal first, or undefined when nothing says it changed.
 * - sitemap: its lastmod moved since the version we hold was fetched (or, when none was recorded then, it is
 *   later than the held version's updated_at);
 * - list: the list item's own fields changed (title, status, language, published_at; not the view count);
 * - rss: the feed's content:encoded differs from what the feed carried last time.
 */
export function changeReason(
  state: EntryState,
  listDigest: string,
  sitemapLastmod: string | undefined,
  rss: RssSignal | undefined,
  heldUpdatedAt?: number,
): ChangeReason | undefined {
  if (sitemapLastmod !== undefined && state.lastmod !== undefined && !sameInstant(sitemapLastmod, state.lastmod)) {
    return 'sitemap';
  }
  // No lastmod was recorded with the held version (the sitemap was unreadable then): the held detail's own
  // updated_at is the only baseline, and a sitemap lastmod later than it means an update in between.
  if (sitemapLastmod !== undefined && state.lastmod === undefined && heldUpdatedAt !== undefined) {
    const lastmod = Date.parse(sitemapLastmod);
    if (Number.isFinite(lastmod) && lastmod > heldUpdatedAt) return 'sitemap';
  }
  if (listDigest !== state.listDigest) return 'list';
  if (rss?.contentHash !== undefined && state.rssHash !== undefined && rss.contentHash !== state.rssHash) return 'rss';
  return undefined;
}

/**
 * Can the feed's content:encoded stand in for a detail call? Only when it is newer than what we hold: it
 * differs from what the feed carried last time, or (first sighting) from the HTML we hold.
 */
export function rssIsNewer(state: EntryState | undefined, rss: RssSignal | undefined): boolean {
  if (rss?.contentHash === undefined) return false;
  if (!state) return true;
  if (state.rssHash !== undefined) return rss.contentHash !== state.rssHash;
  return rss.contentHash !== state.contentHash;
}
