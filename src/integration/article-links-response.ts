import { rewriteArticleLinks } from '../html/article-links.js';
import { articleLinkContextOf } from './known-articles.js';
import type { RouteConfig } from './route-config.js';

/**
 * Links inside the blog's pages that point at one of the service's articles go to the blog's page of that
 * article when the blog has it (the mapping the sitemap and the feed use); the rest is left as it is. Runs
 * as Astro middleware, so prerendered and on-demand pages get the same links, and a link written when the
 * article it names was still pending is right as soon as the article arrives (no re-fetch needed).
 */
export async function rewriteArticleLinksResponse(response: Response, config: RouteConfig): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html') || response.body === null || config.blogSite === '') return response;
  const ctx = articleLinkContextOf(config);
  // Without an articles loader the blog has no article pages of the service to send readers to.
  if (ctx === undefined) return response;
  const html = await response.text();
  const rewritten = rewriteArticleLinks(html, ctx);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(rewritten, { status: response.status, statusText: response.statusText, headers });
}
