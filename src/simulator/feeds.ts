import { createHash } from 'node:crypto';
import { siteOrigin, type SiteDefinition } from './accounts.js';
import type { ArticleRecord } from './articles.js';
import type { HandlerContext } from './context.js';
import { escapeHtml } from './html.js';
import { errorResponse, type SimRequest, type SimResponse } from './http.js';
import { articleUrl } from './shapes.js';
import type { ResolvedServiceVariants } from './variants.js';
import { copyHeaders, servedCopy, type ServedCopy } from './feed-copies.js';

type FeedVariants = Pick<
  ResolvedServiceVariants,
  'sitemapLastmod' | 'rssContent' | 'sharedSlugs' | 'sitemapPages' | 'rssTruncateAt'
>;
const ORIGINAL: FeedVariants = {
  sitemapLastmod: 'updated',
  rssContent: 'full',
  sharedSlugs: false,
  sitemapPages: 'articles',
  rssTruncateAt: 'none',
};

/**
 * A long body cut as feed generators cut it: at a character count, a tag left open at the cut dropped, and a
 * marker added. What is left is still HTML a reader shows, and carries no sign of being cut but the marker.
 */
export function cutBody(html: string, at: number): string {
  if (html.length <= at) return html;
  let cut = html.slice(0, at);
  if (cut.lastIndexOf('<') > cut.lastIndexOf('>')) cut = cut.slice(0, cut.lastIndexOf('<'));
  return `${cut} […]`;
}

function urlOf(site: SiteDefinition, a: ArticleRecord, variants: FeedVariants): string {
  return articleUrl(site, a.slug, variants.sharedSlugs ? a.language : undefined);
}

/** The sitemap's `<lastmod>` line under the `sitemapLastmod` variant ('' when absent). */
function lastmodLine(a: ArticleRecord, variants: FeedVariants): string {
  const value =
    variants.sitemapLastmod === 'updated'
      ? a.updatedAt
      : variants.sitemapLastmod === 'date'
        ? a.updatedAt.slice(0, 10)
        : variants.sitemapLastmod === 'published'
          ? a.publishedAt
          : undefined;
  return value === undefined ? '' : `\n    <lastmod>${value}</lastmod>`;
}

/** The RSS item's body lines under the `rssContent` variant. */
function rssBody(site: SiteDefinition, a: ArticleRecord, variants: FeedVariants): string[] {
  if (variants.rssContent === 'none') return [];
  const description = `      <description>${xmlText(a.excerpt)}</description>`;
  if (variants.rssContent === 'description') return [description];
  const full = variants.rssTruncateAt === 'none' ? a.content : cutBody(a.content, variants.rssTruncateAt);
  const teaser = `${/<p>[\s\S]*?<\/p>/.exec(a.content)?.[0] ?? ''}<p><a href="${urlOf(site, a, variants)}">Read more</a></p>`;
  return [
    description,
    `      <content:encoded>${cdata(variants.rssContent === 'teaser' ? teaser : full)}</content:encoded>`,
  ];
}

/** The RSS feed holds the newest 50 articles, as the API documents. */
export const RSS_ITEMS = 50;
const CACHE_CONTROL = 'public, max-age=3600';

/** CDATA cannot contain `]]>`: split it across two sections so any HTML round-trips. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** XML 1.0 forbids most control characters even when escaped: drop them. */
function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return escapeHtml(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));
}

export function sitemapXml(site: SiteDefinition, articles: ArticleRecord[], variants: FeedVariants = ORIGINAL): string {
  const urls = articles.map(
    (a) => `  <url>\n    <loc>${xmlText(urlOf(site, a, variants))}</loc>${lastmodLine(a, variants)}\n  </url>`,
  );
  // sitemapPages 'site': the service's own pages of the site (home, blog index, tag pages), no article of the blog's.
  const page = (path: string) => `  <url>\n    <loc>${xmlText(`${siteOrigin(site)}${path}`)}</loc>\n  </url>`;
  const tags = [...new Set(articles.flatMap((a) => a.keywords))]
    .sort()
    .map((k) => page(`/tags/${encodeURIComponent(k)}/`));
  const sitePages = variants.sitemapPages === 'site';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...(sitePages ? [page('/'), page('/blog/')] : []),
    ...urls,
    ...(sitePages ? tags : []),
    '</urlset>',
    '',
  ].join('\n');
}

