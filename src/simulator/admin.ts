import { z } from 'zod';
import { SITES, USERS } from './accounts.js';
import { buildNewArticle, isoSeconds, metaDescriptionOf, uniqueSlug } from './articles.js';
import type { HandlerContext } from './context.js';
import { faultSchema } from './faults.js';
import { patchSchema, publishSchema } from './admin-bodies.js';
import { htmlToText, slugify, truncateText } from './html.js';
import { errorResponse, isResponse, jsonResponse, noContent, type SimRequest, type SimResponse } from './http.js';
import type { RouteDefinition } from './router.js';
import { articleDetail } from './shapes.js';
import { MEDIA_ORIGIN } from './media.js';
import { PROFILES, serviceVariantsSchema, type ResolvedServiceVariants } from './variants.js';

/**
 * The admin API under /__simulator/: lets tests and the demo change the service's content and behaviour.
 * No auth, but only loopback peers (checked in server.ts). Content is taken as given, hostile HTML included:
 * that is what the sanitiser downstream must cope with.
 */

function parseBody<T>(req: SimRequest, schema: z.ZodType<T>): T | SimResponse {
  let raw: unknown;
  try {
    raw = req.body.trim() === '' ? {} : JSON.parse(req.body);
  } catch {
    return errorResponse(400, 'The request body is not valid JSON.');
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return errorResponse(400, `\`${issue?.path.join('.') || 'body'}\`: ${issue?.message ?? 'invalid'}.`);
}

function info(ctx: HandlerContext) {
  return {
    url: ctx.baseUrl,
    tokens: Object.fromEntries(USERS.map((u) => [u.plan, u.tokens[0]])),
    extraTokens: Object.fromEntries(USERS.map((u) => [u.plan, u.tokens.slice(1)])),
    sites: SITES.map((s) => ({ id: s.id, domain: s.domain, active: s.active, cmsUnreachable: s.cmsUnreachable })),
    options: ctx.options,
  };
}

function publish(req: SimRequest, ctx: HandlerContext): SimResponse {
  const body = parseBody(req, publishSchema);
  if (isResponse(body)) return body;
  const site = ctx.store.site(body.site);
  if (!site) return errorResponse(404, `Unknown site ${body.site}. Known sites: ${SITES.map((s) => s.id).join(', ')}.`);
  const requested = body.slug ?? slugify(body.title);
  // With the sharedSlugs variant a slug is unique per language only.
  if (
    body.slug &&
    ctx.store.findAny(site.id, body.slug, ctx.options.variants.sharedSlugs ? (body.language ?? 'en') : undefined)
  ) {
    return errorResponse(
      409,
      `Slug "${body.slug}" is already published on site ${site.id}. PATCH it or DELETE it first.`,
    );
  }
  // A slug of an unpublished article may be reused (re-publication); a generated one never collides.
  const slug = body.slug ?? uniqueSlug(requested, (s) => ctx.store.slugTaken(site.id, s));
  const related = ctx.store.relatedOf(site.id);
  const article = buildNewArticle({
    site,
    seq: ctx.store.takeSeq(),
    title: body.title,
    topic: body.title,
    language: body.language ?? 'en',
    slug,
    related,
    nowMs: ctx.store.changeTime(site.id, ctx.now()),
    publishedAt: body.published_at,
    content: body.content,
    seed: ctx.options.seed,
  });
  if (body.excerpt !== undefined) article.excerpt = body.excerpt;
  if (body.featured_image !== undefined) article.featuredImage = body.featured_image;
  if (body.keywords !== undefined) article.keywords = [...body.keywords];
  if (body.status !== undefined) article.status = body.status;
  ctx.store.add(article);
  return jsonResponse(201, articleDetail(article, site, ctx.options.variants.sharedSlugs));
}

function update(req: SimRequest, ctx: HandlerContext): SimResponse {
  const body = parseBody(req, patchSchema);
  if (isResponse(body)) return body;
  const site = ctx.store.site(Number(req.params.site));
  const article = site
    ? ctx.store.findAny(site.id, req.params.slug ?? '', req.query.get('language') ?? undefined)
    : undefined;
  if (!site || !article)
    return errorResponse(404, `No article "${req.params.slug ?? ''}" on site ${req.params.site ?? ''}.`);
  const changedAt = ctx.store.changeTime(site.id, ctx.now());
  if (body.title !== undefined) article.title = body.title;
  if (body.content !== undefined) {
    article.content = body.content;
    if (body.excerpt === undefined) article.excerpt = truncateText(htmlToText(body.content), 200);
    // Derived as at publication, from the (possibly new) title: a stale one would describe the old body.
    article.metaDescription = metaDescriptionOf(article.title, body.content);
  }
  if (body.excerpt !== undefined) article.excerpt = body.excerpt;
  if (body.featured_image !== undefined) article.featuredImage = body.featured_image;
  if (body.keywords !== undefined) article.keywords = [...body.keywords];
  // Into or out of the feeds: their Last-Modified must move even when the article's own date does not show.
  if (body.status !== undefined && body.status !== article.status) ctx.store.feedsChanged(site.id, changedAt);
  if (body.status !== undefined) article.status = body.status;
  article.updatedAt = isoSeconds(changedAt);
  return jsonResponse(200, articleDetail(article, site, ctx.options.variants.sharedSlugs));
}

function unpublish(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = ctx.store.site(Number(req.params.site));
  if (
    !site ||
    !ctx.store.unpublish(
      site.id,
      req.params.slug ?? '',
      ctx.store.changeTime(site.id, ctx.now()),
      req.query.get('language') ?? undefined,
    )
  ) {
    return errorResponse(404, `No article "${req.params.slug ?? ''}" on site ${req.params.site ?? ''}.`);
  }
  return noContent();
}

function addFault(req: SimRequest, ctx: HandlerContext): SimResponse {
  const spec = parseBody(req, faultSchema);
  if (isResponse(spec)) return spec;
  return jsonResponse(201, { id: ctx.faults.add(spec) });
}

/** The variants the simulator started with, kept when the admin API first changes them (reset restores them). */
const startVariants = new WeakMap<object, ResolvedServiceVariants>();

const variantsBodySchema = z.strictObject({
  profile: z.enum(Object.keys(PROFILES) as [keyof typeof PROFILES, ...Array<keyof typeof PROFILES>]).optional(),
  variants: serviceVariantsSchema.partial().optional(),
});

/**
 * PUT /__simulator/variants `{ profile?, variants? }`: the variants from now on (the profile's, then the given
 * keys; unnamed keys go back to the defaults). Content seeded by `sharedSlugs` changes at the next reset.
 */
function setVariants(req: SimRequest, ctx: HandlerContext): SimResponse {
  const body = parseBody(req, variantsBodySchema);
  if (isResponse(body)) return body;
  if (!startVariants.has(ctx.options)) startVariants.set(ctx.options, ctx.options.variants);
  // Only the keys the request names: the partial schema fills every other one with its default, which would
  // replace the profile's.
  const raw = (req.body.trim() === '' ? {} : JSON.parse(req.body)) as { variants?: object };
  const named = Object.keys(raw.variants ?? {});
  const given = Object.fromEntries(Object.entries(body.variants ?? {}).filter(([key]) => named.includes(key)));
  ctx.options.variants = serviceVariantsSchema.parse({
    ...(body.profile ? PROFILES[body.profile] : {}),
    ...given,
  });
  return jsonResponse(200, { variants: ctx.options.variants });
}

const replaceMediaSchema = z.strictObject({
  /** The image: its URL as an article names it (`<simulator>/media/...`) or stores it (`https://cdn.example.com/...`), or the path. */
  url: z.string().min(1),
});

/**
 * POST /__simulator/media `{ url }`: the image at that URL gets other bytes, under the same URL (the article
 * that names it does not change). Only where `imageCaching` lets the service do that.
 */
function replaceMedia(req: SimRequest, ctx: HandlerContext): SimResponse {
  const body = parseBody(req, replaceMediaSchema);
  if (isResponse(body)) return body;
  if (ctx.options.variants.imageCaching === 'immutable') {
    return errorResponse(
      409,
      "imageCaching is 'immutable': a changed image gets a new URL here (PATCH the article's content or featured_image). Set the variant to 'revalidate' or 'none' to replace an image in place.",
    );
  }
  // As the article names it when read back (`<simulator>/media/...`), as it was given in `content` or
  // `featured_image` (`https://cdn.example.com/...`), or as a path (`/media/...`).
  const path = body.url.startsWith(`${MEDIA_ORIGIN}/`)
    ? `/media/${body.url.slice(MEDIA_ORIGIN.length + 1).replace(/[?#].*$/, '')}`
    : new URL(body.url, 'http://simulator').pathname;
  if (!path.startsWith('/media/'))
    return errorResponse(
      400,
      `"${body.url}" is not an image URL: give it as an article names it (<simulator>/media/sites/...), as stored (on cdn.example.com: responses show that host as <simulator>/media), or as a path (/media/sites/...).`,
    );
  const version = (ctx.store.mediaVersions.get(path)?.version ?? 0) + 1;
  // Whole seconds, one later than the last change: Last-Modified must move (HTTP dates have no milliseconds).
  const changedAt = Math.max(
    Math.floor(ctx.now() / 1000) * 1000,
    (ctx.store.mediaVersions.get(path)?.changedAt ?? 0) + 1000,
  );
  ctx.store.mediaVersions.set(path, { version, changedAt });
  return jsonResponse(200, { path, version });
}

/** Everything back to the seed: content, quotas, stats, faults, rate-limit windows and the start variants. */
export function resetAll(ctx: HandlerContext): void {
  const start = startVariants.get(ctx.options);
  if (start) ctx.options.variants = start;
  ctx.store.reset();
  ctx.stats.reset();
  ctx.faults.clear();
  ctx.limiter.clear();
}

export const ADMIN_ROUTES: Array<RouteDefinition<HandlerContext>> = [
  { method: 'GET', pattern: '/__simulator/', kind: 'admin', handler: (_req, ctx) => jsonResponse(200, info(ctx)) },
  {
    method: 'GET',
    pattern: '/__simulator/stats',
    kind: 'admin',
    handler: (_req, ctx) => jsonResponse(200, ctx.stats.snapshot()),
  },
  {
    method: 'POST',
    pattern: '/__simulator/stats/reset',
    kind: 'admin',
    handler: (_req, ctx) => {
      ctx.stats.reset();
      return jsonResponse(200, { ok: true });
    },
  },
  {
    method: 'POST',
    pattern: '/__simulator/reset',
    kind: 'admin',
    handler: (_req, ctx) => {
      resetAll(ctx);
      return jsonResponse(200, { ok: true });
    },
  },
  {
    method: 'GET',
    pattern: '/__simulator/variants',
    kind: 'admin',
    handler: (_req, ctx) => jsonResponse(200, { variants: ctx.options.variants }),
  },
  { method: 'PUT', pattern: '/__simulator/variants', kind: 'admin', handler: setVariants },
  { method: 'POST', pattern: '/__simulator/articles', kind: 'admin', handler: publish },
  { method: 'PATCH', pattern: '/__simulator/articles/:site/:slug', kind: 'admin', handler: update },
  { method: 'DELETE', pattern: '/__simulator/articles/:site/:slug', kind: 'admin', handler: unpublish },
  { method: 'POST', pattern: '/__simulator/media', kind: 'admin', handler: replaceMedia },
  {
    method: 'GET',
    pattern: '/__simulator/faults',
    kind: 'admin',
    handler: (_req, ctx) => jsonResponse(200, { faults: ctx.faults.list() }),
  },
  { method: 'POST', pattern: '/__simulator/faults', kind: 'admin', handler: addFault },
  {
    method: 'DELETE',
    pattern: '/__simulator/faults',
    kind: 'admin',
    handler: (_req, ctx) => {
      ctx.faults.clear();
      return noContent();
    },
  },
  {
    method: 'DELETE',
    pattern: '/__simulator/faults/:id',
    kind: 'admin',
    handler: (req, ctx) =>
      ctx.faults.remove(req.params.id ?? '') ? noContent() : errorResponse(404, `No fault "${req.params.id ?? ''}".`),
  },
];
