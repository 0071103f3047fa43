/**
 * The documented type of `createClient(options)`: what an editor shows on hover. Proven equal to the
 * schema's input in ./options.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { Documents, Proof } from '../options/documented.js';
import type { ClientLogger, clientOptionsSchema } from './options.js';

/** The options of `createClient(options)`. */
export interface ClientOptions {
  /**
   * The service's address, without `/api/v1` (a path prefix is kept; a trailing slash is ignored).
   * http(s) only, no credentials, no query string.
   * @required
   */
  baseUrl: string;
  /**
   * The API token (starts with `btb_`). Needed by every method except `sitemap()` and `rss()`; when it is
   * missing, the first authenticated call throws `MissingApiKeyError`.
   * @default undefined (public feeds only)
   */
  apiKey?: string | undefined;
  /**
   * Timeout of one attempt of a request, in milliseconds (headers and body), 1 to 2147483647.
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Timeout of `generate()`, which runs 60 to 120 s on the service, in milliseconds.
   * @default 180000
   */
  generateTimeoutMs?: number | undefined;
  /**
   * Retries of a GET after a 5xx or a network failure (capped exponential backoff, full jitter), 0 to 10.
   * @default 2
   */
  retries?: number | undefined;
  /**
   * Longest `Retry-After` wait honoured on a 429 before retrying a GET once, in milliseconds (0 to
   * 3600000); longer waits throw at once. `0`: a 429 is never retried (not even with `Retry-After: 0`).
   * @default 10000
   */
  maxRetryAfterMs?: number | undefined;
  /**
   * Largest JSON response body accepted, in bytes. A bigger answer is refused with a ResponseFormatError
   * (not retried) and its download is stopped, so a huge or endless body cannot exhaust memory.
   * @default 20971520 (20 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Largest public feed body (`sitemap()`, `rss()`) accepted, in bytes; the sitemap protocol allows 50 MB.
   * @default 52428800 (50 MiB)
   */
  maxFeedBytes?: number | undefined;
  /**
   * Maximum number of requests in flight from this client, 1 to 64.
   * @default 4
   */
  concurrency?: number | undefined;
  /**
   * The fetch implementation.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Receives one debug line per request and a warning per retry; never the key.
   * @default undefined (no logging)
   */
  logger?: ClientLogger | undefined;
  /**
   * The User-Agent header.
   * @default "astro-content-publisher"
   */
  userAgent?: string | undefined;
  /**
   * Aborts every request of this client (for example on shutdown).
   * @default undefined
   */
  signal?: AbortSignal | undefined;
  /**
   * Accept a plain `http://` baseUrl to a host other than this machine although an `apiKey` is set (the key
   * then travels in cleartext): only for a trusted private network. Loopback (localhost, 127.x, ::1) is
   * always accepted.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
}

export type ClientOptionsMatchSchema = Proof<Documents<ClientOptions, z.input<typeof clientOptionsSchema>>>;
