/** GET /api/v1/sites/<id>/keywords/ and POST /api/v1/sites/<id>/keywords/snapshot/. */
import { z } from 'zod';
import { fail, jsonKind, parseJsonBody, validateBody } from '../parse-response.js';
import type { ResourceContext } from '../request-json.js';
import { assertSiteId } from '../validate-input.js';

/** The document does not name the fields of a keyword record: all optional, unknown ones kept. */
export const keywordRecordSchema = z.looseObject({
  keyword: z.string().optional(),
  position: z.number().nullish(),
  previous_position: z.number().nullish(),
  url: z.string().nullish(),
  volume: z.number().nullish(),
  updated_at: z.string().nullish(),
});

const keywordRecordsSchema = z.array(keywordRecordSchema);

/**
 * The document does not show the snapshot's answer. Read as the moved positions (`updated`, `results`) when
 * it carries them, other fields kept as sent; an empty body is `{}`, a bare array `{ results: [...] }`.
 */
export const snapshotResultSchema = z.looseObject({
  /** How many records moved, when the service says. */
  updated: z.number().optional(),
  results: keywordRecordsSchema.optional(),
});

export type KeywordRecord = z.output<typeof keywordRecordSchema>;
export type SnapshotResult = z.output<typeof snapshotResultSchema>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The list's shape is open too: a bare array, `{ results: [...] }`, or an object holding one array of
 * records under another name (`keywords`, `data`, ...).
 */
export async function keywords(ctx: ResourceContext, siteId: number): Promise<KeywordRecord[]> {
  assertSiteId(siteId, { method: 'GET', path: '/api/v1/sites/<id>/keywords/' });
  const path = `/api/v1/sites/${siteId}/keywords/`;
  const call = { method: 'GET', path };
  const response = await ctx.transport.request({
    method: 'GET',
    path,
    auth: true,
    timeoutMs: ctx.timeoutMs,
    accept: 'application/json',
  });
  const body = parseJsonBody(call, response);
  if (Array.isArray(body)) return validateBody(call, response, keywordRecordsSchema, body);
  const expected = 'expected the tracked keywords as an array of records, or an object holding one such array';
  if (!isObject(body)) return fail(call, response, '(body)', `${expected}; got ${jsonKind(body)}`);
  const arrays = Object.keys(body).filter((key) => Array.isArray(body[key]));
  const name = Array.isArray(body.results) ? 'results' : arrays.length === 1 ? arrays[0] : undefined;
  if (name === undefined) {
    const fields = Object.keys(body);
    const got =
      arrays.length > 1
        ? `several arrays (${arrays.join(', ')}): which one holds the keywords is unclear`
        : `no array (fields: ${fields.length === 0 ? 'none' : fields.join(', ')})`;
    return fail(call, response, '(body)', `${expected} (like \`results\`); got an object with ${got}`);
  }
  // Validated in place so that a bad record is named from the body's root, like `keywords[2].position`.
  const parsed = validateBody(call, response, z.looseObject({ [name]: keywordRecordsSchema }), body);
  return parsed[name] as KeywordRecord[];
}

export async function snapshot(ctx: ResourceContext, siteId: number): Promise<SnapshotResult> {
  assertSiteId(siteId, { method: 'POST', path: '/api/v1/sites/<id>/keywords/snapshot/' });
  const path = `/api/v1/sites/${siteId}/keywords/snapshot/`;
  const call = { method: 'POST', path };
  // The document says the call has no body.
  const response = await ctx.transport.request({
    method: 'POST',
    path,
    auth: true,
    timeoutMs: ctx.timeoutMs,
    accept: 'application/json',
  });
  // 204, or an empty 200/202: the snapshot was taken and nothing reported.
  if (response.text.trim() === '' && !/html/i.test(response.headers.get('content-type') ?? '')) return {};
  const body = parseJsonBody(call, response);
  if (Array.isArray(body)) {
    return validateBody(call, response, z.object({ results: keywordRecordsSchema }), { results: body });
  }
  if (!isObject(body)) {
    return fail(
      call,
      response,
      '(body)',
      `expected a JSON object or an array of keyword records; got ${jsonKind(body)}`,
    );
  }
  return validateBody(call, response, snapshotResultSchema, body);
}
