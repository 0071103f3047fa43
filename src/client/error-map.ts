/**
 * The one place that maps an HTTP status to an error class and a hint. The hints follow the
 * "Suggested action" column of the API document's error table.
 */
import {
  ApiError,
  CmsUnavailableError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  type PublisherError,
  type PublisherErrorInit,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from './errors.js';

/**
 * The 5xx hints in parts: what failed, and what to check besides retrying. The generic hint says "retry later";
 * a call that may have been done anyway (generate) keeps what failed and what to check, and replaces the retry
 * with its own advice (`HintOverrides.inDoubt`), so the two wordings cannot drift apart.
 */
const SERVER_FAILURES = {
  502: { failed: "The site's remote CMS is unreachable", check: "check the site's CMS credentials in the dashboard" },
  server: { failed: 'The service failed', check: undefined },
} as const satisfies Record<string, { failed: string; check: string | undefined }>;

type ServerFailure = (typeof SERVER_FAILURES)[keyof typeof SERVER_FAILURES];

function retryHint({ failed, check }: ServerFailure): string {
  return `${failed}: retry later${check ? ` and ${check}` : ''}.`;
}

function inDoubtHint({ failed, check }: ServerFailure, inDoubt: string): string {
  return `${failed}${check ? `: ${check}` : ''}. ${inDoubt}`;
}

export const HINTS = {
  401: 'Send the header `Authorization: Bearer <API_KEY>` with a valid token: create one in the dashboard at /account/api-keys (it starts with btb_) and pass it to createClient({ apiKey }).',
  403: 'The API is only available on the Pro and Agence plans: move to Pro or higher.',
  402: 'The monthly article quota and the credits are used up: buy credits or wait for the first day of the month.',
  404: 'Check the site id or the article slug: the resource does not exist or does not belong to the owner of this token (if every call answers 404, check `baseUrl`).',
  /** A 404 that cannot be about an id (a path naming none, or an answer that is not the service's error). */
  noEndpoint:
    'Nothing answers this call at that address: check `baseUrl`, the service address (scheme, host and port, without /api/v1 or another path), then the site id.',
  /** A 404 of a public feed (no token sent). */
  publicFeed404:
    'Check the site id (the service has no public feed for an unknown or inactive site) and `baseUrl`, the service address.',
  502: retryHint(SERVER_FAILURES[502]),
  server: retryHint(SERVER_FAILURES.server),
  client: 'Check the arguments of the call (query parameters and body) against the API reference.',
} as const;

export function rateLimitHint(retryAfterSeconds: number | undefined): string {
  const wait =
    retryAfterSeconds === undefined
      ? 'Wait until the hourly limit resets'
      : `Wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  return `${wait}, cache responses on the client, or move to a higher plan (the limit is per user, shared by all tokens).`;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number, fromResponse?: string): string {
  return STATUS_TEXT[status] ?? (fromResponse || 'Error');
}

type ErrorClass = new (init: PublisherErrorInit) => PublisherError;

const CLASS_BY_STATUS: Record<number, [ErrorClass, string]> = {
  401: [UnauthorizedError, HINTS[401]],
  402: [PaymentRequiredError, HINTS[402]],
  403: [ForbiddenError, HINTS[403]],
  502: [CmsUnavailableError, HINTS[502]],
};

export interface HttpFailure {
  method: string;
  path: string;
  status: number;
  statusText?: string;
  apiMessage?: string;
  /** Seconds, from `Retry-After` (429 only). */
  retryAfter?: number;
}

/** `[GET] /api/v1/sites/12/articles/: 429 Too Many Requests: <apiMessage>. <hint>` */
export function formatHttpMessage(failure: HttpFailure, hint: string): string {
  const head = `[${failure.method}] ${failure.path}: ${failure.status} ${statusText(failure.status, failure.statusText)}`;
  const api = failure.apiMessage ? `: ${failure.apiMessage.replace(/\.\s*$/, '')}` : '';
  return `${head}${api}. ${hint}`;
}

/** Advice that a caller with its own ways to set the key (the loaders read PUBLISHER_API_KEY) words its own way. */
export interface HintOverrides {
  401?: string;
  /**
   * For a call that changes something (generate): a 5xx does not say it was not done (the service may fail
   * after publishing), so this replaces the "retry" advice; what failed is still said.
   */
  inDoubt?: string;
}

/**
 * What a 404 is about. Only a call naming a site (`/api/v1/sites/<id>/...`) answered with the service's own error
 * body can be about the id or slug; `/me/`, `/sites/`, audit or brief exist at the right address, and a 404 that is
 * not the service's JSON error (an HTML page, a proxy's) comes from something else at that address.
 */
function notFoundHint(failure: HttpFailure): string {
  if (/^\/api\/sites\/[^/]+\//.test(failure.path)) return HINTS.publicFeed404;
  if (failure.apiMessage === undefined || !/^\/api\/v1\/sites\/[^/]+\//.test(failure.path)) return HINTS.noEndpoint;
  return HINTS[404];
}

export function errorForStatus(failure: HttpFailure, overrides: HintOverrides = {}): PublisherError {
  const base = { method: failure.method, path: failure.path, status: failure.status, apiMessage: failure.apiMessage };
  if (failure.status === 429) {
    const hint = rateLimitHint(failure.retryAfter);
    return new RateLimitError({
      ...base,
      hint,
      message: formatHttpMessage(failure, hint),
      retryAfter: failure.retryAfter,
    });
  }
  const known = CLASS_BY_STATUS[failure.status];
  const [ErrorCtor, defaultHint]: [ErrorClass, string] =
    failure.status === 404
      ? [NotFoundError, notFoundHint(failure)]
      : (known ?? (failure.status >= 500 ? [ServerError, HINTS.server] : [ApiError, HINTS.client]));
  let hint = (failure.status === 401 && overrides[401]) || defaultHint;
  if (failure.status >= 500 && overrides.inDoubt)
    hint = inDoubtHint(failure.status === 502 ? SERVER_FAILURES[502] : SERVER_FAILURES.server, overrides.inDoubt);
  return new ErrorCtor({ ...base, hint, message: formatHttpMessage(failure, hint) });
}
