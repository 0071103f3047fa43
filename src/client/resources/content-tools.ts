/** POST /api/v1/audit/ and POST /api/v1/brief/: content tools that need no site. */
import { z } from 'zod';
import { postJson, type ResourceContext } from '../request-json.js';
import { assertBody } from '../validate-input.js';

export interface AuditBody {
  title?: string;
  excerpt?: string;
  /** HTML body. */
  content?: string;
  keyword?: string;
  language?: string;
  [extra: string]: unknown;
}

export const auditResultSchema = z.looseObject({
  /** Out of 100. */
  score: z.number(),
  /** The document does not give the shape of one suggestion (today `{ type, message }`). */
  suggestions: z.array(z.unknown()),
  cache_hit: z.boolean().optional(),
});

export type AuditResult = z.output<typeof auditResultSchema>;

export interface BriefBody {
  keyword?: string;
  language?: string;
  [extra: string]: unknown;
}

/** The document names these fields without their element shapes: typed as unknown, kept as sent. */
export const briefResultSchema = z.looseObject({
  intent: z.unknown(),
  outline: z.array(z.unknown()),
  entities: z.array(z.unknown()),
  faq: z.array(z.unknown()),
  eeat_signals: z.array(z.unknown()),
});

export type BriefResult = z.output<typeof briefResultSchema>;

export async function audit(ctx: ResourceContext, body: AuditBody): Promise<AuditResult> {
  assertBody(body, { method: 'POST', path: '/api/v1/audit/' }, false);
  return postJson(ctx, '/api/v1/audit/', body, auditResultSchema);
}

export async function brief(ctx: ResourceContext, body: BriefBody): Promise<BriefResult> {
  assertBody(body, { method: 'POST', path: '/api/v1/brief/' }, false);
  return postJson(ctx, '/api/v1/brief/', body, briefResultSchema);
}
