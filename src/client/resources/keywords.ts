/** GET /api/v1/sites/<id>/keywords/ and POST /api/v1/sites/<id>/keywords/snapshot/. */
import { z } from 'zod';
import { getJson, postJson, type ResourceContext } from '../request-json.js';
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

/** `{ results: [...] }` like the other lists, or a bare array: the document leaves it open. */
export const keywordListSchema = z.union([
  z.array(keywordRecordSchema),
  z.looseObject({ results: z.array(keywordRecordSchema) }),
]);

export const snapshotResultSchema = z.looseObject({
  /** How many records moved. */
  updated: z.number().optional(),
  results: z.array(keywordRecordSchema).optional(),
});

export type KeywordRecord = z.output<typeof keywordRecordSchema>;
export type SnapshotResult = z.output<typeof snapshotResultSchema>;

export async function keywords(ctx: ResourceContext, siteId: number): Promise<KeywordRecord[]> {
  assertSiteId(siteId, { method: 'GET', path: '/api/v1/sites/<id>/keywords/' });
  const body = await getJson(ctx, `/api/v1/sites/${siteId}/keywords/`, keywordListSchema);
  return Array.isArray(body) ? body : body.results;
}

export async function snapshot(ctx: ResourceContext, siteId: number): Promise<SnapshotResult> {
  assertSiteId(siteId, { method: 'POST', path: '/api/v1/sites/<id>/keywords/snapshot/' });
  // The document says the call has no body.
  return postJson(ctx, `/api/v1/sites/${siteId}/keywords/snapshot/`, undefined, snapshotResultSchema);
}
