import type { ArticleListItem } from '../../client/index.js';
import { offsetOfNext } from '../../client/resources/articles.js';
import type { LoaderClients } from '../budget/clients.js';
import { shortHash, stableStringify } from '../state/fingerprint.js';
import { judgeList, statusesOf } from '../evidence/evidence.js';
import type { ResolvedArticlesLoaderOptions } from '../options/options.js';
import { slugProblem } from '../entries/slugs.js';
import type { SyncState } from '../state/state.js';

/**
 * Step 1 of a build: the list call (the one authenticated request every build sends), reduced to one item
 * per slug. The list decides, with the sitemap, what exists; its items carry the fields that change most.
 */

export interface ListedArticles {
  /** What the service sent, in its order (newest first), repeats included: its length says whether it was capped. */
  listed: ArticleListItem[];
  /** One item per slug, the first of each. */
  items: Map<string, ArticleListItem>;
  /** Slugs the list sent more than once. */
  repeated: string[];
  /** Slugs that cannot be entry ids (path traversal, "/", "?"), with the reason: never stored nor requested. */
  rejected: Array<{ slug: string; problem: string }>;
  /** Where the next page starts, when the service's `next` hint names an offset (undefined: no more pages). */
  nextOffset?: number | undefined;
  /** Pages read (each one authenticated request). */
  pages: number;
  /** Items the service sent that the loader's filters leave out (evidence.ts judgeList): never stored. */
  dropped: Dropped;
}

/** What the list sent beyond the loader's filters: a service that ignored `status`, `language` or `limit`. */
export interface Dropped {
  otherStatus: ArticleListItem[];
  otherLanguage: ArticleListItem[];
  beyondLimit: number;
}

const NONE_DROPPED: Dropped = { otherStatus: [], otherLanguage: [], beyondLimit: 0 };

/** The list item's own fields; the view count is left out because every detail GET moves it. */
export function listDigest(item: ArticleListItem): string {
  return shortHash(
    stableStringify({
      title: item.title,
      status: item.status,
      language: item.language,
      published_at: item.published_at,
    }),
  );
}

export function indexListed(
  listed: ArticleListItem[],
  nextOffset?: number,
  pages = 1,
  dropped: Dropped = NONE_DROPPED,
): ListedArticles {
  const items = new Map<string, ArticleListItem>();
  const repeated: string[] = [];
  const rejected: ListedArticles['rejected'] = [];
  for (const item of listed) {
    const problem = slugProblem(item.slug);
    if (problem) rejected.push({ slug: item.slug, problem });
    else if (items.has(item.slug)) repeated.push(item.slug);
    else items.set(item.slug, item);
  }
  return { listed, items, repeated, rejected, nextOffset, pages, dropped };
}

/** The one status asked for, when the loader builds only one (the API takes one value). */
function onlyStatus(opts: ResolvedArticlesLoaderOptions): string | undefined {
  const statuses = [...statusesOf(opts.status)];
  return statuses.length === 1 ? statuses[0] : undefined;
}

/** One status is sent as the filter; several are asked for unfiltered (the API takes one value) and checked. */
const queryOf = (opts: ResolvedArticlesLoaderOptions) =>
  Object.fromEntries(
    Object.entries({
      status: onlyStatus(opts),
      language: opts.language,
      limit: opts.limit,
    }).filter(([, v]) => v !== undefined),
  );

/** The pages read so far as evidence (evidence.ts judgeList): only items this loader may build, at most `limit`. */
function judged(
  all: ArticleListItem[],
  opts: ResolvedArticlesLoaderOptions,
  nextOffset: number | undefined,
  pages: number,
) {
  const { kept, ...dropped } = judgeList(all, {
    statuses: statusesOf(opts.status),
    language: opts.language,
    limit: opts.limit,
  });
  return indexListed(kept, nextOffset, pages, dropped);
}

/** Sends the list call with the loader's filters; errors are the caller's to judge (transient or not). */
export async function listArticles(
  clients: LoaderClients,
  opts: ResolvedArticlesLoaderOptions,
): Promise<ListedArticles> {
  const page = await clients.list.articlesPage(opts.siteId, queryOf(opts));
  // With a `limit` the newest `limit` were asked for: no further page.
  const next = opts.limit === undefined ? offsetOfNext(page.next, page.results.length) : undefined;
  return judged(page.results, opts, next, 1);
}

/**
 * Follows the service's paging hints for at most `maxPages` more requests (the caller's budget). A failed
 * page ends the walk: what was read so far stands, and the sitemap covers the rest.
 */
export async function followPages(
  clients: LoaderClients,
  opts: ResolvedArticlesLoaderOptions,
  first: ListedArticles,
  maxPages: number,
): Promise<ListedArticles> {
  let all = [...first.listed, ...first.dropped.otherStatus, ...first.dropped.otherLanguage];
  let offset = first.nextOffset;
  let pages = first.pages;
  while (offset !== undefined && pages - first.pages < maxPages) {
    let page;
    try {
      page = await clients.list.articlesPage(opts.siteId, queryOf(opts), offset);
    } catch {
      break;
    }
    pages += 1;
    if (page.results.length === 0) {
      offset = undefined;
      break;
    }
    all = [...all, ...page.results];
    offset = offsetOfNext(page.next, offset + page.results.length);
  }
  return judged(all, opts, offset, pages);
}

/**
 * Follows the paging hints only while they can tell something new: the sitemap (free) shows published articles
 * that are neither listed nor stored, or it could not be read. A warm build stays at one request. At most half
 * of `affordable` pages (one at least): the articles the pages name still need their detail calls. With a
 * language or status filter the sitemap also shows the other loaders' articles: those a whole read of the list
 * did not have are kept in `state.notOurs`, so they are not news to the next build.
 */
export async function followPagesForNews(
  clients: LoaderClients,
  opts: ResolvedArticlesLoaderOptions,
  listed: ListedArticles,
  known: {
    state: Pick<SyncState, 'notOurs'>;
    sitemapSlugs: ReadonlySet<string> | undefined;
    stored: (slug: string) => boolean;
    affordable: number;
  },
): Promise<ListedArticles> {
  const { state, sitemapSlugs, stored } = known;
  // The sitemap shows published articles of every language: a loader of one language, or of other statuses, sees
  // in it articles that are not its own.
  const filtered = opts.language !== undefined || onlyStatus(opts) !== 'published';
  const notOurs = new Set(filtered ? (state.notOurs ?? []) : []);
  const unknown = sitemapSlugs
    ? [...sitemapSlugs].filter((slug) => !listed.items.has(slug) && !stored(slug) && !notOurs.has(slug)).length
    : 1;
  const all =
    unknown > 0 && known.affordable > 0
      ? await followPages(clients, opts, listed, Math.max(1, Math.floor(known.affordable / 2)))
      : listed;
  if (filtered && all.nextOffset === undefined && sitemapSlugs) {
    const others = [...sitemapSlugs].filter((slug) => !all.items.has(slug) && !stored(slug));
    if (others.length > 0) state.notOurs = others.sort();
    else delete state.notOurs;
  }
  return all;
}
