/**
 * The HTTP layer: builds the URL, adds the Authorization header (only under /api/v1), applies the
 * per-attempt timeout, caps concurrency, records rate-limit headers and the request count, maps failures
 * to error classes and retries according to `retry-timing.ts`. It returns raw responses; validation of
 * bodies lives in `parse-response.ts`.
 */
import { errorForStatus, type HintOverrides, statusText } from './error-map.js';
import { MissingApiKeyError, NetworkError, type PublisherError, ResponseFormatError, TimeoutError } from './errors.js';
import { createLimiter } from './limiter.js';
import type { ClientLogger, ResolvedClientOptions } from './options.js';
import { fetchSameOrigin, RedirectRefusedError } from './public-feed.js';
import { readBodyCapped } from './read-body.js';
import { apiMessageOf, causeText, neverSent } from './request-failure.js';
import { readRateLimit, readReset, type RateLimitState } from './rate-limit.js';
import { createRedactor, type Redactor } from '../options/redact.js';
import { decideRetry, type Failure, parseRetryAfter } from './retry-timing.js';
import { withPrefix } from '../options/prefix.js';

export interface TransportRequest {
  method: 'GET' | 'POST';
  /** API path from the base URL, like `/api/v1/sites/12/articles/`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body (POST). */
  body?: unknown;
  /** Sends the key. Only the /api/v1 endpoints are authenticated; the public feeds must not get it. */
  auth: boolean;
  timeoutMs: number;
  /** The option that set `timeoutMs`, named in the TimeoutError's hint. @default 'timeoutMs' */
  timeoutOption?: 'timeoutMs' | 'generateTimeoutMs';
  accept: string;
  headers?: Record<string, string>;
  /** Non-2xx statuses that are answers rather than errors (304 on a conditional feed request). */
  okStatuses?: readonly number[];
  /** The option that caps this body's size. @default 'maxResponseBytes' */
  sizeOption?: 'maxResponseBytes' | 'maxFeedBytes';
  /**
   * For a call that changes something (generate): what to do when it got no complete answer or a 5xx, since
   * the service may have done it anyway. Replaces the "retry" advice of a timeout, a broken connection or a 5xx.
   */
  inDoubtHint?: string;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  /** The full URL requested (it never holds the key). */
  url: string;
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  readonly rateLimit: RateLimitState | undefined;
  readonly requestCount: number;
  readonly redact: Redactor;
  /** A warning through the client's logger (redacted, prefixed). */
  warn(message: string): void;
}

const DEFAULT_USER_AGENT = 'astro-content-publisher';

type Attempt = { ok: true; response: TransportResponse } | { ok: false; error: PublisherError; failure: Failure };

