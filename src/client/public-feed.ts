import { z } from 'zod';
import { decodeXmlBytes } from '../feeds/decode-xml.js';
import { readBodyCapped, type CappedBody } from './read-body.js';

/**
 * The one fetcher of the service's two public feeds (sitemap and RSS) and the one redirect policy of every
 * request this package sends. The routes, the dev poll and the static sitemap call `fetchPublicFeed`; the
 * client (whose `sitemap()`/`rss()` feed the loader and the watcher) sends every request through
 * `fetchSameOrigin`.
 *
 * Redirects: fetch's default follows a 3xx to any host. A compromised or misconfigured upstream could then
 * make a deployed blog fetch an internal address and publish its answer at /rss.xml. Only redirects to the
 * same origin (scheme, host and port) are followed, at most `MAX_REDIRECTS` in a row; anything else is an
 * error that names both URLs (for the server log; the routes show visitors a generic 502).
 */

/** ETag / Last-Modified of a previous response: the one definition of the conditional-request shape. */
export const feedValidatorsSchema = z.object({
  etag: z.string().optional(),
  lastModified: z.string().optional(),
});
export type FeedValidators = z.infer<typeof feedValidatorsSchema>;

/** Redirects followed in a row before giving up (same origin only). */
export const MAX_REDIRECTS = 5;

/** A redirect that was not followed: to another origin, without a Location, or one too many. */
export class RedirectRefusedError extends Error {
  override readonly name = 'RedirectRefusedError';
  readonly from: string;
  readonly to: string | undefined;

  constructor(from: string, to: string | undefined, detail: string) {
    super(`redirect not followed: ${detail}`);
    this.from = from;
    this.to = to;
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * `fetch(url, init)` following only same-origin redirects (at most `maxRedirects`). Returns the final
 * response and its URL; throws RedirectRefusedError otherwise. The response of a refused redirect is
 * cancelled (its body is never read).
 */
export async function fetchSameOrigin(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  maxRedirects: number = MAX_REDIRECTS,
): Promise<{ response: Response; url: string }> {
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetchImpl(current, { ...init, redirect: 'manual' });
    // A browser-style fetch hides the target of a manual redirect (status 0): nothing to check it against.
    if (response.type === 'opaqueredirect')
      throw new RedirectRefusedError(
        current,
        undefined,
        `${current} redirected to a location this fetch does not reveal.`,
      );
    if (!REDIRECT_STATUSES.has(response.status)) return { response, url: current };
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let target: URL | undefined;
    try {
      target = location === null ? undefined : new URL(location, current);
    } catch {
      target = undefined;
    }
    if (!target)
      throw new RedirectRefusedError(
        current,
        undefined,
        `${current} answered ${response.status} without a usable Location.`,
      );
    if (target.origin !== new URL(current).origin) {
      throw new RedirectRefusedError(
        current,
        target.href,
        `${current} answered ${response.status} to another origin (${target.origin}); only same-origin redirects are followed.`,
      );
    }
    if (hops + 1 > maxRedirects)
      throw new RedirectRefusedError(
        current,
        target.href,
        `more than ${maxRedirects} redirects in a row, starting at ${url}.`,
      );
    current = target.href;
  }
}

export type UpstreamFailure = 'network' | 'timeout' | 'status' | 'too-large' | 'invalid' | 'redirect';

/** The upstream feed could not be fetched or used. The message names the URL and what was wrong. */
export class UpstreamFeedError extends Error {
  override readonly name = 'UpstreamFeedError';
  readonly url: string;
  readonly reason: UpstreamFailure;
  readonly status: number | undefined;

