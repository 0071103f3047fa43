import { ownedCmsSite } from './api-sites.js';
import type { ArticleLength } from './article-body.js';
import { buildNewArticle, uniqueSlug } from './articles.js';
import type { HandlerContext } from './context.js';
import {
  errorResponse,
  isResponse,
  jsonResponse,
  optionalString,
  parseJsonObject,
  pause,
  type SimRequest,
  type SimResponse,
} from './http.js';
import { slugify } from './html.js';
import { articleUrl } from './shapes.js';

export const ARTICLE_TYPES = ['news', 'tutorial', 'comparison', 'guide', 'review', 'story', 'local'] as const;
export const GENERATED_AUDIT_SCORE = 87;
export const ARTICLE_LENGTHS = ['short', 'medium', 'long'] as const;

type GenerateBody = {
  topic: string;
  title?: string;
  type: string;
  length: ArticleLength;
  language: string;
  keywords?: string;
};

function validate(body: Record<string, unknown>): GenerateBody | string {
  const fields: Record<string, string | undefined> = {};
  for (const field of ['topic', 'title', 'type', 'article_type', 'length', 'language', 'keywords']) {
    const value = optionalString(body, field);
    if (value instanceof Error) return value.message;
    fields[field] = value?.trim() || undefined;
  }
  const topic = fields.topic ?? fields.title;
  if (!topic) return 'Either `topic` or `title` is required.';
  // The two descriptions of the API name this field differently: accept both.
  const type = fields.type ?? fields.article_type ?? 'guide';
  if (!(ARTICLE_TYPES as readonly string[]).includes(type)) {
    return `\`type\` must be one of ${ARTICLE_TYPES.join(', ')} (got "${type}").`;
  }
  const length = fields.length ?? 'medium';
  if (!(ARTICLE_LENGTHS as readonly string[]).includes(length)) {
    return `\`length\` must be one of ${ARTICLE_LENGTHS.join(', ')} (got "${length}").`;
  }
  return {
    topic,
    title: fields.title,
    type,
    length: length as ArticleLength,
    language: fields.language ?? 'en',
    keywords: fields.keywords,
  };
}

export async function handleGenerate(req: SimRequest, ctx: HandlerContext): Promise<SimResponse> {
  const site = ownedCmsSite(ctx, req.params.id);
  if (isResponse(site)) return site;
  const parsed = parseJsonObject(req);
  if (!parsed.ok) return parsed.response;
  const body = validate(parsed.value);
  if (typeof body === 'string') return errorResponse(400, body);
  const user = ctx.user;
  if (!user || !ctx.store.consumeGeneration(user, ctx.now())) {
    return errorResponse(
      402,
      'Monthly article quota and credits are exhausted. Buy credits or wait for the first day of the month.',
    );
  }

  // The real call takes 60 to 120 s; the simulator waits `generateDelayMs`.
  if (ctx.options.generateDelayMs > 0 && !(await pause(ctx.options.generateDelayMs, ctx.signal))) {
    return errorResponse(503, 'The simulator is shutting down.');
  }

  const rawTitle = body.title ?? body.topic;
  const title = rawTitle.charAt(0).toUpperCase() + rawTitle.slice(1);
  const slug = uniqueSlug(slugify(title), (s) => ctx.store.slugTaken(site.id, s));
  const related = ctx.store.relatedOf(site.id);
  const article = buildNewArticle({
    site,
    seq: ctx.store.takeSeq(),
    title,
    topic: body.topic,
    language: body.language,
    slug,
    related,
    nowMs: ctx.store.changeTime(site.id, ctx.now()),
    length: body.length,
    seed: ctx.options.seed,
  });
  if (body.keywords)
    article.keywords = body.keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  ctx.store.add(article);
  const url = articleUrl(site, slug);
  const output = [
    `Topic: ${body.topic}`,
    `Type: ${body.type} | Length: ${body.length} | Language: ${body.language}`,
    'Generating article... done',
    `Title: ${title}`,
    // A fixed score: scripts and tests parse this line, the value itself means nothing here.
    `Audit score: ${GENERATED_AUDIT_SCORE}/100`,
    `Published: ${url}`,
  ].join('\n');
  return jsonResponse(200, { output, post_count: ctx.store.published(site.id).length });
}
