import { XmlSafetyError } from './errors.js';
import { DEFAULT_MAX_RSS_BYTES, parseSafeXml, type SafeXmlDocument } from './safe-xml.js';
import type { ParseFeedOptions } from './sitemap-parse.js';
import { namespaceOf, textOf, type XmlElement } from './xml-scan.js';

export const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/';
export const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface RssItem {
  guid?: string;
  link?: string;
  title?: string;
  pubDate?: string;
  description?: string;
  contentEncoded?: string;
  /** The item's `<category>` texts, in order (trimmed, empty ones left out). */
  categories?: string[];
}

export interface RssFeed {
  title?: string;
  link?: string;
  items: RssItem[];
}

export interface RssDocument extends SafeXmlDocument {
  channel: XmlElement;
  /** `<item>` elements in document order (children of `<channel>` in RSS 2.0, of the root in RSS 1.0). */
  items: XmlElement[];
}

/** Safe-parses an RSS 2.0 (`<rss>`) or RSS 1.0 (`<rdf:RDF>`) document. Atom feeds are refused. */
export function parseRssDocument(xml: string | Uint8Array, opts: ParseFeedOptions): RssDocument {
  const doc = parseSafeXml(xml, { url: opts.url, kind: 'RSS feed', maxBytes: opts.maxBytes ?? DEFAULT_MAX_RSS_BYTES });
  const root = doc.root;
  if (root.local !== 'rss' && root.local !== 'RDF') {
    throw new XmlSafetyError({
      url: opts.url,
      kind: 'RSS feed',
      reason: 'unexpected-root',
      detail: `its root element is <${root.name}>, not an RSS 2.0 <rss><channel> or RSS 1.0 <rdf:RDF> feed${root.local === 'feed' ? ' (Atom feeds are not supported)' : ''}. Check that the URL points at the RSS feed.`,
    });
  }
  // A well-formed <rss> without a <channel> is an empty feed, not an error: it is read (and written) as
  // one with no channel data and no items.
  const channel = root.children.find((c) => c.local === 'channel') ?? root;
  const itemParent = root.local === 'rss' ? channel : root;
  return { ...doc, channel, items: itemParent.children.filter((c) => c.local === 'item') };
}

/** A direct, unprefixed child's trimmed text (an item's `<link>`). */
export function plainChildText(xml: string, parent: XmlElement, local: string): string | undefined {
  const element = parent.children.find((c) => c.prefix === '' && c.local === local);
  return element ? textOf(xml, element).trim() : undefined;
}

/** The `content:encoded` child, whatever prefix the feed binds to the content module namespace. */
export function contentEncodedOf(xml: string, item: XmlElement): XmlElement | undefined {
  return item.children.find(
    (c) => c.local === 'encoded' && (c.prefix === 'content' || namespaceOf(xml, c) === CONTENT_NS),
  );
}

/**
 * The channel title/link and every item (guid, link, title, pubDate, description, content:encoded, categories),
 * decoded and trimmed, in document order. Throws XmlSafetyError for unsafe or unusable XML.
 */
export function parseRssFeed(xml: string | Uint8Array, opts: ParseFeedOptions): RssFeed {
  const doc = parseRssDocument(xml, opts);
  const text = doc.xml;
  const feed: RssFeed = { items: [] };
  const title = plainChildText(text, doc.channel, 'title');
  const link = plainChildText(text, doc.channel, 'link');
  if (title !== undefined) feed.title = title;
  if (link !== undefined) feed.link = link;
  for (const element of doc.items) {
    const item: RssItem = {};
    for (const key of ['guid', 'link', 'title', 'pubDate', 'description'] as const) {
      const value = plainChildText(text, element, key);
      if (value !== undefined) item[key] = value;
    }
    const encoded = contentEncodedOf(text, element);
    if (encoded) item.contentEncoded = textOf(text, encoded).trim();
    const categories = element.children
      .filter((c) => c.prefix === '' && c.local === 'category')
      .map((c) => textOf(text, c).trim())
      .filter((category) => category !== '');
    if (categories.length > 0) item.categories = categories;
    feed.items.push(item);
  }
  return feed;
}
