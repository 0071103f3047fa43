import { redactText } from '../../options/redact.js';

/**
 * What is made safe in an article before it is stored (articlesLoader, data loaders) or served (live loader),
 * whatever the service sent:
 * - the API key and any token-shaped string (`btb_...`) are redacted everywhere in the data and the HTML: a
 *   service (or proxy) that echoes the key in a successful body must not get it into the store or the site;
 * - `url` and `featuredImage` are kept only when they are absolute http(s) URLs: a `javascript:` or `data:`
 *   value would become script in any page that links or shows it.
 * Pure: the caller passes what it was about to store and stores what comes back.
 */

/** Fields that pages put into `href` / `src` as they are. */
const URL_FIELDS = ['url', 'featuredImage', 'featured_image'] as const;

/** True for an absolute http: or https: URL (what a link or image of an article may point at). */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function redactDeep(value: unknown, apiKey: string | undefined, depth: number): unknown {
  if (typeof value === 'string') return redactText(value, apiKey);
  if (depth > 20 || value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, apiKey, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redactText(key, apiKey), redactDeep(item, apiKey, depth + 1)]),
  );
}

/**
 * The entry data without secrets and without a non-http(s) `url` / `featuredImage` (removed, or set to
 * `null` where the schema needs the field, as the keywords loader's `url`).
 */
export function safeEntryData<T extends Record<string, unknown>>(
  data: T,
  apiKey?: string,
  unsafeUrl: 'remove' | 'null' = 'remove',
): T {
  const out = redactDeep(data, apiKey, 0) as Record<string, unknown>;
  for (const field of URL_FIELDS) {
    if (out[field] === undefined || out[field] === null || isHttpUrl(out[field])) continue;
    if (unsafeUrl === 'null') out[field] = null;
    else delete out[field];
  }
  return out as T;
}

/** `safeEntryData` for the data and redaction for the article HTML, in one call where an entry is stored. */
export function safeEntry<T extends Record<string, unknown>>(
  data: T,
  html: string,
  apiKey?: string,
): { data: T; html: string } {
  return { data: safeEntryData(data, apiKey), html: redactText(html, apiKey) };
}
