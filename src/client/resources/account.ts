/** GET /api/v1/me/: the account behind the token. */
import { z } from 'zod';
import { getJson, type ResourceContext } from '../request-json.js';

export const usageSchema = z.looseObject({
  articles_this_month: z.number().int(),
  articles_per_month_limit: z.number().int(),
  /** `YYYY-MM` */
  month_key: z.string(),
});

export const accountSchema = z.looseObject({
  username: z.string(),
  email: z.string(),
  /** For example `pro` or `agence`; open-ended. */
  plan: z.string(),
  rate_limit_per_hour: z.number().int(),
  /** Present in one of the two descriptions of the API, absent in the other. */
  usage: usageSchema.optional(),
});

export type Usage = z.output<typeof usageSchema>;
export type Account = z.output<typeof accountSchema>;

export async function me(ctx: ResourceContext): Promise<Account> {
  return getJson(ctx, '/api/v1/me/', accountSchema);
}