  constructor(opts: { url: string; reason: UpstreamFailure; detail: string; status?: number; cause?: unknown }) {
    super(`[astro-content-publisher] Could not get ${opts.url}: ${opts.detail}`, { cause: opts.cause });
    this.url = opts.url;
    this.reason = opts.reason;
    this.status = opts.status;
  }
}

export type FetchedFeed =
  | ({ status: 200; body: string; maxAgeMs: number | undefined } & FeedValidators)
  | ({ status: 304; maxAgeMs: number | undefined } & FeedValidators);

export interface FetchFeedOptions {
  timeoutMs: number;
  maxBytes: number;
  conditional?: FeedValidators | undefined;
  fetch?: typeof fetch;
  /** A deadline shared with other requests (a sitemap index's parts), on top of `timeoutMs`. */
  signal?: AbortSignal | undefined;
}

/** `max-age` of a Cache-Control header in ms; 0 for no-store/no-cache; undefined when absent. */
export function maxAgeFrom(cacheControl: string | null): number | undefined {
  if (!cacheControl) return undefined;
  const value = cacheControl.toLowerCase();
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|$)/.test(value)) return 0;
  const match = /(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*"?(\d+)"?/.exec(value);
  return match?.[1] !== undefined ? Number(match[1]) * 1000 : undefined;
}

/**
 * One request to one public feed: no Authorization header ever (the routes must not need a key), the
 * body read under a byte cap, one attempt (the callers cache and retry on their own schedule).
 */
export async function fetchPublicFeed(url: string, options: FetchFeedOptions): Promise<FetchedFeed> {
  const headers = new Headers({
    Accept: 'application/xml, application/rss+xml, text/xml;q=0.9, */*;q=0.1',
    'User-Agent': 'astro-content-publisher',
  });
  if (options.conditional?.etag) headers.set('If-None-Match', options.conditional.etag);
  if (options.conditional?.lastModified) headers.set('If-Modified-Since', options.conditional.lastModified);
  let response: Response;
  try {
    ({ response } = await fetchSameOrigin(options.fetch ?? fetch, url, {
      headers,
      signal: options.signal
        ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
        : AbortSignal.timeout(options.timeoutMs),
    }));
  } catch (error) {
    if (error instanceof RedirectRefusedError)
      throw new UpstreamFeedError({
        url,
        reason: 'redirect',
        detail: `${error.message} Point \`baseUrl\` at the service itself.`,
        cause: error,
      });
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new UpstreamFeedError({
      url,
      reason: timedOut ? 'timeout' : 'network',
      detail: timedOut
        ? `no response within ${options.timeoutMs} ms.`
        : `the request failed (${error instanceof Error ? error.message : String(error)}). Check \`baseUrl\` and that the service is reachable.`,
      cause: error,
    });
  }
  const validators: FeedValidators = {
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
  };
  const maxAgeMs = maxAgeFrom(response.headers.get('cache-control'));
  if (response.status === 304) {
    await response.body?.cancel();
    return { status: 304, maxAgeMs, ...validators };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const hint = response.status === 404 ? ' Check `siteId` (the site must exist and be active).' : '';
    throw new UpstreamFeedError({
      url,
      reason: 'status',
      status: response.status,
      detail: `the service answered ${response.status} ${response.statusText}.${hint}`,
    });
  }
  let body: CappedBody;
  try {
    body = await readBodyCapped(response, options.maxBytes);
  } catch (error) {
    throw new UpstreamFeedError({
      url,
      reason: 'network',
      detail: `the response broke off (${error instanceof Error ? error.message : String(error)}).`,
      cause: error,
    });
  }
  if (!body.ok) {
    const size = body.declared ? `${body.bytesSeen} bytes, over` : 'over';
    throw new UpstreamFeedError({
      url,
      reason: 'too-large',
      detail: `the response is ${size} the ${options.maxBytes}-byte size cap.`,
    });
  }
  // Decoded by the document's byte-order mark or encoding declaration, not as UTF-8 regardless.
  const decoded = decodeXmlBytes(body.bytes, { url, kind: 'feed' });
  for (const warning of decoded.warnings) console.warn(`[astro-content-publisher] ${warning}`);
  return { status: 200, body: decoded.text, maxAgeMs, ...validators };
}
