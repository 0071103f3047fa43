/** GET /api/v1/sites/<id>/digest/weekly/: the weekly digest (shape not given by the document). */
import { z } from 'zod';
import { getJson, type ResourceContext } from '../request-json.js';
import { assertSiteId } from '../validate-input.js';

/** Topics named by the document; their shapes are not, so they are read loosely and kept as sent. */
export const digestSchema = z.looseObject({
  week: z.string().optional(),
  publications: z.unknown(),
  average_audit_score: z.number().nullish(),
  position_movements: z.array(z.unknown()).optional(),
  alerts: z.array(z.unknown()).optional(),
});

export type Digest = z.output<typeof digestSchema>;

export async function digest(ctx: ResourceContext, siteId: number): Promise<Digest> {
  assertSiteId(siteId, { method: 'GET', path: '/api/v1/sites/<id>/digest/weekly/' });
  return getJson(ctx, `/api/v1/sites/${siteId}/digest/weekly/`, digestSchema);
}
