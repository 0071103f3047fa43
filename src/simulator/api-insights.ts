import { ownedSite } from './api-sites.js';
import type { HandlerContext } from './context.js';
import {
  errorResponse,
  isResponse,
  jsonResponse,
  optionalString,
  parseJsonObject,
  type SimRequest,
  type SimResponse,
} from './http.js';
import { auditResult, briefResult, weeklyDigest, type AuditInput } from './insights.js';
import { takeSnapshot } from './keyword-data.js';

export function handleAudit(req: SimRequest, ctx: HandlerContext): SimResponse {
  const parsed = parseJsonObject(req);
  if (!parsed.ok) return parsed.response;
  const input: AuditInput = {};
  for (const field of ['title', 'excerpt', 'content', 'keyword', 'language'] as const) {
    const value = optionalString(parsed.value, field);
    if (value instanceof Error) return errorResponse(400, value.message);
    if (value !== undefined) input[field] = value;
  }
  if (!input.content && !input.title) return errorResponse(400, 'Either `content` or `title` is required.');
  // The same body twice is served from the service's cache.
  const key = JSON.stringify(input);
  const cacheHit = ctx.store.auditCache.has(key);
  ctx.store.auditCache.add(key);
  return jsonResponse(200, auditResult(input, cacheHit));
}

export function handleBrief(req: SimRequest, _ctx: HandlerContext): SimResponse {
  const parsed = parseJsonObject(req);
  if (!parsed.ok) return parsed.response;
  const keyword = optionalString(parsed.value, 'keyword');
  const language = optionalString(parsed.value, 'language');
  if (keyword instanceof Error) return errorResponse(400, keyword.message);
  if (language instanceof Error) return errorResponse(400, language.message);
  if (!keyword?.trim()) return errorResponse(400, '`keyword` is required.');
  return jsonResponse(200, briefResult(keyword, language ?? 'en'));
}

export function handleKeywords(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ownedSite(ctx, req.params.id);
  if (isResponse(site)) return site;
  const state = ctx.store.keywordState(site.id);
  return jsonResponse(200, { results: (state?.records ?? []).map((record) => ({ ...record })) });
}

export function handleSnapshot(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ownedSite(ctx, req.params.id);
  if (isResponse(site)) return site;
  const state = ctx.store.keywordState(site.id);
  if (!state) return jsonResponse(200, { updated: 0, results: [] });
  const results = takeSnapshot(state, site, ctx.options.seed, ctx.now());
  return jsonResponse(200, { updated: results.length, results });
}

export function handleDigest(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ownedSite(ctx, req.params.id);
  if (isResponse(site)) return site;
  const keywords = ctx.store.keywordState(site.id)?.records ?? [];
  return jsonResponse(200, weeklyDigest(site, ctx.store.published(site.id), keywords));
}
