import type { Client, RateLimitState } from '../../client/index.js';
import { createClientWithHints } from '../../client/client.js';
import type { LoaderContext } from 'astro/loaders';
import { listRetries } from './budget.js';
import { withoutPrefix } from '../../options/prefix.js';

export interface LoaderClients {
  /** The list call (retries within the budget) and the public feeds; both clients use the loader's `timeoutMs`. */
  list: Client;
  /** Detail calls: exactly one request each, so the plan's count is the count sent. */
  detail: Client;
  requests(): number;
  remaining(): number | undefined;
  /** The rate-limit state with the lowest remaining count seen by either client. */
  rateLimit(): RateLimitState | undefined;
}

/**
 * The loaders' advice on a refused key (401): they take it from their `apiKey` option or PUBLISHER_API_KEY,
 * where the client's own advice names createClient().
 */
export const LOADER_HINTS = {
  401: 'The API key is not valid (unknown or revoked): create one in the dashboard at /account/api-keys (it starts with btb_) and set it as PUBLISHER_API_KEY or the `apiKey` option.',
} as const;

/** Detail calls in flight at once (the detail client's concurrency, and the width of sync-apply's gate). */
export const DETAIL_CONCURRENCY = 4;

/**
 * Two clients over the same key: the list call may retry (membership matters most) as long as the retries
 * fit in the budget; a detail call never retries nor waits on a 429, because every request it sends was
 * counted by the plan beforehand. A failed detail keeps the previous version and is tried again next build.
 */
export function createLoaderClients(
  options: { baseUrl: string; apiKey: string; maxRequests: number; timeoutMs: number; allowInsecureHttp?: boolean },
  logger: LoaderContext['logger'],
): LoaderClients {
  const retries = listRetries(options.maxRequests);
  // A 429 retry is one more request: allow it only when it still fits.
  const rateLimitRetry = options.maxRequests - 1 - retries >= 1;
  // The client prefixes its lines with the package's name; Astro's logger already labels them with the loader's.
  const clientLogger = {
    debug: (m: string) => logger.debug(withoutPrefix(m)),
    warn: (m: string) => logger.info(withoutPrefix(m)),
  };
  const base = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    allowInsecureHttp: options.allowInsecureHttp ?? false,
    logger: clientLogger,
    userAgent: 'astro-content-publisher (articlesLoader)',
  };
  const list = createClientWithHints(
    { ...base, retries, ...(rateLimitRetry ? {} : { maxRetryAfterMs: 0 }) },
    LOADER_HINTS,
  );
  const detail = createClientWithHints(
    { ...base, retries: 0, maxRetryAfterMs: 0, concurrency: DETAIL_CONCURRENCY },
    LOADER_HINTS,
  );
  // Details run concurrently, so the last header seen is not always the lowest: the window only shrinks.
  const rateLimit = () =>
    [list.rateLimit, detail.rateLimit]
      .filter((r): r is RateLimitState => r !== undefined)
      .reduce<RateLimitState | undefined>(
        (low, r) => (low === undefined || r.remaining < low.remaining ? r : low),
        undefined,
      );
  return {
    list,
    detail,
    requests: () => list.requestCount + detail.requestCount,
    remaining: () => rateLimit()?.remaining,
    rateLimit,
  };
}
