// XML Base (`xml:base`, https://www.w3.org/TR/xmlbase/) for the feeds: a feed may declare the base of its
// relative links on the root, the channel or an item, and readers resolve them against it, not against the
// feed's own URL. Only an http(s) base counts: a `javascript:` or `data:` base would turn every relative link
// under it into a link of that scheme.

import { attributesOf, type XmlElement } from './xml-scan.js';

/**
 * The base declared in scope of an element (its own `xml:base` and its ancestors', each resolved against the
 * one around it, the outermost against `documentUrl`), or undefined when none is declared. Memoised per element.
 */
export function declaredBaseOf(xml: string, documentUrl: string): (element: XmlElement) => string | undefined {
  const memo = new WeakMap<XmlElement, string | null>();
  const baseOf = (element: XmlElement | undefined): string | undefined => {
    if (element === undefined) return undefined;
    const known = memo.get(element);
    if (known !== undefined) return known ?? undefined;
    const outer = baseOf(element.parent);
    const own = attributesOf(xml, element).find((a) => a.name === 'xml:base');
    let base = outer;
    if (own !== undefined) {
      const url = URL.parse(own.value.trim(), outer ?? documentUrl);
      if (url !== null && (url.protocol === 'https:' || url.protocol === 'http:')) base = url.href;
    }
    memo.set(element, base ?? null);
    return base;
  };
  return baseOf;
}

/** `value` resolved against `base` when it is a relative reference; as it is otherwise (or when unparseable). */
export function resolveAgainst(value: string, base: string | undefined): string {
  if (base === undefined || value === '' || URL.canParse(value)) return value;
  return URL.parse(value, base)?.href ?? value;
}
