import { findUserByToken, rateLimitFor } from './accounts.js';
import type { HandlerContext } from './context.js';
import type { FaultSpec } from './faults.js';
import type { SimRequest, SimResponse } from './http.js';
import { rateHeaders, retryAfterValue } from './rate-headers.js';

/**
 * The rate-limit headers of a faulted answer. A faulted 429 stands for the service's own: its `Retry-After` takes
 * the `retryAfter` variant's form (a client tested with `Retry-After: 0` whatever the variant never meets the
 * others), and with `rateLimited` it carries the window headers too, in the `rateLimitReset` form. Headers the
 * fault names itself win.
 */
export function withFaultRateLimit(
  response: SimResponse,
  spec: FaultSpec,
  req: SimRequest,
  ctx: HandlerContext,
  authenticated: boolean,
): SimResponse {
  const named = new Set(Object.keys(spec.headers ?? {}).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = {};
  const limited = response.status === 429;
  const seconds = spec.retryAfter ?? (limited && spec.rateLimited ? 1 : undefined);
  if (seconds !== undefined) headers['retry-after'] = limited ? retryAfterValue(seconds, ctx) : String(seconds);
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const user = token === undefined ? undefined : findUserByToken(token, ctx.options.extraProTokens);
  if (limited && spec.rateLimited && authenticated && user) {
    const limit = rateLimitFor(user, ctx.options.rateLimits, ctx.options.rateLimitOverride);
    const reset = Math.ceil(ctx.now() / 1000) + (seconds ?? 1);
    Object.assign(headers, rateHeaders({ limit, remaining: 0, reset }, ctx));
  }
  for (const name of named) delete headers[name];
  return { ...response, headers: { ...response.headers, ...headers } };
}
