/**
 * The client's error family: one base class carrying what failed (method, path, status, the service's
 * own message) and what to do (`hint`), and one class per case so callers can branch with `instanceof`.
 * Every text field goes through redaction on construction, so no code path can leak the key through an error.
 */
import { redactText } from '../options/redact.js';

export type PublisherErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'quota_exhausted'
  | 'not_found'
  | 'rate_limited'
  | 'cms_unavailable'
  | 'server_error'
  | 'bad_request'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'invalid_option';

export interface PublisherErrorInit {
  message: string;
  hint: string;
  method: string;
  path: string;
  status?: number;
  apiMessage?: string;
  cause?: unknown;
}

/** Copies a cause as a plain, redacted Error: foreign errors may carry request details. */
function safeCause(cause: unknown): Error | undefined {
  if (cause === undefined) return undefined;
  const original = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redactText(original.message));
  copy.name = original.name;
  const code = (original as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  copy.stack = redactText(original.stack ?? `${copy.name}: ${copy.message}`);
  return copy;
}

export class PublisherError extends Error {
  readonly code: PublisherErrorCode = 'server_error';
  /** HTTP status of the response, when there was one. */
  readonly status?: number;
  /** HTTP method of the failed call (or `''` for an option error raised by `createClient`). */
  readonly method: string;
  /** Path of the failed call, without query string and without the base URL. */
  readonly path: string;
  /** The service's own `error` message, when its body had one. */
  readonly apiMessage?: string;
  /** What to do about it. */
  readonly hint: string;

  constructor(init: PublisherErrorInit) {
    const cause = safeCause(init.cause);
    super(redactText(init.message), cause ? { cause } : undefined);
    this.method = init.method;
    this.path = redactText(init.path);
    this.hint = redactText(init.hint);
    if (init.status !== undefined) this.status = init.status;
    if (init.apiMessage !== undefined) this.apiMessage = redactText(init.apiMessage);
    // The stack embeds the message; rebuild it from the redacted one.
    if (this.stack) this.stack = redactText(this.stack);
  }

  /** What `JSON.stringify(error)` shows: the public fields, all redacted. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      method: this.method,
      path: this.path,
      apiMessage: this.apiMessage,
      hint: this.hint,
    };
  }
}

/** 401: the token is missing, malformed or unknown. */
export class UnauthorizedError extends PublisherError {
  override readonly code = 'unauthorized' as const;
}

/** 403: a valid token on a plan without API access (Free/trial, Solo). */
export class ForbiddenError extends PublisherError {
  override readonly code = 'forbidden' as const;
}

/** 402: the monthly article quota and the credits are used up. */
export class PaymentRequiredError extends PublisherError {
  override readonly code = 'quota_exhausted' as const;
}

/** 404: the site or article does not exist or does not belong to the caller. */
export class NotFoundError extends PublisherError {
  override readonly code = 'not_found' as const;
}

/** 429: the hourly rate limit (per user, all tokens) is exceeded. */
export class RateLimitError extends PublisherError {
  override readonly code = 'rate_limited' as const;
  /**
   * Seconds to wait before the next request, when the service said: from `Retry-After`, or from
   * `X-RateLimit-Reset` when `Retry-After` is `0` or a date already past.
   */
  readonly retryAfter?: number;

  constructor(init: PublisherErrorInit & { retryAfter?: number }) {
    super(init);
    if (init.retryAfter !== undefined) this.retryAfter = init.retryAfter;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** 502: the site's remote CMS is unreachable. */
export class CmsUnavailableError extends PublisherError {
  override readonly code = 'cms_unavailable' as const;
}

/** Any other 5xx. */
export class ServerError extends PublisherError {
  override readonly code = 'server_error' as const;
}

/** Any other 4xx (for example a 400 validation error). */
export class ApiError extends PublisherError {
  override readonly code = 'bad_request' as const;
}

/** No HTTP response: connection refused, reset, DNS failure, body cut off. */
export class NetworkError extends PublisherError {
  override readonly code = 'network' as const;
  /**
   * Did the service start answering (its status and headers arrived) before the connection broke? When not,
   * the request may never have reached it: a connection the service had closed while it sat idle, for one.
   * @default false
   */
  readonly answered: boolean;

  constructor(init: PublisherErrorInit & { answered?: boolean }) {
    super(init);
    this.answered = init.answered ?? false;
  }
}

/** No complete response within `timeoutMs` (or `generateTimeoutMs`). */
export class TimeoutError extends PublisherError {
  override readonly code = 'timeout' as const;
  readonly timeoutMs: number;

  constructor(init: PublisherErrorInit & { timeoutMs: number }) {
    super(init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** A response that is not what the API document describes: HTML instead of JSON, a field of the wrong type. */
export class ResponseFormatError extends PublisherError {
  override readonly code = 'bad_response' as const;
  /** `METHOD /path` of the call. */
  readonly endpoint: string;
  /** Where in the body the problem is, like `results[3].slug`; `(body)` for the body as a whole. */
  readonly fieldPath: string;

  constructor(init: PublisherErrorInit & { endpoint: string; fieldPath: string }) {
    super(init);
    this.endpoint = redactText(init.endpoint);
    this.fieldPath = redactText(init.fieldPath);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint, fieldPath: this.fieldPath };
  }
}

/** A bad option or argument, thrown before any request is sent. */
export class ConfigError extends PublisherError {
  override readonly code: PublisherErrorCode = 'invalid_option';
  /** The option or argument at fault, like `baseUrl`, `siteId` or `body.topic`. */
  readonly option: string;

  constructor(init: Omit<PublisherErrorInit, 'method' | 'path'> & { option: string; method?: string; path?: string }) {
    super({ ...init, method: init.method ?? '', path: init.path ?? '' });
    this.option = init.option;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), option: this.option };
  }
}

/** An authenticated call on a client created without `apiKey`. */
export class MissingApiKeyError extends ConfigError {}

// Names live on the prototypes (not as instance fields) so that the stack header, captured while the
// base constructor runs, already shows the subclass name; explicit strings survive minification.
const NAMES: Array<[{ prototype: Error }, string]> = [
  [PublisherError, 'PublisherError'],
  [UnauthorizedError, 'UnauthorizedError'],
  [ForbiddenError, 'ForbiddenError'],
  [PaymentRequiredError, 'PaymentRequiredError'],
  [NotFoundError, 'NotFoundError'],
  [RateLimitError, 'RateLimitError'],
  [CmsUnavailableError, 'CmsUnavailableError'],
  [ServerError, 'ServerError'],
  [ApiError, 'ApiError'],
  [NetworkError, 'NetworkError'],
  [TimeoutError, 'TimeoutError'],
  [ResponseFormatError, 'ResponseFormatError'],
  [ConfigError, 'ConfigError'],
  [MissingApiKeyError, 'MissingApiKeyError'],
];
for (const [cls, name] of NAMES) {
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true, enumerable: false });
}

export function isPublisherError(value: unknown): value is PublisherError {
  return value instanceof PublisherError;
}
