import { findUserByToken, PLANS, rateLimitFor, TOKEN_FORMAT, type UserDefinition } from './accounts.js';
import type { HandlerContext } from './context.js';
import { errorResponse, type SimRequest, type SimResponse } from './http.js';
import { rateHeaders, retryAfterValue } from './rate-headers.js';

/**
 * Authentication and rate limiting of /api/v1/ requests, in the order the service applies them:
 * 401 (no or malformed or unknown token), 403 (plan without API access), 429 (window full).
 * Messages never repeat the token.
 */
export type GateResult =
  { ok: true; user: UserDefinition; headers: Record<string, string> } | { ok: false; response: SimResponse };

export function authenticate(req: SimRequest, ctx: HandlerContext): GateResult {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') {
    return {
      ok: false,
      response: errorResponse(
        401,
        'Authentication credentials were not provided. Send `Authorization: Bearer <API_KEY>`.',
      ),
    };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (!token || !TOKEN_FORMAT.test(token)) {
    return {
      ok: false,
      response: errorResponse(
        401,
        'Invalid Authorization header: expected `Bearer <API_KEY>` with a key starting with btb_.',
      ),
    };
  }
  const user = findUserByToken(token, ctx.options.extraProTokens);
  if (!user)
    return {
      ok: false,
      response: errorResponse(401, 'Invalid token: it is unknown or was revoked. Create a token at /account/api-keys.'),
    };
  if (!PLANS[user.plan].apiAccess) {
    return {
      ok: false,
      response: errorResponse(403, `The ${user.plan} plan has no API access. Move to Pro or higher.`),
    };
  }
  const limit = rateLimitFor(user, ctx.options.rateLimits, ctx.options.rateLimitOverride);
  const decision = ctx.limiter.take(user.username, limit, ctx.now());
  const headers = rateHeaders(decision, ctx);
  if (!decision.allowed) {
    const retryAfter = String(decision.retryAfter ?? 1);
    return {
      ok: false,
      response: errorResponse(429, `Rate limit of ${limit} requests per hour exceeded. Retry in ${retryAfter} s.`, {
        ...headers,
        'retry-after': retryAfterValue(decision.retryAfter ?? 1, ctx),
      }),
    };
  }
  return { ok: true, user, headers };
}
