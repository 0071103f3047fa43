/** GET /api/v1/sites/<id>/articles/ and /api/v1/sites/<id>/articles/<slug>/. */
import { z } from 'zod';
import { getJson, type ResourceContext } from '../request-json.js';
import { assertArticleQuery, assertSiteId, assertSlug } from '../validate-input.js';

export const articleListItemSchema = z.looseObject({
  slug: z.string(),
  title: z.string(),
  /** Only `published` is documented; other values are kept as they come. */
  status: z.string(),
  /** A language code, like `en`. */
  language: z.string(),
  /** `YYYY-MM-DD` */
  published_at: z.string(),
  view_count: z.number(),
});

export const articleListSchema = z.looseObject({ results: z.array(articleListItemSchema) });

/** One page of the list with the paging hints some services add (`count`, `next`); the API documents none. */
export const articlePageSchema = articleListSchema.extend({
  count: z.number().int().nonnegative().optional(),
  next: z.string().nullish(),
});
export type ArticlePage = z.output<typeof articlePageSchema>;

/** The document lists only `content` for the detail; the rest is what the service sends today, all optional. */
export const articleDetailSchema = z.looseObject({
  slug: z.string(),
  title: z.string(),
  /** The article's full HTML (untrusted: sanitise before rendering). */
  content: z.string(),
  status: z.string().optional(),
  language: z.string().optional(),
  published_at: z.string().optional(),
  view_count: z.number().optional(),
  excerpt: z.string().nullish(),
  url: z.string().nullish(),
  updated_at: z.string().nullish(),
  meta_description: z.string().nullish(),
  featured_image: z.string().nullish(),
  /** An array of strings, or one comma-separated string. */
  keywords: z.union([z.array(z.string()), z.string()]).nullish(),
});

export type ArticleListItem = z.output<typeof articleListItemSchema>;
export type ArticleDetail = z.output<typeof articleDetailSchema>;

export interface ArticleQuery {
  /** Filter by status (only `published` is documented). */
  status?: string;
  /** Filter by language code. */
  language?: string;
  /** Maximum number of articles (a positive integer). */
  limit?: number;
}

/**
 * Whether a page says more articles exist than it holds (and the caller did not ask for at most that many):
 * a `next` link, or a `count` (the whole list's) above `offset` plus the page. The API documents no paging;
 * some services add these hints.
 */
export function moreArticles(page: ArticlePage, query?: ArticleQuery, offset = 0): boolean {
  if (query?.limit !== undefined && page.results.length >= query.limit) return false;
  return Boolean(page.next) || (page.count !== undefined && page.count > offset + page.results.length);
}

/**
 * The offset a page's `next` hint asks for: only its `offset` parameter is read, never the URL itself (it could
 * name another host, which must not get the key). Undefined without that parameter, or when it would not move
 * past `after` (the articles already read).
 */
export function offsetOfNext(next: string | null | undefined, after: number): number | undefined {
  if (!next) return undefined;
  try {
    const offset = Number(new URL(next, 'http://x.invalid').searchParams.get('offset') ?? Number.NaN);
    return Number.isSafeInteger(offset) && offset >= after ? offset : undefined;
  } catch {
    return undefined;
  }
}

/** One page of the list; when the service says more exist, a warning names `articlesPage()`, which reads them. */
export async function articles(ctx: ResourceContext, siteId: number, query?: ArticleQuery): Promise<ArticleListItem[]> {
  const call = { method: 'GET', path: '/api/v1/sites/<id>/articles/' };
  assertSiteId(siteId, call);
  assertArticleQuery(query, call);
  const path = `/api/v1/sites/${siteId}/articles/`;
  const page = await getJson(ctx, path, articlePageSchema, {
    status: query?.status,
    language: query?.language,
    limit: query?.limit,
  });
  if (moreArticles(page, query)) {
    const of = page.count === undefined ? '' : ` of ${page.count}`;
    ctx.transport.warn(
      `GET ${path}: ${page.results.length}${of} articles returned, the service pages this list: ` +
        'articlesPage(siteId, query, offset) returns `count` and `next` and reads the next pages.',
    );
  }
  return page.results;
}

/**
 * The list call with its paging hints kept, from `offset` (sent only when given: the API documents no
 * paging). A caller follows `next` by reading its `offset`, never by requesting the URL as given.
 */
export async function articlesPage(
  ctx: ResourceContext,
  siteId: number,
  query?: ArticleQuery,
  offset?: number,
): Promise<ArticlePage> {
  const call = { method: 'GET', path: '/api/v1/sites/<id>/articles/' };
  assertSiteId(siteId, call);
  assertArticleQuery(query, call);
  return getJson(ctx, `/api/v1/sites/${siteId}/articles/`, articlePageSchema, {
    status: query?.status,
    language: query?.language,
    limit: query?.limit,
    offset,
  });
}

export async function article(
  ctx: ResourceContext,
  siteId: number,
  slug: string,
  options?: { language?: string | undefined },
): Promise<ArticleDetail> {
  const call = { method: 'GET', path: '/api/v1/sites/<id>/articles/<slug>/' };
  assertSiteId(siteId, call);
  assertSlug(slug, call);
  return getJson(
    ctx,
    `/api/v1/sites/${siteId}/articles/${encodeURIComponent(slug)}/`,
    articleDetailSchema,
    options?.language === undefined ? undefined : { language: options.language },
  );
}
