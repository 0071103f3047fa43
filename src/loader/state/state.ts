import { z } from 'zod';
// The conditional-request shape is defined once, beside the public-feed fetcher.
import { feedValidatorsSchema } from '../../client/public-feed.js';

/**
 * What the loader remembers between builds, kept in Astro's `meta` store (strings only, so JSON).
 * It lives beside the entries in Astro's cacheDir and is cleared with them when Astro clears the store.
 */
export const entryStateSchema = z.object({
  /** Digest of the list item's own fields (title, status, language, published_at; never the view count). */
  listDigest: z.string(),
  /**
   * The sitemap's lastmod for this article when the version we hold was fetched. Later sitemaps are compared
   * with it, never with the API's updated_at: the two may differ in format and precision.
   */
  lastmod: z.string().optional(),
  /** Hash of the raw HTML we hold. */
  contentHash: z.string().optional(),
  /** Hash of this article's RSS `content:encoded` when we last saw it in the feed. */
  rssHash: z.string().optional(),
  /**
   * Hashes of the feed copies seen before the held detail was fetched: the held version is at least as new as
   * each, so another CDN edge serving one again is no change (evidence.ts feedCopyIsNews).
   */
  rssSeen: z.array(z.string()).optional(),
  /**
   * For an entry built from its feed copy: when that copy was taken from the service (ms since epoch, by the
   * loader's clock, less the answer's `Age`). A later copy must have been taken after it to be news.
   */
  rssTakenAt: z.number().optional(),
  /**
   * A free signal (sitemap, feed, list item) showed a change the build could not fetch (ms since epoch): the
   * entry waits for its detail, first in the next build, whatever the signals show then (an older CDN copy may
   * hide the change again).
   */
  changedAt: z.number().optional(),
  /** When the service's detail last confirmed this entry (ms since epoch; 0 for an RSS-built entry). */
  checkedAt: z.number(),
  /**
   * An article the list left out and no sitemap as new as the list shows, whose detail answered 404 when asked
   * (`confirm`, sync-removals.ts): when. A second 404, an hour later at least, removes the entry; one 404 may be a
   * passing fault of the service.
   */
  goneAt: z.number().optional(),
  /** The loader fingerprint under which the stored HTML was produced. */
  fingerprint: z.string(),
  /** Built from the RSS feed only: the detail-only fields are still missing. */
  partial: z.boolean().optional(),
  /**
   * The detail call answers another language's article of this slug (same slug in several languages): the
   * entry lives on its own feed copy. While it is also `partial` (the detail-only fields, such as the featured
   * image, are missing) it counts as pending, and its detail is retried within the budget and the revalidation
   * share (sync-plan), in case the service answers this language now.
   */
  detailElsewhere: z.boolean().optional(),
  /** When the detail of a `detailElsewhere` entry was last retried (ms since epoch): the oldest goes first. */
  retriedAt: z.number().optional(),
  /**
   * Details that answered another language, the first one included. The next waits 1, 2, 4 ... up to 24 hours
   * (`retryDelayMs`) unless the sitemap changed (an article of the slug may have gone): a slug the service only
   * ever answers in another language stops costing requests on every build.
   */
  retriesElsewhere: z.number().int().min(0).optional(),
  /**
   * The list call has lacked this stored article since then (ms since epoch; `0`: a detail call answered it while
   * the list lacked it). Kept while the public sitemap keeps it (a list cut short); read by list-evidence.ts to
   * tell a list cut short from a sitemap served from a stale CDN copy. Dropped once the list has it again.
   */
  unlistedSince: z.number().min(0).optional(),
  /**
   * When this slug was first stored (ms since epoch; absent in a state written before it was kept). A rename's
   * new slug is one stored no earlier than the old slug left the list: two articles listed side by side are two
   * articles, whatever their titles (moves.ts).
   */
  storedSince: z.number().min(0).optional(),
});
export type EntryState = z.infer<typeof entryStateSchema>;