export function rssXml(
  site: SiteDefinition,
  articles: ArticleRecord[],
  selfUrl: string,
  lastModified: Date,
  variants: FeedVariants = ORIGINAL,
): string {
  const items = articles.slice(0, RSS_ITEMS).map((a) => {
    const link = xmlText(urlOf(site, a, variants));
    return [
      '    <item>',
      `      <title>${xmlText(a.title)}</title>`,
      `      <link>${link}</link>`,
      `      <guid isPermaLink="true">${link}</guid>`,
      `      <pubDate>${new Date(a.publishedTime).toUTCString()}</pubDate>`,
      ...a.keywords.map((k) => `      <category>${xmlText(k)}</category>`),
      ...rssBody(site, a, variants),
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${xmlText(site.name)}</title>`,
    `    <link>${xmlText(`${siteOrigin(site)}/`)}</link>`,
    `    <description>${xmlText(`Latest articles from ${site.name}`)}</description>`,
    `    <atom:link href="${xmlText(selfUrl)}" rel="self" type="application/rss+xml"/>`,
    `    <lastBuildDate>${lastModified.toUTCString()}</lastBuildDate>`,
    '    <generator>content-publisher simulator</generator>',
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110: If-None-Match wins over If-Modified-Since; weak comparison for GET. */
function notModified(req: SimRequest, etag: string, lastModifiedMs: number): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.trim() !== '') {
    if (inm.trim() === '*') return true;
    return inm
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .includes(etag);
  }
  const ims = req.headers['if-modified-since'];
  if (typeof ims === 'string') {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(lastModifiedMs / 1000) * 1000 <= since;
  }
  return false;
}

function publicSite(ctx: HandlerContext, rawId: string | undefined): SiteDefinition | undefined {
  if (!/^\d{1,9}$/.test(rawId ?? '')) return undefined;
  const site = ctx.store.site(Number(rawId));
  return site?.active ? site : undefined;
}

function feedResponse(req: SimRequest, copy: ServedCopy, contentType: string, nowMs: number): SimResponse {
  const etag = etagOf(copy.body);
  const headers = {
    'cache-control': CACHE_CONTROL,
    etag,
    'last-modified': new Date(copy.lastModified).toUTCString(),
    ...copyHeaders(copy, nowMs),
  };
  if (notModified(req, etag, copy.lastModified)) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'content-type': contentType }, body: copy.body };
}

/** `sitemapState: 'empty'`: a sitemap that parses and validates, and lists nothing. */
const EMPTY_SITEMAP = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
  '</urlset>',
  '',
].join('\n');

export function handleSitemap(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = publicSite(ctx, req.params.id);
  if (!site) return errorResponse(404, `No public sitemap for site ${req.params.id ?? ''}: unknown or inactive site.`);
  const copy = servedCopy(ctx, 'sitemap', site.id, () => ({
    body:
      ctx.options.variants.sitemapState === 'empty'
        ? EMPTY_SITEMAP
        : sitemapXml(site, ctx.store.published(site.id), ctx.options.variants),
    lastModified: ctx.store.lastModified(site.id),
  }));
  return feedResponse(req, copy, 'application/xml; charset=utf-8', ctx.now());
}

export function handleRss(req: SimRequest, ctx: HandlerContext): SimResponse {
  const site = publicSite(ctx, req.params.id);
  if (!site) return errorResponse(404, `No public RSS feed for site ${req.params.id ?? ''}: unknown or inactive site.`);
  const selfUrl = `${ctx.baseUrl}/api/sites/${site.id}/rss.xml`;
  const copy = servedCopy(ctx, 'rss', site.id, () => {
    const lastModified = ctx.store.lastModified(site.id);
    return {
      body: rssXml(site, ctx.store.published(site.id), selfUrl, new Date(lastModified), ctx.options.variants),
      lastModified,
    };
  });
  return feedResponse(req, copy, 'application/rss+xml; charset=utf-8', ctx.now());
}
