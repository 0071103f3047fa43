/** GET /api/v1/sites/<id>/digest/weekly/: the weekly digest (shape not given by the document). */
import { z } from 'zod';
import { getJson, type ResourceContext } from '../request-json.js';
import { assertSiteId } from '../validate-input.js';

/**
 * The document names the digest's topics (publications, average audit score, position movements, alerts)
 * but neither its field names nor their shapes: every field is optional and typed `unknown`, all kept as sent.
 * The names below are the simulator's, read by the CLI when present.
 */
export const digestSchema = z.looseObject({
  week: z.unknown().optional(),
  publications: z.unknown().optional(),
  average_audit_score: z.unknown().optional(),
  position_movements: z.unknown().optional(),
  alerts: z.unknown().optional(),
});

export type Digest = z.output<typeof digestSchema>;

export async function digest(ctx: ResourceContext, siteId: number): Promise<Digest> {
  assertSiteId(siteId, { method: 'GET', path: '/api/v1/sites/<id>/digest/weekly/' });
  return getJson(ctx, `/api/v1/sites/${siteId}/digest/weekly/`, digestSchema);
}
