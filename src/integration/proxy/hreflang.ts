import {
  articleLanguage,
  articleLinkTarget,
  serviceArticleRef,
  type ArticleLinkContext,
} from '../../html/article-links.js';

/** One `<xhtml:link rel="alternate">` of a sitemap `<url>`. */
export interface HreflangLink {
  hreflang: string;
  href: string;
}

/**
 * The `hreflang` alternates of the blog's article pages, as @astrojs/sitemap's `i18n` option writes them:
 * the same article (one slug) listed in several languages, each at its own blog URL, gets on each of its
 * `<url>`s one link per language, itself included. An article in one language only gets none. `locs` are
 * the service URLs the sitemap lists; the answer is looked up by the blog URL they map to. `target` is
 * `articleLinkTarget` under `ctx` (the sitemap passes the one it has already asked).
 */
export function hreflangAlternates(
  locs: Iterable<string>,
  ctx: ArticleLinkContext,
  target: (loc: string) => string | undefined = (loc) => articleLinkTarget(loc, ctx),
): (blogUrl: string) => readonly HreflangLink[] {
  const bySlug = new Map<string, Map<string, string>>();
  for (const loc of locs) {
    if (!URL.canParse(loc)) continue;
    const ref = serviceArticleRef(new URL(loc), ctx.serviceOrigins);
    const href = target(loc);
    const language = ref === undefined ? undefined : articleLanguage(ref, ctx);
    if (ref === undefined || href === undefined || language === undefined) continue;
    const languages = bySlug.get(ref.slug) ?? new Map<string, string>();
    if (!languages.has(language)) languages.set(language, href);
    bySlug.set(ref.slug, languages);
  }
  const byUrl = new Map<string, HreflangLink[]>();
  for (const languages of bySlug.values()) {
    // Two languages at one URL (a pattern without [lang]) are one page: no alternates.
    if (new Set(languages.values()).size < 2) continue;
    const links = [...languages]
      .map(([hreflang, href]) => ({ hreflang, href }))
      .sort((a, b) => (a.hreflang < b.hreflang ? -1 : a.hreflang > b.hreflang ? 1 : 0));
    for (const link of links) byUrl.set(link.href, links);
  }
  return (blogUrl) => byUrl.get(blogUrl) ?? [];
}
