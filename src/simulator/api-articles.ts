import { PLANS } from './accounts.js';
import { ownedCmsSite } from './api-sites.js';
import type { HandlerContext } from './context.js';
import { errorResponse, isResponse, jsonResponse, type SimRequest, type SimResponse } from './http.js';
import { articleDetail, listItem, siteItem } from './shapes.js';
import { SITES } from './accounts.js';
import { pageSize } from './variants.js';

/** Largest `limit` honoured by default (the `listMax` variant); larger values are clamped rather than refused. */
export const MAX_LIST_LIMIT = 1000;

/** A non-negative integer query parameter, or an error response naming it. */
function indexParam(req: SimRequest, name: string, min: number): number | SimResponse | undefined {
  const raw = req.query.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    return errorResponse(400, `\`${name}\` must be an integer of at least ${min} (got "${raw}").`);
  return Number(raw);
}

export function handleMe(_req: SimRequest, ctx: HandlerContext): SimResponse {
  const user = ctx.user;
  if (!user) return errorResponse(401, 'Authentication credentials were not provided.');
  const rateLimit = ctx.options.rateLimitOverride ?? PLANS[user.plan].rateLimit[ctx.options.rateLimits];
  const account: Record<string, unknown> = {
    username: user.username,
    email: user.email,
    plan: user.plan,
    rate_limit_per_hour: rateLimit,
  };
  // The first description of the API has no `usage` object; the second has it.
  if (ctx.options.rateLimits === 'second') {
    const usage = ctx.store.usage(user, ctx.now());
    account.usage = {
      articles_this_month: usage.articlesThisMonth,
      articles_per_month_limit: usage.limit,
      month_key: usage.monthKey,
    };
  }
  return jsonResponse(200, account);
}

export function handleSites(_req: SimRequest, ctx: HandlerContext): SimResponse {
  const ids = ctx.user?.siteIds ?? [];
  const results = SITES.filter((site) => site.active && ids.includes(site.id)).map(siteItem);
  return jsonResponse(200, { results });
}

export function handleArticleList(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ownedCmsSite(ctx, req.params.id);
  if (isResponse(site)) return site;

  const rawLimit = req.query.get('limit');
  if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1)) {
    return errorResponse(400, `\`limit\` must be a positive integer (got "${rawLimit}").`);
  }
  const variants = ctx.options.variants;
  const size = pageSize(variants, rawLimit === null ? undefined : Number(rawLimit));
  const offsetParam = indexParam(req, 'offset', 0);
  const pageParam = indexParam(req, 'page', 1);
  if (isResponse(offsetParam)) return offsetParam;
  if (isResponse(pageParam)) return pageParam;
  // Paging parameters mean something only where the variant accepts them; elsewhere they are ignored.
  const offset =
    variants.paging === 'page'
      ? ((pageParam ?? 1) - 1) * size
      : variants.paging === 'offset' || variants.paging === 'next-count'
        ? (offsetParam ?? 0)
        : 0;
  // The `listStatus`/`listLanguage` variants: a service that ignores a filter answers as if it was not sent.
  const status = variants.listStatus === 'honoured' ? req.query.get('status') : null;
  const language = variants.listLanguage === 'honoured' ? req.query.get('language') : null;
  // Without `listStatuses: 'all'` only published articles are listed, so any other `status` matches nothing.
  const shown = variants.listStatuses === 'all' ? ctx.store.listed(site.id) : ctx.store.published(site.id);
  const matching = shown
    .filter((article) => status === null || article.status === status)
    .filter((article) => language === null || article.language === language);
  const results = matching.slice(offset, offset + size).map(listItem);
  if (variants.paging !== 'next-count') return jsonResponse(200, { results });
  let next: string | null = null;
  if (offset + size < matching.length) {
    const query = new URLSearchParams(req.query);
    query.set('offset', String(offset + size));
    if (rawLimit === null && Number.isFinite(size)) query.set('limit', String(size));
    next = `${ctx.baseUrl}${req.path}?${query.toString()}`;
  }
  return jsonResponse(200, { count: matching.length, next, results });
}

export function handleArticleDetail(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ownedCmsSite(ctx, req.params.id);
  if (isResponse(site)) return site;
  const variants = ctx.options.variants;
  // `detailLanguage: 'honoured'`: that language's article of a shared slug; ignored, the oldest of the slug.
  const language = variants.detailLanguage === 'honoured' ? (req.query.get('language') ?? undefined) : undefined;
  const article =
    variants.draftDetail === 200
      ? ctx.store.findAny(site.id, req.params.slug ?? '', language)
      : ctx.store.find(site.id, req.params.slug ?? '', language);
  if (!article) return errorResponse(404, `Article "${req.params.slug ?? ''}" not found on site ${site.id}.`);
  // Views grow on every read: a loader must not take view_count as a content change.
  article.viewCount += 1;
  return jsonResponse(200, articleDetail(article, site, variants.sharedSlugs));
}
