/**
 * The two public feeds, GET /api/sites/<id>/sitemap.xml and /rss.xml: raw XML text, no Authorization header
 * (the key must not travel where it is not needed), conditional requests with ETag / Last-Modified, and a
 * 304 returned as `{ notModified: true }` rather than thrown. They do not count in `requestCount`.
 */
import { describeHtmlPage, failFormat, looksLikeHtml } from '../parse-response.js';
import type { FeedValidators } from '../public-feed.js';
import type { ResourceContext } from '../request-json.js';
import { assertSiteId } from '../validate-input.js';

/** A previous response's `etag` (sent as If-None-Match) and `lastModified` (sent as If-Modified-Since). */
export type FeedConditions = FeedValidators;

export type FeedResponse =
  | { notModified: true; status: 304; etag?: string; lastModified?: string; url: string }
  | {
      notModified: false;
      status: 200;
      body: string;
      etag?: string;
      lastModified?: string;
      cacheControl?: string;
      /** How old a cache's copy is, in seconds (`Age`): sent by a cache (a CDN edge), never by the origin. */
      age?: number;
      url: string;
    };

const ACCEPT = {
  sitemap: 'application/xml, text/xml;q=0.9, */*;q=0.1',
  rss: 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
} as const;

async function feed(
  ctx: ResourceContext,
  kind: 'sitemap' | 'rss',
  siteId: number,
  conditions?: FeedConditions,
): Promise<FeedResponse> {
  const call = { method: 'GET', path: `/api/sites/<id>/${kind}.xml` };
  assertSiteId(siteId, call);
  const path = `/api/sites/${siteId}/${kind}.xml`;
  const headers: Record<string, string> = {};
  if (conditions?.etag) headers['if-none-match'] = conditions.etag;
  if (conditions?.lastModified) headers['if-modified-since'] = conditions.lastModified;
  const response = await ctx.transport.request({
    method: 'GET',
    path,
    auth: false,
    timeoutMs: ctx.timeoutMs,
    accept: ACCEPT[kind],
    headers,
    okStatuses: [304],
    sizeOption: 'maxFeedBytes',
  });
  const etag = response.headers.get('etag') ?? undefined;
  const lastModified = response.headers.get('last-modified') ?? undefined;
  if (response.status === 304) {
    // A 304 may omit the validators: the caller's own still hold.
    return {
      notModified: true,
      status: 304,
      etag: etag ?? conditions?.etag,
      lastModified: lastModified ?? conditions?.lastModified,
      url: response.url,
    };
  }
  const text = response.text;
  const answered = { method: 'GET', path };
  if (text.trim() === '') failFormat(answered, response, 'XML', 'an empty body');
  if (looksLikeHtml(response)) failFormat(answered, response, 'XML', describeHtmlPage(response));
  if (!/^\s*(\uFEFF)?</.test(text))
    failFormat(
      answered,
      response,
      'XML',
      `a body that is not XML (${response.headers.get('content-type') || 'no content type'})`,
    );
  return {
    notModified: false,
    status: 200,
    body: text,
    etag,
    lastModified,
    cacheControl: response.headers.get('cache-control') ?? undefined,
    age: ageOf(response.headers.get('age')),
    url: response.url,
  };
}

/** The `Age` header's seconds (RFC 9111: a non-negative integer), or undefined when absent or not one. */
function ageOf(header: string | null): number | undefined {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
}

export function sitemap(ctx: ResourceContext, siteId: number, conditions?: FeedConditions): Promise<FeedResponse> {
  return feed(ctx, 'sitemap', siteId, conditions);
}

export function rss(ctx: ResourceContext, siteId: number, conditions?: FeedConditions): Promise<FeedResponse> {
  return feed(ctx, 'rss', siteId, conditions);
}
