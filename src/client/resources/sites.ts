/** GET /api/v1/sites/: the caller's active sites. */
import { z } from 'zod';
import { getJson, type ResourceContext } from '../request-json.js';

export const siteSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  /** Attached to a remote CMS (the real field name carries a CMS product name; other fields are kept). */
  is_cms: z.boolean().optional(),
});

export const sitesResponseSchema = z.looseObject({ results: z.array(siteSchema) });

export type Site = z.output<typeof siteSchema>;

export async function sites(ctx: ResourceContext): Promise<Site[]> {
  const body = await getJson(ctx, '/api/v1/sites/', sitesResponseSchema);
  return body.results;
}
