import type { EntryState } from '../state/state.js';

/**
 * Is the list cut short, or is the public sitemap behind it? Both look alike in one build: a stored article the
 * list lacks and the sitemap still shows. A list cut short leaves out articles the service still publishes; a
 * sitemap served from a CDN copy (API.md: "cached for 1 hour at the CDN") still shows, for up to an hour,
 * articles unpublished since. Only evidence the stale copy cannot give counts for the first (pure, unit-tested).
 */

/** How old a copy of the public sitemap the CDN may serve (API.md: both feeds are cached for 1 hour). */
export const SITEMAP_CDN_MAX_AGE_MS = 3_600_000;

/**
 * Keeps `unlistedSince` current after a build's fetches and removals: a stored entry the list lacks gets the
 * time of the first build that saw it missing (`now`, after that build's list call answered), one the list has
 * loses it. A detail that answered an unlisted article wrote `0` already (sync-apply).
 */
export function markUnlisted(
  entries: Record<string, EntryState>,
  listed: (slug: string) => boolean,
  now: number,
): void {
  for (const [slug, state] of Object.entries(entries)) {
    if (listed(slug)) delete state.unlistedSince;
    else state.unlistedSince ??= now;
  }
}

/**
 * Does the evidence show the list cut short? `paged`: the service said the list has more pages. `unlisted`:
 * the `unlistedSince` of the stored articles the list lacks and the sitemap read in this build (`sitemapReadAt`,
 * when its request was sent) shows. One the list has lacked for longer than the CDN keeps a copy is published
 * in a sitemap taken after the list dropped it; one a detail call answered while the list lacked it (`0`) is
 * published too. Anything else may be an unpublished article in a stale copy of the sitemap.
 */
export function listShownCut(input: {
  paged: boolean;
  unlisted: ReadonlyArray<number | undefined>;
  sitemapReadAt: number;
}): boolean {
  return (
    input.paged ||
    input.unlisted.some((since) => since !== undefined && input.sitemapReadAt - since > SITEMAP_CDN_MAX_AGE_MS)
  );
}
