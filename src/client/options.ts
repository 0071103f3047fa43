/**
 * The options of `createClient`: one strict zod schema (types are derived from it), the defaults in one
 * place, and messages that name the option and the fix. Everything here runs before any request.
 */
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { cleartextRefusal } from './cleartext.js';
import { describeUnparsedUrl, describeValue } from './redact.js';

export interface ClientLogger {
  debug?(message: string): void;
  warn?(message: string): void;
}

const isFunction = (value: unknown) => typeof value === 'function';

const positiveMs = z.number().int().positive().max(2_147_483_647);

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
  baseUrl: z.string().superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http(s) URL (got ${describeUnparsedUrl(value)})` });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: `must use http or https (got ${JSON.stringify(url.protocol)})` });
    } else if (url.username || url.password) {
      // Never echo the credentials themselves.
      ctx.addIssue({ code: 'custom', message: `must not contain credentials (got "${url.protocol}//***@${url.host}"); pass the API key as \`apiKey\` instead` });
    } else if (url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `must not have a query string or fragment (got "${url.origin}${url.pathname}?...")` });
    }
  }),
  /**
   * The API token (starts with `btb_`). Needed by every method except `sitemap()` and `rss()`; when it is
   * missing, the first authenticated call throws `MissingApiKeyError`.
   */
  apiKey: z
    .string()
    .refine((value) => value.startsWith('btb_'), { message: 'must start with btb_ (the value is not shown)' })
    .refine((value) => !/\s/.test(value), { message: 'must not contain whitespace (the value is not shown)' })
    .optional(),
  /** Timeout of one attempt of a request, in milliseconds (headers and body). @default 30000 */
  timeoutMs: positiveMs.default(30_000),
  /** Timeout of `generate()`, which runs 60 to 120 s on the service. @default 180000 */
  generateTimeoutMs: positiveMs.default(180_000),
  /** Retries of a GET after a 5xx or a network failure (capped exponential backoff, full jitter). @default 2 */
  retries: z.number().int().min(0).max(10).default(2),
  /** Longest `Retry-After` wait honoured on a 429 before retrying a GET once; longer waits throw at once. `0`: a 429 is never retried (not even with `Retry-After: 0`). @default 10000 */
  maxRetryAfterMs: z.number().int().min(0).max(3_600_000).default(10_000),
  /**
   * Largest JSON response body accepted, in bytes. A bigger answer is refused with a ResponseFormatError
   * (not retried) and its download is stopped, so a huge or endless body cannot exhaust memory.
   * @default 20971520 (20 MiB)
   */
  maxResponseBytes: z.number().int().min(1024).max(2_147_483_647).default(CLIENT_DEFAULTS.maxResponseBytes),
  /**
   * Largest public feed body (`sitemap()`, `rss()`) accepted, in bytes; the sitemap protocol allows 50 MB.
   * @default 52428800 (50 MiB)
   */
  maxFeedBytes: z.number().int().min(1024).max(2_147_483_647).default(CLIENT_DEFAULTS.maxFeedBytes),
  /** Maximum number of requests in flight from this client. @default 4 */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** The fetch implementation. @default globalThis.fetch */
  fetch: z.custom<typeof globalThis.fetch>(isFunction).optional(),
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
    )
    .optional(),
  /** The User-Agent header. @default "astro-content-publisher" */
  userAgent: z.string().min(1).optional(),
  /** Aborts every request of this client (for example on shutdown). */
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal).optional(),
  /**
   * Accept a plain `http://` baseUrl to a host other than this machine although an `apiKey` is set (the key
   * then travels in cleartext): only for a trusted private network. Loopback (localhost, 127.x, ::1) is
   * always accepted.
   * @default false
   */
  allowInsecureHttp: z.boolean().default(false),
});

export type ClientOptions = z.input<typeof clientOptionsSchema>;
export type ResolvedClientOptions = z.output<typeof clientOptionsSchema> & { fetch: typeof globalThis.fetch };

const EXPECTED: Record<string, string> = {
  baseUrl: 'must be an absolute http(s) URL',
  apiKey: 'must be a string starting with btb_ (the value is not shown)',
  timeoutMs: 'must be a positive integer number of milliseconds',
  generateTimeoutMs: 'must be a positive integer number of milliseconds',
  retries: 'must be an integer from 0 to 10',
  maxRetryAfterMs: 'must be an integer number of milliseconds from 0 to 3600000',
  concurrency: 'must be an integer from 1 to 64',
  maxResponseBytes: 'must be an integer number of bytes from 1024 to 2147483647',
  maxFeedBytes: 'must be an integer number of bytes from 1024 to 2147483647',
  fetch: 'must be a fetch function',
  logger: 'must be an object with optional debug(message) and warn(message) functions',
  userAgent: 'must be a non-empty string',
  signal: 'must be an AbortSignal',
  allowInsecureHttp: 'must be true or false',
};

const FIX: Record<string, string> = {
  baseUrl: 'Pass createClient({ baseUrl: "https://..." }) with the service address (without /api/v1), or set PUBLISHER_BASE_URL.',
  apiKey: 'Copy the token created in the dashboard at /account/api-keys into createClient({ apiKey }) or PUBLISHER_API_KEY.',
};

const KNOWN = Object.keys(clientOptionsSchema.shape);

function issueToError(issue: z.core.$ZodIssue, input: Record<string, unknown>): ConfigError {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `\`${key}\``).join(', ');
    return new ConfigError({
      option: issue.keys[0] ?? '',
      message: `[astro-content-publisher] Unknown option ${keys} for createClient(). Known options: ${KNOWN.join(', ')}.`,
      hint: `Remove ${keys} or check its spelling.`,
    });
  }
  const option = String(issue.path[0] ?? '');
  const value = input[option];
  const fix = FIX[option] ?? `Fix \`${option}\` in createClient({ ${option} }).`;
  let problem: string;
  if (value === undefined) problem = 'is required';
  else if (issue.code === 'custom' && issue.message) problem = issue.message;
  else if (option === 'apiKey') problem = EXPECTED.apiKey ?? 'is invalid';
  else problem = `${EXPECTED[option] ?? 'is invalid'} (got ${describeValue(value)})`;
  return new ConfigError({ option, message: `[astro-content-publisher] \`${option}\` ${problem}. ${fix}`, hint: fix });
}

/** Validates and completes the options; throws ConfigError naming the first bad option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError({
      option: 'options',
      message: '[astro-content-publisher] createClient() needs an options object, like createClient({ baseUrl, apiKey }).',
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
    const first = result.error.issues[0];
    throw first ? issueToError(first, input) : new ConfigError({ option: '', message: '[astro-content-publisher] Invalid client options.', hint: '' });
  }
  const cleartext = result.data.apiKey === undefined ? undefined : cleartextRefusal(result.data.baseUrl, result.data.allowInsecureHttp);
  if (cleartext) {
    const fix = 'Use https, or pass createClient({ allowInsecureHttp: true }) on a trusted private network.';
    throw new ConfigError({ option: 'baseUrl', message: `[astro-content-publisher] \`baseUrl\` ${cleartext}. ${fix}`, hint: fix });
  }
  const fetchImpl = result.data.fetch ?? globalThis.fetch;
  return { ...result.data, fetch: fetchImpl };
}
