import {
  articleLinkTarget,
  isUnpublishedLink,
  movedLinkTarget,
  parseUrl,
  UNLINK,
  type ArticleLinkContext,
} from '../../html/article-links.js';
import { liveArticlesSeen } from '../../loader/process/live-articles-seen.js';
import { serviceOriginsSeen } from '../../loader/process/service-origins.js';
import { articleLinkContextOf, routeMatches } from '../blog/known-articles.js';
import { linkRewriteStream, type LinkTarget } from './link-tags.js';
import type { RouteConfig } from '../settings/route-config.js';

/**
 * Whether the middleware may rewrite a response: an HTML page whose bytes it reads as they are. Not a
 * compressed body (a Content-Encoding other than identity: rewriting it would destroy it), not a page
 * whose declared charset is not UTF-8 or ASCII (left byte for byte; the rewrite itself keeps every byte it
 * does not change, so a page without a declared charset is safe too). Exported for the tests.
 */
export function rewritable(headers: Headers): boolean {
  const type = headers.get('content-type') ?? '';
  const [essence = '', ...params] = type.split(';').map((part) => part.trim().toLowerCase());
  if (essence !== 'text/html') return false;
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  if (charset !== undefined && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(charset)) return false;
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  return encoding === '' || encoding === 'identity';
}

/**
 * The link target of one page: its `<html lang>` (read as the page is scanned) settles a link that names no
 * language. A link to an article the service stopped publishing, which the blog does not have, loses its
 * address (`UNLINK`): both the blog's page and the service's answer 404. Asked first: a link naming no language
 * in an English page named the English article, and goes nowhere once that is gone, not to the French one left.
 */
export function articleTargetOf(ctx: ArticleLinkContext): LinkTarget {
  return (href, pageLanguage) => {
    const page = pageLanguage === undefined || ctx.pageLanguage ? ctx : { ...ctx, pageLanguage };
    const moved = page.moved !== undefined && page.moved.size > 0;
    if (moved || (page.unpublished !== undefined && page.unpublished.size > 0)) {
      const url = /^https?:\/\//i.test(href.trim()) ? parseUrl(href.trim()) : null;
      // A renamed article: its new page, asked first (its old slug is also one the service no longer publishes).
      const target = url === null || !moved ? undefined : movedLinkTarget(url, page);
      if (target !== undefined) return target;
      if (url !== null && isUnpublishedLink(url, page)) return UNLINK;
    }
    return articleLinkTarget(href, page);
  };
}

/**
 * On demand without an articles loader (liveArticlesLoader pages, `prerender = false`): the published articles of
 * the live loader's last unfiltered list are had (another slug answers "not found" on the blog, so a link to one
 * keeps its service URL: an article the service stopped publishing is not linked to the blog's 404); before
 * any list, every article counts as had, as in the on-demand sitemap and feed; none when the build found no
 * route for articles. Its service origins are the API's and those the live loader and the feed routes saw in
 * this process.
 */
export function onDemandContextOf(config: RouteConfig): ArticleLinkContext | undefined {
  if (config.builtPages !== undefined || config.noArticleRoute) return undefined;
  // A link goes to the blog where one of its routes takes the article's path (unknown under `astro dev`: any).
  const routes = config.pageRoutes?.map((source) => new RegExp(source));
  const live = liveArticlesSeen(config.siteId);
  return {
    ...(live ? { known: live.known, languages: live.languages } : {}),
    blogSite: config.blogSite,
    articlePattern: config.articlePattern,
    trailingSlash: config.trailingSlash,
    serviceOrigins: [...new Set([config.serviceOrigin, ...serviceOriginsSeen(config.siteId)])],
    ...(routes ? { pages: { has: (key: string) => routeMatches(routes, key) } } : {}),
  };
}

/**
 * Links inside the blog's pages that point at one of the service's articles go to the blog's page of that
 * article when the blog has it (the mapping the sitemap and the feed use); the rest is left as it is. Runs
 * as Astro middleware, so prerendered and on-demand pages get the same links, and a link written when the
 * article it names was still pending is right as soon as the article arrives (no re-fetch needed).
 * The page streams through (rewritten on the fly, chunk by chunk, in linear time): its first byte is not
 * held back until the last.
 */
export async function rewriteArticleLinksResponse(response: Response, config: RouteConfig): Promise<Response> {
  if (response.body === null || config.blogSite === '' || !rewritable(response.headers)) return response;
  const ctx = articleLinkContextOf(config) ?? onDemandContextOf(config);
  // Without an articles loader nor a route that renders articles on demand, no page of the blog is an article's.
  if (ctx === undefined) return response;
  const onBlog = articleTargetOf(ctx);
  // Under `astro dev` the blog's pages are on the dev server, not at `site`: a link to one keeps its path only,
  // so it stays on localhost (or on the preview host) instead of leaving for the production site.
  const origin = config.dev ? new URL(config.blogSite).origin : undefined;
  const target: typeof onBlog = origin
    ? (href, language) => {
        const next = onBlog(href, language);
        return next?.startsWith(`${origin}/`) ? next.slice(origin.length) : next;
      }
    : onBlog;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(response.body.pipeThrough(linkRewriteStream(target)), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
