// Leaves out of the upstream sitemap and feed the articles the blog does not have (pending, filtered out by
// the loader, another language), before they are rewritten: the blog must not list pages it never built.
// String-level like the rewriters: only the dropped <url>/<item> ranges change.

import { serviceArticleSlug } from '../html/article-links.js';
import { parseRssDocument } from '../feeds/rss-parse.js';
import { childNamed, parseSitemapDocument } from '../feeds/sitemap-parse.js';
import { splice, type Edit } from '../feeds/splice.js';
import { textOf, type XmlElement } from '../feeds/xml-scan.js';

export interface KnownArticles {
  /** The slugs the blog has (every articles collection of the site, after filters and budget). */
  slugs: ReadonlySet<string>;
  /** Origins of the service's article URLs. */
  origins: readonly string[];
  /** Each article's language, when the loaders know it. */
  languages?: Readonly<Record<string, string>> | undefined;
}

export interface FilterResult {
  xml: string;
  /** How many entries were left out. */
  dropped: number;
}

/** Whether an entry whose link is `link` names a service article the blog does not have. */
function isMissingArticle(link: string, known: KnownArticles): boolean {
  if (!URL.canParse(link)) return false;
  const slug = serviceArticleSlug(new URL(link), known.origins);
  return slug !== undefined && !known.slugs.has(slug);
}

function dropElements(
  source: string,
  elements: readonly XmlElement[],
  linkOf: (el: XmlElement) => string | undefined,
  known: KnownArticles,
): FilterResult {
  const edits: Edit[] = [];
  for (const element of elements) {
    const link = linkOf(element);
    if (link !== undefined && isMissingArticle(link, known))
      edits.push({ start: element.start, end: element.end, text: '' });
  }
  return { xml: edits.length === 0 ? source : splice(source, 0, source.length, edits), dropped: edits.length };
}

/** The upstream sitemap without the `<url>`s of articles the blog does not have. */
export function filterSitemapArticles(
  body: string,
  opts: { url: string; maxBytes: number },
  known: KnownArticles,
): FilterResult {
  const doc = parseSitemapDocument(body, opts);
  return dropElements(
    doc.xml,
    doc.urls,
    (url) => {
      const loc = childNamed(url, 'loc');
      return loc ? textOf(doc.xml, loc).trim() : undefined;
    },
    known,
  );
}

/** The upstream feed without the `<item>`s of articles the blog does not have. */
export function filterRssArticles(
  body: string,
  opts: { url: string; maxBytes: number },
  known: KnownArticles,
): FilterResult {
  const doc = parseRssDocument(body, opts);
  return dropElements(
    doc.xml,
    doc.items,
    (item) => {
      const link = item.children.find((c) => c.prefix === '' && c.local === 'link');
      return link ? textOf(doc.xml, link).trim() : undefined;
    },
    known,
  );
}
