import type { ArticleListItem } from '../../client/index.js';

/**
 * What the service's signals prove about an article, and what they do not. API.md pins down almost nothing
 * ("not shown": status values, paging and `limit`, the detail's fields, what the feed carries, how stale the
 * CDN copy is, slugs across languages), so each signal is read for what it shows whatever the service chose:
 * - a list item proves its status and language, not that the service applied the loader's filters: each is
 *   checked, and `limit` is applied here whatever the service answered;
 * - a feed item's URL proves its language only when the URL carries one: an item at another language's URL is
 *   no copy of this entry;
 * - a public sitemap copy is as new as the list only when it shows every listed article: an older CDN copy,
 *   an empty urlset or an unreadable one removes nothing;
 * - a free signal that differs from what was held proves a change only when it is newer: a lastmod earlier than
 *   the held one, or a feed copy seen before the held detail was fetched, is an older CDN copy.
 * Pure: the decisions are unit-tested, the I/O around them is in the sync steps.
 */

/** The statuses a loader builds: `published` unless the user widened it (API.md documents no other value). */
export function statusesOf(status: string | readonly string[]): ReadonlySet<string> {
  return new Set(typeof status === 'string' ? [status] : status);
}

/** Language codes compared as services write them: `pt-BR`, `pt_br` and `PT-br` are one language. */
export function sameLanguage(a: string, b: string): boolean {
  return a.trim().toLowerCase().replace('_', '-') === b.trim().toLowerCase().replace('_', '-');
}

export interface ListFilter {
  statuses: ReadonlySet<string>;
  language?: string | undefined;
  limit?: number | undefined;
}

export interface ListJudgement {
  /** The items this loader may build, in the service's order, at most `limit`. */
  kept: ArticleListItem[];
  /** Items of a status the loader does not build (a draft, a scheduled article, an unknown word). */
  otherStatus: ArticleListItem[];
  /** Items of another language than the loader's (a service that ignores `language`). */
  otherLanguage: ArticleListItem[];
  /** Items past `limit` (a service that answers more than asked). */
  beyondLimit: number;
}

/** The list as evidence: only the items whose own fields match the loader's filters, at most `limit`. */
export function judgeList(items: readonly ArticleListItem[], filter: ListFilter): ListJudgement {
  const otherStatus: ArticleListItem[] = [];
  const otherLanguage: ArticleListItem[] = [];
  const matching: ArticleListItem[] = [];
  for (const item of items) {
    if (!filter.statuses.has(item.status)) otherStatus.push(item);
    else if (filter.language !== undefined && !sameLanguage(item.language, filter.language)) otherLanguage.push(item);
    else matching.push(item);
  }
  const kept = filter.limit === undefined ? matching : matching.slice(0, filter.limit);
  return { kept, otherStatus, otherLanguage, beyondLimit: matching.length - kept.length };
}

/** A two-letter language code, with or without a region (`fr`, `pt-BR`): how services prefix article paths. */
const LANGUAGE_SEGMENT = /^[a-z]{2}([-_][a-z0-9]{2,8})?$/i;

/**
 * The language an article URL names (`/fr/blog/slug/` -> `fr`), or undefined when it names none: only a
 * language-code segment before the slug counts.
 */
export function urlLanguage(url: string | undefined): string | undefined {
  let segments: string[];
  try {
    segments = new URL((url ?? '').trim()).pathname.split('/').filter((s) => s !== '');
  } catch {
    return undefined;
  }
  return segments.slice(0, -1).find((s) => LANGUAGE_SEGMENT.test(s));
}

/** Can this feed or sitemap URL be the article of `language`? Yes unless it names another language. */
export function urlMayBeOf(url: string | undefined, language: string | undefined): boolean {
  if (language === undefined || language === '') return true;
  const named = urlLanguage(url);
  return named === undefined || sameLanguage(named, language);
}

/**
 * Is this copy of the public sitemap as new as the list? Only when it shows every article the list has: a copy
 * taken before the newest articles were published (an older CDN edge) lacks them, and would equally lack an
 * article that left the list since. An empty or unreadable sitemap shows nothing, so it proves nothing.
 */
