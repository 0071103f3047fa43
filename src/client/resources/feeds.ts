/**
 * The two public feeds, GET /api/sites/<id>/sitemap.xml and /rss.xml: raw XML text, no Authorization header
 * (the key must not travel where it is not needed), conditional requests with ETag / Last-Modified, and a
 * 304 returned as `{ notModified: true }` rather than thrown. They do not count in `requestCount`.
 */
import { FORMAT_HINT } from '../parse-response.js';
import type { FeedValidators } from '../public-feed.js';
import { statusText } from '../error-map.js';
import { ResponseFormatError } from '../errors.js';
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
  const type = response.headers.get('content-type') ?? '';
  const text = response.text;
  if (/html/i.test(type) || /^\s*<(!doctype\s+html|html)\b/i.test(text) || !/^\s*(\uFEFF)?</.test(text)) {
    const problem =
      text.trim() === ''
        ? 'an empty body'
        : /html/i.test(type) || /^\s*<(!doctype|html)/i.test(text)
          ? `HTML (${type || 'no content type'})`
          : `a body that is not XML (${type || 'no content type'})`;
    throw new ResponseFormatError({
      method: 'GET',
      path,
      status: response.status,
      endpoint: `GET ${path}`,
      fieldPath: '(body)',
      hint: FORMAT_HINT,
      message: `[GET] ${path}: ${response.status} ${statusText(response.status, response.statusText)}: unexpected response: expected XML, got ${problem}. ${FORMAT_HINT}`,
    });
  }
  return {
    notModified: false,
    status: 200,
    body: text,
    etag,
    lastModified,
    cacheControl: response.headers.get('cache-control') ?? undefined,
    url: response.url,
  };
}

export function sitemap(ctx: ResourceContext, siteId: number, conditions?: FeedConditions): Promise<FeedResponse> {
  return feed(ctx, 'sitemap', siteId, conditions);
}

export function rss(ctx: ResourceContext, siteId: number, conditions?: FeedConditions): Promise<FeedResponse> {
  return feed(ctx, 'rss', siteId, conditions);
}
