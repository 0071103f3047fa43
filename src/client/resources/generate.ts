/** POST /api/v1/sites/<id>/generate/: generate, audit and publish an article (60 to 120 s, consumes quota). */
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { postJson, type ResourceContext } from '../request-json.js';
import { assertBody, assertSiteId } from '../validate-input.js';

export const ARTICLE_TYPES = ['news', 'tutorial', 'comparison', 'guide', 'review', 'story', 'local'] as const;
export type ArticleType = (typeof ARTICLE_TYPES)[number];
export type ArticleLength = 'short' | 'medium' | 'long';

/**
 * What a generate without a complete answer, or with a 5xx, may have done anyway; the client's hint and the
 * command line's follow it with where to look before trying again.
 */
export const GENERATE_IN_DOUBT =
  'The service may already have generated and published the article (and used one quota unit or credit)';

export interface GenerateBody {
  /** Subject of the article (this or `title` is required). */
  topic?: string;
  /** Title of the article (this or `topic` is required). */
  title?: string;
  /** Kind of article. One description of the API calls this field `type`, the other `article_type`. */
  type?: ArticleType;
  /** Same as `type` (the other description's name). */
  article_type?: ArticleType;
  length?: ArticleLength;
  /** Language code. */
  language?: string;
  /** Keywords separated by commas. */
  keywords?: string;
  [extra: string]: unknown;
}

export const generateResultSchema = z.looseObject({
  /** A human-readable, multi-line progress log (topic, audit score, publication result). */
  output: z.string(),
  post_count: z.number().int(),
});

export type GenerateResult = z.output<typeof generateResultSchema>;

export async function generate(ctx: ResourceContext, siteId: number, body: GenerateBody): Promise<GenerateResult> {
  const call = { method: 'POST', path: '/api/v1/sites/<id>/generate/' };
  assertSiteId(siteId, call);
  assertBody(body, call, true);
  const kind = body.type ?? body.article_type;
  if (body.type !== undefined && body.article_type !== undefined && body.type !== body.article_type) {
    const hint = 'Pass only one of them: they are two names of the same field.';
    throw new ConfigError({
      option: 'body.type',
      ...call,
      message: `\`body.type\` ("${String(body.type)}") and \`body.article_type\` ("${String(body.article_type)}") disagree. ${hint}`,
      hint,
    });
  }
  // The two descriptions of the API name this field differently: send both names with the same value,
  // so the request means the same thing to a service following either description.
  const sent = kind === undefined ? { ...body } : { ...body, type: kind, article_type: kind };
  // Not idempotent: an answer lost on the way back does not mean nothing was generated.
  const inDoubt = `${GENERATE_IN_DOUBT}: check \`client.articles(${siteId})\` for it before retrying.`;
  return postJson(ctx, `/api/v1/sites/${siteId}/generate/`, sent, generateResultSchema, 'generateTimeoutMs', inDoubt);
}
