/**
 * Checks on method arguments that would otherwise build a wrong URL (a slug with `/` or `..` would reach
 * another endpoint) or waste a request of the hourly budget. They run before any request.
 */
import { ConfigError } from './errors.js';
import { describeValue } from '../options/redact.js';

export interface CallSite {
  method: string;
  /** The endpoint template, like `/api/v1/sites/<id>/articles/`. */
  path: string;
}

export function assertSiteId(siteId: unknown, call: CallSite): asserts siteId is number {
  if (typeof siteId === 'number' && Number.isSafeInteger(siteId) && siteId > 0) return;
  const hint = 'Pass the numeric id of one of your sites (client.sites() lists them).';
  throw new ConfigError({
    option: 'siteId',
    method: call.method,
    path: call.path,
    message: `\`siteId\` must be a positive integer (got ${describeValue(siteId)}). ${hint}`,
    hint,
  });
}

export function assertSlug(slug: unknown, call: CallSite): asserts slug is string {
  let problem: string | undefined;
  if (typeof slug !== 'string') problem = 'must be a string';
  else if (slug.trim() === '') problem = 'must not be empty';
  else if (slug.includes('/') || slug.includes('\\')) problem = 'must not contain "/"';
  else if (slug.includes('..')) problem = 'must not contain ".."';
  // "." is a path segment of its own: /articles/./ is /articles/, the list endpoint.
  else if (slug.trim() === '.') problem = 'must not be "."';
  else if (/[?#]/.test(slug) || [...slug].some((char) => char.charCodeAt(0) < 0x20))
    problem = 'must not contain control characters, "?" or "#"';
  if (problem === undefined) return;
  const hint = 'Pass one article slug as listed by client.articles(siteId), like "my-article".';
  throw new ConfigError({
    option: 'slug',
    method: call.method,
    path: call.path,
    message: `\`slug\` ${problem} (got ${describeValue(slug)}). ${hint}`,
    hint,
  });
}

export function assertArticleQuery(query: unknown, call: CallSite): void {
  if (query === undefined) return;
  const fail = (option: string, problem: string, value: unknown) => {
    const hint = 'Pass { status?: string, language?: string, limit?: positive integer }.';
    throw new ConfigError({
      option,
      method: call.method,
      path: call.path,
      message: `\`${option}\` ${problem} (got ${describeValue(value)}). ${hint}`,
      hint,
    });
  };
  if (typeof query !== 'object' || query === null) fail('query', 'must be an object', query);
  const { status, language, limit } = query as Record<string, unknown>;
  if (status !== undefined && typeof status !== 'string') fail('query.status', 'must be a string', status);
  if (language !== undefined && typeof language !== 'string') fail('query.language', 'must be a string', language);
  if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0)) {
    fail('query.limit', 'must be a positive integer', limit);
  }
}

/** A JSON object body (audit, brief, generate); generate also needs a topic or a title. */
export function assertBody(
  body: unknown,
  call: CallSite,
  requireTopicOrTitle: boolean,
): asserts body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const hint = 'Pass the request body as a plain object.';
    throw new ConfigError({
      option: 'body',
      method: call.method,
      path: call.path,
      message: `\`body\` must be an object (got ${describeValue(body)}). ${hint}`,
      hint,
    });
  }
  if (!requireTopicOrTitle) return;
  const { topic, title } = body as Record<string, unknown>;
  const present = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (!present(topic) && !present(title)) {
    const hint = 'Pass generate(siteId, { topic: "..." }) or { title: "..." }.';
    throw new ConfigError({
      option: 'body.topic',
      method: call.method,
      path: call.path,
      message: `\`body.topic\` or \`body.title\` is required for generate. ${hint}`,
      hint,
    });
  }
}
