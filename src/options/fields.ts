/**
 * Field schemas shared by every options boundary (integration, loaders, client, watch), so that a
 * `siteId`, a `baseUrl`, an API key or a duration is accepted and refused the same way everywhere.
 * Messages are predicates ("must be ..."): the issue formatter (./issues.ts) names the option in front.
 */
import { z } from 'zod';
import { describeUnparsedUrl } from './redact.js';

/**
 * The longest delay Node's timers accept (2^31 - 1 ms, about 24.8 days). A longer one is not an error in
 * Node: it warns and fires after 1 ms, so a poll would run in a tight loop and a timeout would abort every
 * request at once. Every duration option is bounded by this.
 */
export const MAX_TIMER_MS = 2_147_483_647;

const SITE_ID = 'must be a positive integer';

/** The service's id of a site. */
export const siteIdSchema = () => z.number({ error: SITE_ID }).int({ error: SITE_ID }).positive({ error: SITE_ID });

/**
 * What is wrong with a service base URL, or `undefined` when it is usable: absolute http(s), no
 * credentials (the key goes in `apiKey`), no query string or fragment, no `/api/v1` (the API paths,
 * `/api/v1/...` and `/api/sites/...`, are appended). The problem never echoes the credentials or the query.
 */
export function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // An unparseable URL may hold credentials in any form: only its length is shown.
    return `must be an absolute http(s) URL (got ${describeUnparsedUrl(value)})`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must use http or https (got "${url.protocol}")`;
  if (url.username || url.password) {
    return `must not contain credentials (got "${url.protocol}//***@${url.host}"); the public feeds need none and the API key goes in \`apiKey\``;
  }
  if (url.search || url.hash)
    return `must not contain a query string or fragment (got "${url.origin}${url.pathname}${url.search ? '?' : '#'}...")`;
  // The address copied from the API docs ends in /api/v1; kept, every call would go to /api/v1/api/v1/...
  // and fail as a 404 that blames the site id or the slug.
  const apiPath = /^(.*?)\/api\/v1(?:\/|$)/.exec(url.pathname);
  if (apiPath) {
    return `must be the service address without /api/v1 (got "${url.origin}${url.pathname}"): drop the /api/v1, as in "${url.origin}${apiPath[1]}"`;
  }
  return undefined;
}

/** The service's address, without `/api/v1`. */
export const baseUrlSchema = () =>
  z.string({ error: 'must be a URL string such as "https://service.example.com"' }).superRefine((value, ctx) => {
    const problem = baseUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

/** An API token (`btb_...`); messages never show the value. */
export const apiKeySchema = () =>
  z
    .string({ error: 'must be a string (the value is not shown)' })
    .refine((value) => value.startsWith('btb_'), { error: 'must start with btb_ (the value is not shown)' })
    .refine((value) => !/\s/.test(value), { error: 'must not contain whitespace (the value is not shown)' });

/** A whole number of milliseconds from `min` up to the timer limit. */
export function durationMsSchema(min: number, max: number = MAX_TIMER_MS) {
  const message = `must be a whole number of milliseconds from ${min} to ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** A whole number from `min` to `max`, of `unit` when it has one ("bytes"). */
export function integerSchema(min: number, max: number, unit?: string) {
  const message = `must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}
