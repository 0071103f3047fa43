import { readBodyCapped, type CappedBody } from '../client/read-body.js';
import { decodeXmlBytes } from '../feeds/decode-xml.js';

/**
 * One request to one of the service's two public feeds. No Authorization header is ever sent (the feeds
 * are public and the routes must not need a key); the body is read with the client's byte cap so a huge
 * or endless response cannot exhaust memory.
 *
 * Why not the client's `sitemap()` / `rss()`: their errors name the API path and the client's options
 * (`maxFeedBytes`, `timeoutMs` of the client), one size cap per client, and a 429 is retried once; the
 * routes need one attempt, the full upstream URL in every message and the integration's own options.
 */

export type UpstreamFailure = 'network' | 'timeout' | 'status' | 'too-large' | 'invalid';

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

export interface Validators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

export type FetchedFeed =
  | ({ status: 200; body: string; maxAgeMs: number | undefined } & Validators)
  | ({ status: 304; maxAgeMs: number | undefined } & Validators);

export interface FetchFeedOptions {
  timeoutMs: number;
  maxBytes: number;
  conditional?: Validators | undefined;
  fetch?: typeof fetch;
}

/** `max-age` of a Cache-Control header in ms; 0 for no-store/no-cache; undefined when absent. */
export function maxAgeFrom(cacheControl: string | null): number | undefined {
  if (!cacheControl) return undefined;
  const value = cacheControl.toLowerCase();
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|$)/.test(value)) return 0;
  const match = /(?:^|,)\s*(?:s-maxage|max-age)\s*=\s*"?(\d+)"?/.exec(value);
  return match?.[1] !== undefined ? Number(match[1]) * 1000 : undefined;
}

export async function fetchFeed(url: string, options: FetchFeedOptions): Promise<FetchedFeed> {
  const headers = new Headers({ Accept: 'application/xml, application/rss+xml, text/xml;q=0.9, */*;q=0.1', 'User-Agent': 'astro-content-publisher' });
  if (options.conditional?.etag) headers.set('If-None-Match', options.conditional.etag);
  if (options.conditional?.lastModified) headers.set('If-Modified-Since', options.conditional.lastModified);
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new UpstreamFeedError({
      url,
      reason: timedOut ? 'timeout' : 'network',
      detail: timedOut ? `no response within ${options.timeoutMs} ms.` : `the request failed (${error instanceof Error ? error.message : String(error)}). Check \`baseUrl\` and that the service is reachable.`,
      cause: error,
    });
  }
  const validators: Validators = {
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
    throw new UpstreamFeedError({ url, reason: 'status', status: response.status, detail: `the service answered ${response.status} ${response.statusText}.${hint}` });
  }
  let body: CappedBody;
  try {
    body = await readBodyCapped(response, options.maxBytes);
  } catch (error) {
    throw new UpstreamFeedError({ url, reason: 'network', detail: `the response broke off (${error instanceof Error ? error.message : String(error)}).`, cause: error });
  }
  if (!body.ok) {
    const size = body.declared ? `${body.bytesSeen} bytes, over` : 'over';
    throw new UpstreamFeedError({ url, reason: 'too-large', detail: `the response is ${size} the ${options.maxBytes}-byte size cap.` });
  }
  // Decoded by the document's byte-order mark or encoding declaration, not as UTF-8 regardless.
  const decoded = decodeXmlBytes(body.bytes, { url, kind: 'feed' });
  for (const warning of decoded.warnings) console.warn(`[astro-content-publisher] ${warning}`);
  return { status: 200, body: decoded.text, maxAgeMs, ...validators };
}
