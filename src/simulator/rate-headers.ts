import type { HandlerContext } from './context.js';

/**
 * The rate-limit headers in the forms the `rateLimitReset` and `retryAfter` variants pick. One place for the
 * limiter's own answers (auth.ts) and for faulted 429s (server.ts): a client must meet the same forms from both.
 */

/** `X-RateLimit-*` for a window that resets at `resetSeconds` (epoch seconds). */
export function rateHeaders(
  decision: { limit: number; remaining: number; reset: number },
  ctx: Pick<HandlerContext, 'options' | 'now'>,
): Record<string, string> {
  const headers = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
  };
  const form = ctx.options.variants.rateLimitReset;
  if (form === 'absent') return headers;
  const reset =
    form === 'delta'
      ? String(Math.max(0, decision.reset - Math.floor(ctx.now() / 1000)))
      : form === 'epoch-ms'
        ? String(decision.reset * 1000)
        : form === 'http-date'
          ? new Date(decision.reset * 1000).toUTCString()
          : String(decision.reset);
  return { ...headers, 'x-ratelimit-reset': reset };
}

/**
 * `Retry-After` of a 429 under the `retryAfter` variant: the seconds to wait, `0`, or an HTTP date one second in
 * the past (some servers round down: the client must then read the window's reset).
 */
export function retryAfterValue(seconds: number, ctx: Pick<HandlerContext, 'options' | 'now'>): string {
  const variant = ctx.options.variants.retryAfter;
  if (variant === 'zero') return '0';
  if (variant === 'http-date') return new Date(Math.floor(ctx.now() / 1000) * 1000 - 1000).toUTCString();
  return String(seconds);
}