export function sitemapAsNewAsList(
  sitemapSlugs: ReadonlySet<string> | undefined,
  listed: Iterable<string>,
): { asNew: boolean; missing: number } {
  if (sitemapSlugs === undefined) return { asNew: false, missing: 0 };
  let missing = 0;
  let count = 0;
  for (const slug of listed) {
    count += 1;
    if (!sitemapSlugs.has(slug)) missing += 1;
  }
  // An empty sitemap beside an empty list agrees with it (the mass-removal guard judges that case); beside a
  // list that has articles it is no copy of the site at all.
  return { asNew: missing === 0 && (sitemapSlugs.size > 0 || count === 0), missing };
}

/**
 * Is the sitemap's lastmod later than the one held? Compared as instants (formats differ); text that does not
 * parse counts as later when it differs (nothing says it is older). An earlier lastmod is an older copy.
 */
export function lastmodIsLater(seen: string, held: string): boolean {
  const a = Date.parse(seen);
  const b = Date.parse(held);
  if (Number.isFinite(a) && Number.isFinite(b)) return a > b;
  return seen.trim() !== held.trim();
}

/** How many of the feed copies seen before an entry's detail was fetched are remembered (CDN edges). */
export const FEED_COPIES_KEPT = 4;

/** How precisely two feed copies' times are known: `Age` counts whole seconds. */
const AGE_PRECISION_MS = 1_000;

/**
 * Is the feed's copy of an article news? Not when it is a copy seen before what is held (a detail fetched
 * after it, or a copy taken over it): it is at most as new (another CDN edge serves it again). Nor, for a held
 * feed copy, when this one was not taken from the service later than the held one (`takenAt`, by the answers'
 * `Age`): an older edge may serve a copy never seen, older than the one held.
 */
export function feedCopyIsNews(
  copy: { contentHash?: string; takenAt?: number } | undefined,
  held: { rssHash?: string; rssSeen?: readonly string[]; rssTakenAt?: number },
): boolean {
  const hash = copy?.contentHash;
  if (hash === undefined || held.rssHash === undefined) return false;
  if (hash === held.rssHash || (held.rssSeen ?? []).includes(hash)) return false;
  if (held.rssTakenAt === undefined || copy?.takenAt === undefined) return true;
  return copy.takenAt > held.rssTakenAt + AGE_PRECISION_MS;
}

/** The feed copies an entry's detail is at least as new as, after a detail fetched now (`current`: the feed's now). */
export function feedCopiesSeen(
  held: { rssHash?: string; rssSeen?: readonly string[] } | undefined,
  current: string | undefined,
): string[] {
  const all = [...(held?.rssSeen ?? []), ...(held?.rssHash === undefined ? [] : [held.rssHash])].filter(
    (hash) => hash !== current,
  );
  return [...new Set(all)].slice(-FEED_COPIES_KEPT);
}

/**
 * May the feed's copy of a slug whose detail answers another language (the one case no detail can give this
 * language's article) stand in for it? Only when the feed is shown to carry whole articles: some detail answered
 * in this build or held (of any language: `answered`, hashes of their HTML) is exactly a feed copy (`copies`,
 * hash -> length), no held article of this loader's has a feed copy that differs from its detail (`own`: the
 * feed's hash and the held one per slug; a cut copy or a teaser disproves it), and this copy is no longer than the
 * longest copy shown whole (a feed that cuts long bodies cuts them past some length: a copy no longer than one
 * shown whole was not cut there).
 */
export function feedCopyProvenWhole(input: {
  copies: ReadonlyMap<string, number>;
  answered: ReadonlySet<string>;
  own: Iterable<{ feed: string; held: string }>;
  copyLength: number;
}): boolean {
  for (const { feed, held } of input.own) if (feed !== held) return false;
  let longest = -1;
  for (const hash of input.answered) {
    const length = input.copies.get(hash);
    if (length !== undefined) longest = Math.max(longest, length);
  }
  return longest >= 0 && input.copyLength <= longest;
}
