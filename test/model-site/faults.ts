/**
 * The faults the site model injects on a build's calls (POST /__simulator/faults): which calls, what each does
 * to the answer, and which errors of a failed build each explains.
 */

export const FAULT_ROUTES = {
  list: 'GET /api/v1/sites/:id/articles/',
  detail: 'GET /api/v1/sites/:id/articles/:slug/',
  sitemap: 'GET /api/sites/:id/sitemap.xml',
  rss: 'GET /api/sites/:id/rss.xml',
  image: 'GET /media/*',
} as const;
export type FaultEndpoint = keyof typeof FAULT_ROUTES;
export const FAULT_ENDPOINTS = Object.keys(FAULT_ROUTES) as FaultEndpoint[];

/**
 * What a fault does: answer a status; close the connection before the headers (`drop`); answer after the
 * loaders' timeout (`timeout`); answer 200 with the body cut in half (`truncated`) or an HTML error page
 * (`html`); answer the API's JSON with a field renamed, dropped or added (`drift`).
 */
export const FAULT_KINDS = ['500', '503', '429', 'drop', 'timeout', 'truncated', 'html', 'drift'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * The kinds each call can take: drift changes JSON (the API's); a timeout only where the model site's own
 * timeout applies (the loaders' API calls and image downloads: the feeds are read by `watch` too, with its own).
 */
export function kindsOf(endpoint: FaultEndpoint): readonly FaultKind[] {
  return FAULT_KINDS.filter(
    (kind) =>
      (kind !== 'drift' || endpoint === 'list' || endpoint === 'detail') &&
      (kind !== 'timeout' || endpoint === 'list' || endpoint === 'detail' || endpoint === 'image'),
  );
}

/** The model site's timeout of one request and of one image download (MODEL_SITE_TIMEOUT_MS). */
export const SITE_TIMEOUT_MS = 3000;
/** A `timeout` fault answers this much later than the site's timeout. */
export const TIMEOUT_OVERSHOOT_MS = 1000;

/** Which drift: `n` picks one (a field the loader needs renamed or dropped, or fields added). */
const DRIFTS = [{ omit: ['slug'] }, { rename: { title: 'headline' } }, { add: { extra_field: 'x', nested: { a: 1 } } }];

/** The simulator's fault for a kind on an endpoint, applied `times` times. */
export function faultSpec(endpoint: FaultEndpoint, kind: FaultKind, times: number, n = 0): Record<string, unknown> {
  const base = { route: FAULT_ROUTES[endpoint], times };
  switch (kind) {
    case 'drop':
      return { ...base, drop: 'before-headers' };
    case 'timeout':
      return { ...base, delayMs: SITE_TIMEOUT_MS + TIMEOUT_OVERSHOOT_MS };
    case 'truncated':
    case 'html':
      return { ...base, body: kind };
    case 'drift':
      return { ...base, drift: DRIFTS[n % DRIFTS.length] };
    case '429':
      return { ...base, status: 429, retryAfter: 0 };
    default:
      return { ...base, status: Number(kind) };
  }
}

/**
 * Whether an applied fault explains a failed build's error: the error must be of the kind that fault causes
 * (it names the call that failed: the client's errors name it as `[GET] /api/v1/sites/12/articles/: 503`, the
 * list without a slug, a detail with one), not any error after any fault.
 */
export const CAUSES: Record<string, RegExp> = {
  list: /\/api\/v1\/sites\/\d+\/articles\/(?![^\s?:/]+\/)/,
  detail: /\/api\/v1\/sites\/\d+\/articles\/[^\s?:/]+\//,
  sitemap: /sitemap/i,
  rss: /RSS|feed/i,
  image: /image/i,
  storm: /429|rate limit|too many requests/i,
  limiter: /429|rate limit|too many requests/i,
};
