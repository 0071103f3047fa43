/**
 * The options of `createClient`: one strict zod schema (types are derived from it), the defaults in one
 * place, and messages that name the option and the fix. Everything here runs before any request.
 */
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { apiKeySchema, baseUrlSchema, durationMsSchema, integerSchema } from '../options/fields.js';
import { formatIssue } from '../options/issues.js';
import type { ClientOptions } from './options-docs.js';
import { cleartextRefusal } from './cleartext.js';

export interface ClientLogger {
  /**
   * Receives one line per request (method, path, status, duration).
   * @default undefined (not logged)
   */
  debug?(message: string): void;
  /**
   * Receives one line per retry and per ignored problem.
   * @default undefined (not logged)
   */
  warn?(message: string): void;
}

const isFunction = (value: unknown) => typeof value === 'function';

const positiveMs = durationMsSchema(1);

/** Body size caps: JSON answers are small (a 1000-article list is well under 1 MB); sitemaps may reach 50 MB. */
export const CLIENT_DEFAULTS = {
  maxResponseBytes: 20 * 1024 * 1024,
  maxFeedBytes: 50 * 1024 * 1024,
} as const satisfies Record<string, number>;

export const clientOptionsSchema = z.strictObject({
  /**
   * The service's address, without `/api/v1` (a path prefix is kept; a trailing slash is ignored).
   * http(s) only, no credentials, no query string.
   */
  baseUrl: baseUrlSchema(),
  /**
   * The API token (starts with `btb_`). Needed by every method except `sitemap()` and `rss()`; when it is
   * missing, the first authenticated call throws `MissingApiKeyError`.
   */
  apiKey: apiKeySchema().optional(),
  /** Timeout of one attempt of a request, in milliseconds (headers and body). @default 30000 */
  timeoutMs: positiveMs.default(30_000),
  /** Timeout of `generate()`, which runs 60 to 120 s on the service. @default 180000 */
  generateTimeoutMs: positiveMs.default(180_000),
  /** Retries of a GET after a 5xx or a network failure (capped exponential backoff, full jitter). @default 2 */
  retries: integerSchema(0, 10).default(2),
  /** Longest `Retry-After` wait honoured on a 429 before retrying a GET once; longer waits throw at once. `0`: a 429 is never retried (not even with `Retry-After: 0`). @default 10000 */
  maxRetryAfterMs: durationMsSchema(0, 3_600_000).default(10_000),
  /**
   * Largest JSON response body accepted, in bytes. A bigger answer is refused with a ResponseFormatError
   * (not retried) and its download is stopped, so a huge or endless body cannot exhaust memory.
   * @default 20971520 (20 MiB)
   */
  maxResponseBytes: integerSchema(1024, 2_147_483_647, 'bytes').default(CLIENT_DEFAULTS.maxResponseBytes),
  /**
   * Largest public feed body (`sitemap()`, `rss()`) accepted, in bytes; the sitemap protocol allows 50 MB.
   * @default 52428800 (50 MiB)
   */
  maxFeedBytes: integerSchema(1024, 2_147_483_647, 'bytes').default(CLIENT_DEFAULTS.maxFeedBytes),
  /** Maximum number of requests in flight from this client. @default 4 */
  concurrency: integerSchema(1, 64).default(4),
  /** The fetch implementation. @default globalThis.fetch */
  fetch: z.custom<typeof globalThis.fetch>(isFunction, { error: 'must be a fetch function' }).optional(),
  /** Receives one debug line per request and a warning per retry; never the key. @default no logging */
  logger: z
    .custom<ClientLogger>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        ['debug', 'warn'].every((name) => {
          const fn = (value as Record<string, unknown>)[name];
          return fn === undefined || isFunction(fn);
        }),
      { error: 'must be an object with optional debug(message) and warn(message) functions' },
    )
    .optional(),
  /** The User-Agent header. @default "astro-content-publisher" */
  userAgent: z
    .string({ error: 'must be a non-empty string' })
    .min(1, { error: 'must be a non-empty string' })
    .optional(),
  /** Aborts every request of this client (for example on shutdown). */
  signal: z
    .custom<AbortSignal>((value) => value instanceof AbortSignal, { error: 'must be an AbortSignal' })
    .optional(),
  /**
   * Accept a plain `http://` baseUrl to a host other than this machine although an `apiKey` is set (the key
   * then travels in cleartext): only for a trusted private network. Loopback (localhost, 127.x, ::1) is
   * always accepted.
   * @default false
   */
  allowInsecureHttp: z.boolean({ error: 'must be true or false' }).default(false),
});

/** What the user may pass to `createClient()`: a documented interface, proven equal to the schema's input. */
export type { ClientOptions } from './options-docs.js';
export type ResolvedClientOptions = z.output<typeof clientOptionsSchema> & { fetch: typeof globalThis.fetch };

const FIX: Record<string, string> = {
  baseUrl: 'Pass createClient({ baseUrl: "https://..." }) with the service address (without /api/v1).',
  apiKey: 'Copy the token created in the dashboard at /account/api-keys into createClient({ apiKey }).',
};

const CONTEXT = {
  call: 'createClient()',
  docs: 'client-options',
  fixes: FIX,
  known: Object.keys(clientOptionsSchema.shape),
};

/** Validates and completes the options; throws ConfigError naming the first bad option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError({
      option: 'options',
      message: 'createClient() needs an options object, like createClient({ baseUrl, apiKey }).',
      hint: 'Pass an options object.',
    });
  }
  const input: Record<string, unknown> = { ...options };
  // A key read from an env file often carries a newline, and an unset variable is often "": both are "no key".
  if (typeof input.apiKey === 'string') {
    const trimmed = input.apiKey.trim();
    input.apiKey = trimmed === '' ? undefined : trimmed;
  }
  const result = clientOptionsSchema.safeParse(input);
  if (!result.success) {
    const problem = formatIssue(result.error.issues[0]!, input, CONTEXT);
    // A program may print only the message: it carries the fix too.
    throw new ConfigError({ ...problem, message: `${problem.message} ${problem.hint}` });
  }
  const cleartext =
    result.data.apiKey === undefined ? undefined : cleartextRefusal(result.data.baseUrl, result.data.allowInsecureHttp);
  if (cleartext) {
    const fix = 'Use https, or pass createClient({ allowInsecureHttp: true }) on a trusted private network.';
    throw new ConfigError({ option: 'baseUrl', message: `\`baseUrl\` ${cleartext}. ${fix}`, hint: fix });
  }
  const fetchImpl = result.data.fetch ?? globalThis.fetch;
  return { ...result.data, fetch: fetchImpl };
}
