import { createClient, type Client } from '../client/index.js';
import type { LoaderContext } from 'astro/loaders';
import { listRetries } from './budget.js';

export interface LoaderClients {
  /** The list call (retries within the budget) and the public feeds. */
  list: Client;
  /** Detail calls: exactly one request each, so the plan's count is the count sent. */
  detail: Client;
  requests(): number;
  remaining(): number | undefined;
}

/**
 * Two clients over the same key: the list call may retry (membership matters most) as long as the retries
 * fit in the budget; a detail call never retries nor waits on a 429, because every request it sends was
 * counted by the plan beforehand. A failed detail keeps the previous version and is tried again next build.
 */
export function createLoaderClients(options: { baseUrl: string; apiKey: string; maxRequests: number }, logger: LoaderContext['logger']): LoaderClients {
  const retries = listRetries(options.maxRequests);
  // A 429 retry is one more request: allow it only when it still fits.
  const rateLimitRetry = options.maxRequests - 1 - retries >= 1;
  const clientLogger = { debug: (m: string) => logger.debug(m), warn: (m: string) => logger.info(m) };
  const base = { baseUrl: options.baseUrl, apiKey: options.apiKey, logger: clientLogger, userAgent: 'astro-content-publisher (articlesLoader)' };
  const list = createClient({ ...base, retries, ...(rateLimitRetry ? {} : { maxRetryAfterMs: 0 }) });
  const detail = createClient({ ...base, retries: 0, maxRetryAfterMs: 0 });
  return {
    list,
    detail,
    requests: () => list.requestCount + detail.requestCount,
    // Details run concurrently, so the last header seen is not always the lowest: the window only shrinks.
    remaining: () => {
      const seen = [list.rateLimit?.remaining, detail.rateLimit?.remaining].filter((n): n is number => n !== undefined);
      return seen.length ? Math.min(...seen) : undefined;
    },
  };
}