/** How long the next `elsewhere` retry waits after `retries` retries that answered another language again. */
export function retryDelayMs(retries: number | undefined): number {
  return retries ? Math.min(24, 2 ** (retries - 1)) * 3_600_000 : 0;
}

/**
 * Built from the feed because its slug's detail answers another language, and never completed by a detail:
 * the featured image and keywords are missing (`checkedAt` 0 also covers states written before `partial` was
 * kept for such entries).
 */
export function incompleteElsewhere(state: EntryState): boolean {
  return state.detailElsewhere === true && (state.partial === true || state.checkedAt === 0);
}

/**
 * Built from the feed because the budget (or a failed call) did not reach its detail: on the blog without the
 * detail-only fields until a later build fetches it. Pending, as an `incompleteElsewhere` entry is.
 */
function awaitingDetail(state: EntryState | undefined): boolean {
  return state?.partial === true && state.detailElsewhere !== true;
}

/**
 * The stored entries still waiting for a detail call, both kinds (they never overlap): `incomplete`, stored from
 * the feed while the detail answers another language; `partial`, built from the feed (awaitingDetail). Pending in
 * the summary of a build that synced and of one that kept its store.
 */
export function storedAwaitingDetail(
  ids: readonly string[],
  state: SyncState,
): { incomplete: string[]; partial: string[] } {
  const incomplete: string[] = [];
  const partial: string[] = [];
  for (const id of ids) {
    const entry = state.entries[id];
    if (entry && incompleteElsewhere(entry)) incomplete.push(id);
    else if (awaitingDetail(entry)) partial.push(id);
  }
  return { incomplete, partial };
}

export const syncStateSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), entryStateSchema),
  sitemap: feedValidatorsSchema
    .extend({
      lastmods: z.record(z.string(), z.string()),
      /** Slugs the sitemap lists without a lastmod: still published (a capped list must not lose them). */
      unstamped: z.array(z.string()).optional(),
    })
    .optional(),
  rss: feedValidatorsSchema.optional(),
  /** When revalidations were sent (ms since epoch), the last hour's only: they may use a small share of it. */
  revalidated: z.array(z.number()).optional(),
  /**
   * The last build had fetches that failed (or details in another language), or feed copies it could not show
   * whole: the next one reads the feed without a conditional GET, because their only other source, the feed's
   * copy, is absent from a 304.
   */
  feedWanted: z.boolean().optional(),
  /**
   * Slugs this loader removed because the service stopped publishing them (the list and the public sitemap
   * both lacked them), oldest first, at most UNPUBLISHED_KEPT: the blog's links to them lose their address
   * rather than send readers to a page that answers 404 on the service too. A slug listed again leaves.
   */
  unpublished: z.array(z.string()).optional(),
  /**
   * Renamed articles (moves.ts): old slug -> the slug the article has now and when the move was seen (ms since
   * epoch), chains collapsed, for `movesKeptDays`. The blog redirects the old URL and points links at the new one.
   */
  moved: z.record(z.string(), z.object({ to: z.string(), at: z.number() })).optional(),
  /**
   * A loader with a `language` or `status` filter: the sitemap's slugs that its whole list (every page read)
   * did not have, as of the last build that read it all. The sitemap cannot tell languages or statuses apart, so
   * these are the other languages' articles: they do not make the next build read the list's other pages again.
   */
  notOurs: z.array(z.string()).optional(),
  /**
   * Listed slugs never stored because their detail answered another language and the feed had no copy: when
   * the next retry may be sent (`retriedAt`, `retries` as for `retriesElsewhere`), so such a slug does not cost
   * a detail call on every build. Dropped once stored or no longer listed.
   */
  elsewhereNew: z.record(z.string(), z.object({ retriedAt: z.number(), retries: z.number().int().min(0) })).optional(),
  /**
   * Slugs whose detail did not give this loader an article: `missing` (404 for a listed article), `foreign` (a
   * slug only the sitemap showed whose detail is another language's). The next request waits 1, 2, 4 ... up
   * to 24 hours (`retryDelayMs`), or until the sitemap changes. Dropped once stored, or when neither the list nor
   * the sitemap shows the slug.
   */
  unanswered: z
    .record(
      z.string(),
      z.object({ why: z.enum(['missing', 'foreign']), retriedAt: z.number(), retries: z.number().int().min(0) }),
    )
    .optional(),
  /**
   * Articles the last build that listed left pending without storing them (new ones past the budget, failed
   * fetches): a build that cannot list (the hourly window spent, an outage) says them pending still.
   */
  pendingUnstored: z.number().int().min(0).optional(),
  /**
   * The lasting conditions a build warned about (notice-memory.ts), by kind: the condition's key and when the
   * warning was said. While the key stays the same, later builds say it as an info line.
   */
  notices: z
    .partialRecord(
      z.enum(['capped', 'repeated', 'rejected', 'status', 'language', 'withheld', 'reset']),
      z.object({ key: z.string(), at: z.number() }),
    )
    .optional(),
});
export type SyncState = z.infer<typeof syncStateSchema>;

