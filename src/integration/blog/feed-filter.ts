// Which entries of the upstream sitemap and feed name articles the blog does not have (pending, filtered out
// by the loader, another language): the blog must not list pages it never built. The routes' writers ask per
// <url> and <item> on the document's one parse (feed-transform.ts); only a feed a static build already wrote
// is cut as text (dropUnbuiltArticleItems), its one parse at the end of the build.

import {
  blogArticleRef,
  blogPageKey,
  blogUrlOfArticle,
  parseUrl,
  serviceArticleRef,
  type BlogLayout,
  type PageSet,
} from '../../html/article-links.js';
import { parseRssDocument, plainChildText } from '../../feeds/rss-parse.js';
import { splice, type Edit } from '../../feeds/splice.js';

export interface KnownArticles {
  /**
   * The slugs the blog has (every articles collection of the site, after filters and budget); undefined
   * without an articles loader (every article counts as had, and only its page decides).
   */
  slugs?: ReadonlySet<string> | undefined;
  /** Origins of the service's article URLs. */
  origins: readonly string[];
  /** The languages the blog has each slug in, when the loaders know them. */
  languages?: Readonly<Record<string, readonly string[]>> | undefined;
  /** The pages the build wrote (see `pageKey`), when known: an article without its page is not listed. */
  pages?: PageSet | undefined;
  /** Articles the service stopped publishing (see `ArticleLinkContext.unpublished`). */
  unpublished?: ReadonlySet<string> | undefined;
  /** Renamed articles (see `ArticleLinkContext.moved`). */
  moved?: ReadonlyMap<string, string> | undefined;
}

export interface FilterResult {
  xml: string;
  /** How many entries were left out. */
  dropped: number;
}

/**
 * Whether an entry whose link is the argument names a service article the blog does not have: not loaded, in
 * another language than the loaders', without a route in `layout` (a language the pattern map does not
 * name) or, when the built pages are known, without its page. Built once per document, asked per entry.
 */
export function missingArticleOf(known: KnownArticles, layout: BlogLayout): (link: string) => boolean {
  const ctx = {
    ...layout,
    serviceOrigins: known.origins,
    known: known.slugs,
    languages: known.languages,
    pages: known.pages,
  };
  return (link) => {
    const url = parseUrl(link);
    const ref = url === null ? undefined : serviceArticleRef(url, known.origins);
    return ref !== undefined && blogUrlOfArticle(ref, ctx) === undefined;
  };
}

/** A feed without the `<item>`s whose `<link>` is `missing`. */
function dropRssItems(
  body: string,
  opts: { url: string; maxBytes: number },
  missing: (link: string) => boolean,
): FilterResult {
  const doc = parseRssDocument(body, opts);
  const edits: Edit[] = [];
  for (const item of doc.items) {
    const link = plainChildText(doc.xml, item, 'link');
    if (link !== undefined && missing(link)) edits.push({ start: item.start, end: item.end, text: '' });
  }
  return { xml: edits.length === 0 ? doc.xml : splice(doc.xml, 0, doc.xml.length, edits), dropped: edits.length };
}

/**
 * A feed that a static build wrote, without the `<item>`s whose link is the blog's page of an article (under
 * `layout`) that the build did not write (`pages`, see pageKey). The feed route renders before the build
 * knows its pages: a theme may build fewer article pages than the loaders hold, or build them elsewhere
 * than the article pattern says.
 */
export function dropUnbuiltArticleItems(
  body: string,
  opts: { url: string; maxBytes: number },
  layout: BlogLayout,
  pages: PageSet,
): FilterResult {
  return dropRssItems(body, opts, (link) => {
    const url = parseUrl(link);
    return url !== null && blogArticleRef(url, layout) !== undefined && !pages.has(blogPageKey(url, layout.blogSite));
  });
}
