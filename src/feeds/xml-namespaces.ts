// Namespace resolution over the scanned element tree, linear in the document: each start tag's
// declarations are read once and cached, and a lookup walks at most SCAN_LIMITS.maxDepth ancestors.
// (Re-reading the root's start tag for every extension element made a 4 MB sitemap take 13 s.)

import { attributesOf, type XmlElement } from './xml-scan.js';

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';
export const SVG_NS = 'http://www.w3.org/2000/svg';
export const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RSS1_NS = 'http://purl.org/rss/1.0/';

/**
 * The namespaces feeds and sitemaps commonly use without declaring them (`itunes:` in podcast feeds
 * above all), by their conventional prefix. An undeclared prefix from this list is repaired by declaring
 * it; any other undeclared prefix makes its element unreadable, and it is dropped with a warning.
 */
export const WELL_KNOWN_NAMESPACES: Readonly<Record<string, string>> = {
  atom: 'http://www.w3.org/2005/Atom',
  content: 'http://purl.org/rss/1.0/modules/content/',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  sy: 'http://purl.org/rss/1.0/modules/syndication/',
  slash: 'http://purl.org/rss/1.0/modules/slash/',
  wfw: 'http://wellformedweb.org/CommentAPI/',
  itunes: 'http://www.itunes.com/dtds/podcast-1.0.dtd',
  googleplay: 'http://www.google.com/schemas/play-podcasts/1.0',
  podcast: 'https://podcastindex.org/namespace/1.0',
  media: 'http://search.yahoo.com/mrss/',
  georss: 'http://www.georss.org/georss',
  geo: 'http://www.w3.org/2003/01/geo/wgs84_pos#',
  feedburner: 'http://rssnamespace.org/feedburner/ext/1.0',
  creativeCommons: 'http://backend.userland.com/creativeCommonsRssModule',
  rdf: RDF_NS,
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  xhtml: XHTML_NS,
};

/** A namespace URI as compared with the well-known ones: feeds write `DTDs/Podcast-1.0.dtd`, `https:`, no final slash. */
export function namespaceKey(uri: string): string {
  return uri
    .trim()
    .toLowerCase()
    .replace(/^https:/, 'http:')
    .replace(/\/+$/, '');
}

const CANONICAL: ReadonlyMap<string, string> = new Map(
  Object.values(WELL_KNOWN_NAMESPACES).map((uri) => [namespaceKey(uri), uri]),
);

/** The well-known spelling of a namespace URI written in a variant spelling; other URIs unchanged. */
export function canonicalNamespace(uri: string): string {
  if (uri === XHTML_NS || uri === SVG_NS || uri === MATHML_NS) return uri;
  return CANONICAL.get(namespaceKey(uri)) ?? uri;
}

/** Namespaces whose elements a browser may turn into script or active content in an XML document. */
export const ACTIVE_NAMESPACES: ReadonlySet<string> = new Set([XHTML_NS, SVG_NS, MATHML_NS]);

/** Whether `xmlns` occurs in xml[start, end): a scan of the start tag without copying it (called per ancestor). */
function declaresNamespace(xml: string, start: number, end: number): boolean {
  for (let at = start; at + 5 <= end; at += 1)
    if (xml.charCodeAt(at) === 120 && xml.startsWith('xmlns', at)) return true;
  return false;
}

export class NamespaceResolver {
  readonly #xml: string;
  readonly #declared = new Map<XmlElement, ReadonlyMap<string, string> | null>();
  /** Undeclared prefixes met, and whether they were repaired from WELL_KNOWN_NAMESPACES. */
  readonly undeclared = new Map<string, boolean>();
  // The last resolution made by walking the ancestors: the children of that element (the <loc> and
  // <lastmod> of a <url>) that declare nothing themselves resolve the same way.
  #lastElement: XmlElement | undefined;
  #lastPrefix = '';
  #lastUri: string | undefined;

  constructor(xml: string) {
    this.#xml = xml;
  }

  #bindings(element: XmlElement): ReadonlyMap<string, string> | null {
    // Most start tags declare nothing: no entry is kept for them. The few that do (the root) are read once,
    // their URIs in the well-known spelling.
    if (!declaresNamespace(this.#xml, element.start, element.startTagEnd)) return null;
    let bindings = this.#declared.get(element);
    if (bindings !== undefined) return bindings;
    const map = new Map<string, string>();
    for (const a of attributesOf(this.#xml, element)) {
      if (a.name === 'xmlns') map.set('', a.value.trim() === '' ? '' : canonicalNamespace(a.value.trim()));
      else if (a.name.startsWith('xmlns:')) map.set(a.name.slice(6), canonicalNamespace(a.value.trim()));
    }
    bindings = map;
    this.#declared.set(element, bindings);
    return bindings;
  }

  /**
   * The namespace URI of a prefix in scope at an element ('' = the default namespace; '' as a result =
   * no namespace). Undeclared prefixes resolve to their well-known namespace, or undefined.
   */
  resolve(element: XmlElement, prefix = element.prefix): string | undefined {
    if (prefix === 'xml') return XML_NS;
    if (element.parent !== undefined && element.parent === this.#lastElement && prefix === this.#lastPrefix) {
      const own = this.#bindings(element)?.get(prefix);
      return own ?? this.#lastUri;
    }
    const uri = this.#walk(element, prefix);
    this.#lastElement = element;
    this.#lastPrefix = prefix;
    this.#lastUri = uri;
    return uri;
  }

  #walk(element: XmlElement, prefix: string): string | undefined {
    for (let el: XmlElement | undefined = element; el; el = el.parent) {
      const uri = this.#bindings(el)?.get(prefix);
      if (uri !== undefined) return uri;
    }
    if (prefix === '') return '';
    const known = WELL_KNOWN_NAMESPACES[prefix];
    this.undeclared.set(prefix, known !== undefined);
    return known;
  }
}
