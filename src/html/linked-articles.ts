import { parseUrl, serviceArticleRef } from './article-links.js';

// An `<a href>` of HTML written by sanitizeArticle: sanitize-html writes every attribute as name="value", with
// '"' and '&' escaped, so one pattern finds each link.
const LINK_HREF = /<a\s[^>]*?\bhref="([^"]*)"/gi;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&lt;': '<', '&gt;': '>', '&#39;': "'" };

/**
 * The slugs of the service's articles that an article links to (its HTML as `sanitizeArticle` wrote it: links are
 * absolute), each once, in the order of the links, at most `max`, `self` left out. The live loader tags an
 * article's page with them, so that an invalidation of one of them (an edit, or the service stopping to publish
 * it) also drops the cached pages that link to it.
 */
export function linkedServiceArticles(
  html: string,
  serviceOrigins: readonly string[],
  self: string,
  max: number,
): string[] {
  const slugs = new Set<string>();
  for (const [, raw] of html.matchAll(LINK_HREF)) {
    if (slugs.size >= max) break;
    const url = parseUrl(raw!.replace(/&(?:amp|quot|lt|gt|#39);/g, (entity) => ENTITIES[entity]!));
    const slug = url && serviceArticleRef(url, serviceOrigins)?.slug;
    if (slug && slug !== self) slugs.add(slug);
  }
  return [...slugs];
}
