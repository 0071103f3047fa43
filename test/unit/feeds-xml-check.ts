// Namespace-aware well-formedness for the feed tests: @xmldom/xmldom with every error fatal, plus the
// character check it does not make (raw characters XML forbids).
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/* eslint-disable no-control-regex -- control characters are what this expression is about */
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */
export const ACTIVE_NAMESPACES = [
  'http://www.w3.org/1999/xhtml',
  'http://www.w3.org/2000/svg',
  'http://www.w3.org/1998/Math/MathML',
];

/** Parses namespace-aware; throws on any error or warning and on a character XML forbids. */
export function parseStrict(xml: string): Document {
  const bad = FORBIDDEN.exec(xml);
  if (bad)
    throw new Error(`forbidden character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index}`);
  return new DOMParser({
    onError: (level: string, message: string) => {
      // Warnings (a U+FFFD the upstream itself carried) are not well-formedness errors.
      if (level !== 'warning') throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

/** Every element of the document, depth first. */
export function elements(doc: Document): Element[] {
  const out: Element[] = [];
  const walk = (el: Element): void => {
    out.push(el);
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walk(c as Element);
  };
  if (doc.documentElement) walk(doc.documentElement);
  return out;
}

/** Elements in the XHTML, SVG or MathML namespace, and processing instructions (`<?xml-stylesheet?>`). */
export function activeContent(doc: Document): string[] {
  const found = elements(doc)
    .filter(
      (e) =>
        ACTIVE_NAMESPACES.includes(e.namespaceURI ?? '') &&
        !(
          e.localName === 'link' &&
          e.namespaceURI === ACTIVE_NAMESPACES[0] &&
          !e.firstChild &&
          [...Array.from(e.attributes)].every((a) => ['rel', 'hreflang', 'href'].includes(a.name))
        ),
    )
    .map((e) => e.tagName);
  for (let c = doc.firstChild; c; c = c.nextSibling)
    if (c.nodeType === 7 && (c as unknown as { target: string }).target !== 'xml')
      found.push(`<?${(c as unknown as { target: string }).target}?>`);
  return found;
}

/** How many elements of a namespace and local name. */
export function countNs(doc: Document, ns: string, local: string): number {
  return doc.getElementsByTagNameNS(ns, local).length;
}
