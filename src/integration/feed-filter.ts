// Leaves out of the upstream sitemap and feed the articles the blog does not have (pending, filtered out by
// the loader, another language), before they are rewritten: the blog must not list pages it never built.
// String-level like the rewriters: only the dropped <url>/<item> ranges change.

import {
  blogArticleRef,
  blogPageKey,
  blogUrlOfArticle,
  parseUrl,
  serviceArticleRef,
  type BlogLayout,
  type PageSet,
} from '../html/article-links.js';
import { parseRssDocument } from '../feeds/rss-parse.js';
import { childNamed, parseSitemapDocument } from '../feeds/sitemap-parse.js';
import { splice, type Edit } from '../feeds/splice.js';
import { textOf, type XmlElement } from '../feeds/xml-scan.js';

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

// Only whether the blog has an article is asked when no layout is given: any route will do.
const ANY_LAYOUT: BlogLayout = {
  blogSite: 'https://blog.invalid/',
  articlePattern: '/[slug]/',
  trailingSlash: 'ignore',
};

/**
 * Whether an entry whose link is `link` names a service article the blog does not have: not loaded, in
 * another language than the loaders', without a route in `layout` (a language the pattern map does not
 * name) or, when the built pages are known, without its page.
 */
export function isMissingArticle(link: string, known: KnownArticles, layout: BlogLayout = ANY_LAYOUT): boolean {
  if (!URL.canParse(link)) return false;
  const ref = serviceArticleRef(new URL(link), known.origins);
  if (ref === undefined) return false;
  const ctx = { ...layout, serviceOrigins: known.origins, known: known.slugs, languages: known.languages };
  return blogUrlOfArticle(ref, { ...ctx, pages: layout === ANY_LAYOUT ? undefined : known.pages }) === undefined;
}

function dropElements(
  source: string,
  elements: readonly XmlElement[],
  linkOf: (el: XmlElement) => string | undefined,
  isMissing: (link: string) => boolean,
): FilterResult {
  const edits: Edit[] = [];
  for (const element of elements) {
    const link = linkOf(element);
    if (link !== undefined && isMissing(link)) edits.push({ start: element.start, end: element.end, text: '' });
  }
  return { xml: edits.length === 0 ? source : splice(source, 0, source.length, edits), dropped: edits.length };
}

/** The `<link>` of an RSS `<item>`. */
function itemLink(xml: string, item: XmlElement): string | undefined {
  const link = item.children.find((c) => c.prefix === '' && c.local === 'link');
  return link ? textOf(xml, link).trim() : undefined;
}

/** The upstream sitemap without the `<url>`s of articles the blog does not have. */
export function filterSitemapArticles(
  body: string,
  opts: { url: string; maxBytes: number },
  known: KnownArticles,
  layout?: BlogLayout,
): FilterResult {
  return filterSitemapUrls(body, opts, (link) => isMissingArticle(link, known, layout));
}

/** The upstream sitemap without the `<url>`s whose `<loc>` is `missing`. */
export function filterSitemapUrls(
  body: string,
  opts: { url: string; maxBytes: number },
  missing: (link: string) => boolean,
): FilterResult {
  const doc = parseSitemapDocument(body, opts);
  return dropElements(
    doc.xml,
    doc.urls,
    (url) => {
      const loc = childNamed(url, 'loc');
      return loc ? textOf(doc.xml, loc).trim() : undefined;
    },
    missing,
  );
}

/** The upstream feed without the `<item>`s of articles the blog does not have. */
export function filterRssArticles(
  body: string,
  opts: { url: string; maxBytes: number },
  known: KnownArticles,
  layout?: BlogLayout,
): FilterResult {
  return dropRssItems(body, opts, (link) => isMissingArticle(link, known, layout));
}

/** A feed without the `<item>`s whose `<link>` is `missing`. */
function dropRssItems(
  body: string,
  opts: { url: string; maxBytes: number },
  missing: (link: string) => boolean,
): FilterResult {
  const doc = parseRssDocument(body, opts);
  return dropElements(doc.xml, doc.items, (item) => itemLink(doc.xml, item), missing);
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