/** Waits, unless the client's signal aborts first (then rejects with its reason, like fetch does). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createTransport(options: ResolvedClientOptions, hints: HintOverrides = {}): Transport {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const limiter = createLimiter(options.concurrency);
  const redact = createRedactor(options.apiKey);
  // Called unbound: a browser-style fetch throws "Illegal invocation" when called as a method of another object.
  const fetchImpl = options.fetch;
  let rateLimit: RateLimitState | undefined;
  let requestCount = 0;

  const log = (level: keyof ClientLogger, message: string) => {
    const fn = options.logger?.[level];
    if (!fn) return;
    try {
      fn.call(options.logger, redact(withPrefix(message)));
    } catch {
      // A failing logger must not fail the request.
    }
  };

  const buildUrl = (request: TransportRequest): string => {
    const url = new URL(`${base.origin}${basePath}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  };

  async function attempt(request: TransportRequest, url: string): Promise<Attempt> {
    const { method, path } = request;
    const headers: Record<string, string> = {
      accept: request.accept,
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      ...request.headers,
    };
    if (request.auth) headers.authorization = `Bearer ${options.apiKey}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const started = performance.now();
    if (request.auth) requestCount++;

    const sizeOption = request.sizeOption ?? 'maxResponseBytes';
    const maxBytes = options[sizeOption];
    let response: Response;
    let text: string;
    let oversize: { bytesSeen: number; declared: boolean } | undefined;
    let headersCame = false;
    try {
      ({ response } = await fetchSameOrigin(fetchImpl, url, { method, headers, body, signal }));
      headersCame = true;
      // Read the body under the same signal: a stalled body is a timeout, a cut body a network failure.
      const read = await readBodyCapped(response, maxBytes);
      if (read.ok) text = read.text;
      else {
        text = '';
        oversize = read;
      }
    } catch (error) {
      if (error instanceof RedirectRefusedError) {
        // Not retried: the answer would be the same, and the key must not follow a redirect to another host.
        const hint = 'Point `baseUrl` at the service itself (the address it redirects to, if that is the service).';
        log('debug', `${method} ${path} -> ${error.message}`);
        return {
          ok: false,
          failure: { kind: 'redirect' },
          error: new ResponseFormatError({
            method,
            path,
            endpoint: `${method} ${path}`,
            fieldPath: '(status)',
            hint,
            message: `[${method}] ${path}: unexpected response: ${error.message} ${hint}`,
          }),
        };
      }
      if (timeout.aborted) {
        const raise = `raise \`${request.timeoutOption ?? 'timeoutMs'}\` (now ${request.timeoutMs} ms)`;
        const hint = request.inDoubtHint
          ? `${request.inDoubtHint} If the service needs longer, ${raise}.`
          : `Retry later, or ${raise}.`;
        const message = `[${method}] ${path}: no complete response within ${request.timeoutMs} ms. ${hint}`;
        log('debug', `${method} ${path} -> timeout after ${request.timeoutMs} ms`);
        return {
          ok: false,
          failure: { kind: 'timeout' },
          error: new TimeoutError({ method, path, message, hint, timeoutMs: request.timeoutMs }),
        };
      }
      if (options.signal?.aborted) throw options.signal.reason;
      const detail = redact(causeText(error));
      const hint =
        request.inDoubtHint && !neverSent(error)
          ? request.inDoubtHint
          : `Check that the service at ${base.origin} is reachable (baseUrl), then retry.`;
      log('debug', `${method} ${path} -> network error: ${detail}`);
      return {
        ok: false,
        failure: { kind: 'network' },
        error: new NetworkError({
          method,
          path,
          message: `[${method}] ${path}: network error: ${detail}. ${hint}`,
          hint,
          cause: error,
          answered: headersCame,
        }),
      };
    }

    if (request.auth) {
      const state = readRateLimit(response.headers);
      if (state) rateLimit = state;
    }
    const elapsed = Math.round(performance.now() - started);
    const limitNote = request.auth && rateLimit ? ` (rate limit ${rateLimit.remaining}/${rateLimit.limit} left)` : '';
    log('debug', `${method} ${path} -> ${response.status} in ${elapsed} ms${limitNote}`);

    const result: TransportResponse = {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      text,
      url,
    };
    const answered = response.ok || request.okStatuses?.includes(response.status) === true;
    if (oversize && answered) {
      const size = oversize.declared
        ? `${oversize.bytesSeen} bytes (Content-Length)`
        : `over ${maxBytes} bytes (download stopped)`;
      const hint = `Check that \`baseUrl\` points at the service itself; if this answer really is that big, raise \`${sizeOption}\` (now ${maxBytes}).`;
      log('debug', `${method} ${path} -> ${response.status}, body ${size}: refused`);
      return {
        ok: false,
        failure: { kind: 'too-large' },
        error: new ResponseFormatError({
          method,
          path,
          status: response.status,
          endpoint: `${method} ${path}`,
          fieldPath: '(body)',
          hint,
          message: `[${method}] ${path}: ${response.status} ${statusText(response.status, response.statusText)}: unexpected response: the body is ${size}, over the ${maxBytes}-byte cap of \`${sizeOption}\`. ${hint}`,
        }),
      };
    }
    if (answered) return { ok: true, response: result };

    let retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    // `Retry-After: 0` or a past date says "now", which the window contradicts: its reset says when.
    if (retryAfterMs === 0) {
      const reset = readReset(response.headers);
      if (reset !== undefined) retryAfterMs = Math.max(0, reset * 1000 - Date.now());
    }
    const error = errorForStatus(
      {
        method,
        path,
        status: response.status,
        statusText: response.statusText,
        apiMessage: redact(apiMessageOf(text) ?? '') || undefined,
        retryAfter: retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000)),
      },
      request.inDoubtHint ? { ...hints, inDoubt: request.inDoubtHint } : hints,
    );
    return { ok: false, error, failure: { kind: 'status', status: response.status, retryAfterMs } };
  }

  async function request(request: TransportRequest): Promise<TransportResponse> {
    const { method, path } = request;
    if (request.auth && !options.apiKey) {
      const hint =
        'Pass createClient({ apiKey }) (create a token in the dashboard at /account/api-keys; it starts with btb_).';
      throw new MissingApiKeyError({
        option: 'apiKey',
        method,
        path,
        message: `\`apiKey\` is missing: ${method} ${path} needs an API key. ${hint}`,
        hint,
      });
    }
    const url = buildUrl(request);
    let backoffRetriesDone = 0;
    let rateLimitRetried = false;
    for (;;) {
      const outcome = await limiter.run(() => attempt(request, url));
      if (outcome.ok) return outcome.response;
      const decision = decideRetry({
        method,
        failure: outcome.failure,
        backoffRetriesDone,
        rateLimitRetried,
        retries: options.retries,
        maxRetryAfterMs: options.maxRetryAfterMs,
      });
      if (!decision.retry) {
        log('debug', `${method} ${path}: not retried (${decision.reason})`);
        throw outcome.error;
      }
      if (decision.kind === 'rate-limit') {
        rateLimitRetried = true;
        log('warn', `${method} ${path} -> 429; waiting ${decision.delayMs} ms (Retry-After) and retrying once`);
      } else {
        backoffRetriesDone++;
        log(
          'warn',
          `${method} ${path} -> ${outcome.error.code}; retry ${backoffRetriesDone} of ${options.retries} in ${decision.delayMs} ms`,
        );
      }
      await sleep(decision.delayMs, options.signal);
    }
  }

  return {
    request,
    get rateLimit() {
      return rateLimit ? { ...rateLimit } : undefined;
    },
    get requestCount() {
      return requestCount;
    },
    redact,
    warn: (message: string) => log('warn', message),
  };
}
