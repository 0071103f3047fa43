import type { ArticleListItem } from '../client/index.js';
import type { LoaderClients } from './clients.js';
import { shortHash, stableStringify } from './fingerprint.js';
import type { ResolvedArticlesLoaderOptions } from './options.js';
import { slugProblem } from './slugs.js';

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
}

/** The list item's own fields; the view count is left out because every detail GET moves it. */
export function listDigest(item: ArticleListItem): string {
  return shortHash(stableStringify({ title: item.title, status: item.status, language: item.language, published_at: item.published_at }));
}

export function indexListed(listed: ArticleListItem[]): ListedArticles {
  const items = new Map<string, ArticleListItem>();
  const repeated: string[] = [];
  const rejected: ListedArticles['rejected'] = [];
  for (const item of listed) {
    const problem = slugProblem(item.slug);
    if (problem) rejected.push({ slug: item.slug, problem });
    else if (items.has(item.slug)) repeated.push(item.slug);
    else items.set(item.slug, item);
  }
  return { listed, items, repeated, rejected };
}

/** Sends the list call with the loader's filters; errors are the caller's to judge (transient or not). */
export async function listArticles(clients: LoaderClients, opts: ResolvedArticlesLoaderOptions): Promise<ListedArticles> {
  const query = Object.fromEntries(Object.entries({ status: opts.status, language: opts.language, limit: opts.limit }).filter(([, v]) => v !== undefined));
  return indexListed(await clients.list.articles(opts.siteId, query));
}
