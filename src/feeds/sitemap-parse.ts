import { XmlSafetyError } from './errors.js';
import { DEFAULT_MAX_XML_BYTES, parseSafeXml, type SafeXmlDocument } from './safe-xml.js';
import { textOf, type XmlElement } from './xml-scan.js';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface ParseFeedOptions {
  /** The upstream URL, named in every error message. */
  url: string;
  /**
   * Size cap in UTF-8 bytes; larger documents are refused before parsing.
   * @default DEFAULT_MAX_XML_BYTES (50 MB) for sitemaps, DEFAULT_MAX_RSS_BYTES (10 MB) for RSS
   */
  maxBytes?: number;
}

export interface SitemapDocument extends SafeXmlDocument {
  /** The `<url>` elements, in document order. */
  urls: XmlElement[];
}

/** The first direct child with a local name, in the same namespace prefix as its parent. */
export function childNamed(parent: XmlElement, local: string, prefix = parent.prefix): XmlElement | undefined {
  return parent.children.find((c) => c.local === local && c.prefix === prefix);
}

// Callers of the public API commonly read the entries and then rewrite the same body (parseSitemapEntries,
// then rewriteSitemap): a one-slot memo makes the second safe parse of a 50,000-URL sitemap free. (The routes
// parse with parseAnySitemap and write from that one tree.)
// The tree is never mutated after scanning, so sharing it is safe; only the latest document is retained.
let memo: { xml: string | Uint8Array; url: string; maxBytes: number | undefined; doc: SitemapDocument } | undefined;

/**
 * Safe-parses a `<urlset>` sitemap. An upstream `<sitemapindex>` is refused (reason 'sitemap-index'):
 * the service publishes one urlset per site, and proxying an index would mean fetching its children.
 */
export function parseSitemapDocument(xml: string | Uint8Array, opts: ParseFeedOptions): SitemapDocument {
  if (memo && memo.xml === xml && memo.url === opts.url && memo.maxBytes === opts.maxBytes) return memo.doc;
  const doc = parseSitemapDocumentUncached(xml, opts);
  memo = { xml, url: opts.url, maxBytes: opts.maxBytes, doc };
  return doc;
}

/** Safe-parses a sitemap that may be a `<urlset>` or a `<sitemapindex>`; anything else is refused. */
export function parseAnySitemap(xml: string | Uint8Array, opts: ParseFeedOptions): SafeXmlDocument {
  const doc = parseSafeXml(xml, { url: opts.url, kind: 'sitemap', maxBytes: opts.maxBytes ?? DEFAULT_MAX_XML_BYTES });
  if (doc.root.local !== 'urlset' && doc.root.local !== 'sitemapindex') {
    throw new XmlSafetyError({
      url: opts.url,
      kind: 'sitemap',
      reason: 'unexpected-root',
      detail: `its root element is <${doc.root.name}>, not <urlset> or <sitemapindex> (the sitemap 0.9 format). Check that the URL points at a sitemap.`,
    });
  }
  return doc;
}

/** The `<sitemap>` entries of a sitemap index: each part's `<loc>` and `<lastmod>`, in order. */
export function sitemapIndexEntries(doc: SafeXmlDocument): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  for (const sitemap of doc.root.children) {
    if (sitemap.local !== 'sitemap' || sitemap.prefix !== doc.root.prefix) continue;
    const locElement = childNamed(sitemap, 'loc');
    const loc = locElement ? textOf(doc.xml, locElement).trim() : '';
    if (loc === '') continue;
    const lastmodElement = childNamed(sitemap, 'lastmod');
    const lastmod = lastmodElement ? textOf(doc.xml, lastmodElement).trim() : '';
    entries.push(lastmod === '' ? { loc } : { loc, lastmod });
  }
  return entries;
}

/** The `<url>` elements of a parsed urlset. */
export function urlsetDocument(doc: SafeXmlDocument): SitemapDocument {
  return { ...doc, urls: doc.root.children.filter((c) => c.local === 'url' && c.prefix === doc.root.prefix) };
}

function parseSitemapDocumentUncached(xml: string | Uint8Array, opts: ParseFeedOptions): SitemapDocument {
  const doc = parseSafeXml(xml, { url: opts.url, kind: 'sitemap', maxBytes: opts.maxBytes ?? DEFAULT_MAX_XML_BYTES });
  const root = doc.root;
  if (root.local === 'sitemapindex') {
    throw new XmlSafetyError({
      url: opts.url,
      kind: 'sitemap',
      reason: 'sitemap-index',
      detail:
        "it is a <sitemapindex>, not a <urlset>. Read it with parseAnySitemap() and fetch its parts, or point at one urlset (the service's per-site sitemap, /api/sites/<id>/sitemap.xml).",
    });
  }
  if (root.local !== 'urlset') {
    throw new XmlSafetyError({
      url: opts.url,
      kind: 'sitemap',
      reason: 'unexpected-root',
      detail: `its root element is <${root.name}>, not <urlset> (the sitemap 0.9 format). Check that the URL points at a sitemap.`,
    });
  }
  return urlsetDocument(doc);
}

/**
 * The `<loc>`/`<lastmod>` of every `<url>` of an upstream sitemap (values trimmed and decoded), in
 * document order. Entries without a `<loc>` are skipped. Throws XmlSafetyError for unsafe or unusable XML.
 */
export function parseSitemapEntries(xml: string | Uint8Array, opts: ParseFeedOptions): SitemapEntry[] {
  const doc = parseSitemapDocument(xml, opts);
  const entries: SitemapEntry[] = [];
  for (const url of doc.urls) {
    const locElement = childNamed(url, 'loc');
    const loc = locElement ? textOf(doc.xml, locElement).trim() : '';
    if (loc === '') continue;
    const lastmodElement = childNamed(url, 'lastmod');
    const lastmod = lastmodElement ? textOf(doc.xml, lastmodElement).trim() : '';
    entries.push(lastmod === '' ? { loc } : { loc, lastmod });
  }
  return entries;
}
