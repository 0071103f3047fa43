/**
 * JSON-LD for a `<script type="application/ld+json">` element. The element's text ends at the first `</script`
 * whatever JSON says, and an HTML parser reads `<!--` inside it as the start of an escaped text state: so every
 * `<`, `>` and `&` is written as its JSON `\u` escape, which parses back to the same string and cannot close or
 * bend the element. U+2028 and U+2029 are escaped too (line terminators for older JavaScript parsers that
 * read the block as a script). Escaping at the JSON level, not the HTML level: `&lt;` inside the element would be
 * read literally by a JSON parser.
 */

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `value` as JSON text safe to put, as it is, inside a `<script type="application/ld+json">` element. */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c]!);
}
