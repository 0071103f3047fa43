/** GET/POST a JSON endpoint of /api/v1 and validate the answer: the shared path of every JSON resource. */
import type { z } from 'zod';
import { parseJsonResponse } from './parse-response.js';
import type { Transport } from './transport.js';

export interface ResourceContext {
  transport: Transport;
  timeoutMs: number;
  generateTimeoutMs: number;
}

export async function getJson<S extends z.ZodType>(
  ctx: ResourceContext,
  path: string,
  schema: S,
  query?: Record<string, string | number | undefined>,
): Promise<z.output<S>> {
  const response = await ctx.transport.request({
    method: 'GET',
    path,
    query,
    auth: true,
    timeoutMs: ctx.timeoutMs,
    accept: 'application/json',
  });
  return parseJsonResponse({ method: 'GET', path }, response, schema);
}

export async function postJson<S extends z.ZodType>(
  ctx: ResourceContext,
  path: string,
  body: unknown,
  schema: S,
  timeoutOption: 'timeoutMs' | 'generateTimeoutMs' = 'timeoutMs',
  inDoubtHint?: string,
): Promise<z.output<S>> {
  const timeoutMs = timeoutOption === 'generateTimeoutMs' ? ctx.generateTimeoutMs : ctx.timeoutMs;
  const response = await ctx.transport.request({
    method: 'POST',
    path,
    body,
    auth: true,
    timeoutMs,
    timeoutOption,
    accept: 'application/json',
    ...(inDoubtHint !== undefined && { inDoubtHint }),
  });
  return parseJsonResponse({ method: 'POST', path }, response, schema);
}