/** How many unpublished slugs the state remembers (see `unpublished`). */
export const UNPUBLISHED_KEPT = 1000;

/**
 * The state's `unpublished` after a build: the slugs it removed that the public sitemap (every published
 * article) lacks too join, those listed or stored again leave. Unknown (`sitemapSlugs` undefined: the sitemap
 * could not be read) adds nothing: a removal is then no evidence that the service dropped the page. The sitemap
 * never takes a slug out: a CDN edge may serve a copy older than the unpublish (issue 38, item 4: builds that read
 * it forgot the slug, and the blog's links to it went live again), while a republished article is listed again.
 */
export function nextUnpublished(
  previous: readonly string[] | undefined,
  removed: readonly string[],
  sitemapSlugs: ReadonlySet<string> | undefined,
  present: (slug: string) => boolean,
): string[] | undefined {
  const gone = sitemapSlugs === undefined ? [] : removed.filter((slug) => !sitemapSlugs.has(slug));
  const joined = new Set(gone);
  // Listed or stored again: published again, its links answer.
  const next = [...(previous ?? []).filter((slug) => !joined.has(slug) && !present(slug)), ...gone];
  return next.length === 0 ? undefined : next.slice(-UNPUBLISHED_KEPT);
}

/**
 * Keeps `elsewhereNew` current after the fetches: a slug whose detail answered another language (again) and that
 * is still not stored (the feed had no copy) waits longer for its next retry: an hour after the first answer,
 * then 2, 4 ... (`retryDelayMs`); a slug stored since, or no longer listed, is forgotten. `failures` are the
 * build's failed fetches.
 */
export function rememberElsewhereNew(
  state: SyncState,
  failures: ReadonlyArray<{ slug: string; error: unknown }>,
  stored: (slug: string) => boolean,
  listed: (slug: string) => boolean,
  now: number,
  isElsewhere: (error: unknown) => boolean,
): void {
  const next = { ...state.elsewhereNew };
  for (const { slug, error } of failures)
    if (isElsewhere(error) && !stored(slug)) next[slug] = { retriedAt: now, retries: (next[slug]?.retries ?? 0) + 1 };
  for (const slug of Object.keys(next)) if (stored(slug) || !listed(slug)) delete next[slug];
  if (Object.keys(next).length > 0) state.elsewhereNew = next;
  else delete state.elsewhereNew;
}

export const EMPTY_STATE: SyncState = { version: 1, entries: {} };

/** Reads the state; anything unreadable (older format, hand-edited) counts as no state, never as a failure. */
export function readState(raw: string | undefined): { state: SyncState; found: boolean } {
  if (!raw) return { state: structuredClone(EMPTY_STATE), found: false };
  try {
    const parsed = syncStateSchema.safeParse(JSON.parse(raw));
    if (parsed.success) return { state: parsed.data, found: true };
  } catch {
    // fall through
  }
  return { state: structuredClone(EMPTY_STATE), found: false };
}
