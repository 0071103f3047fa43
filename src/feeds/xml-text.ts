// Text helpers for raw XML. Only the five predefined entities and numeric character references are
// decoded: documents declaring anything else are refused before we get here (see safe-xml.ts), and an
// unknown reference is left as literal text rather than guessed at.

/** The five predefined entities, as they follow the `&`. */
const PREDEFINED: ReadonlyArray<readonly [string, string]> = [
  ['amp;', '&'],
  ['lt;', '<'],
  ['gt;', '>'],
  ['quot;', '"'],
  ['apos;', "'"],
];

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
}

/**
 * The reference at `amp` (an `&`): its end and its text, or undefined when it is none of
 * `&#digits;`, `&#xhex;` and the five predefined entities.
 */
function referenceAt(raw: string, amp: number): { end: number; text: string } | undefined {
  if (raw.charCodeAt(amp + 1) === 35 /* # */) {
    const hex = raw.charCodeAt(amp + 2) === 120; /* x */
    const digits = hex ? amp + 3 : amp + 2;
    let end = digits;
    while (end < raw.length && (hex ? isHexDigit(raw.charCodeAt(end)) : isDigit(raw.charCodeAt(end)))) end++;
    if (end === digits || raw.charCodeAt(end) !== 59 /* ; */) return undefined;
    const code = Number.parseInt(raw.slice(digits, end), hex ? 16 : 10);
    // Out-of-range or NUL code points are not XML characters: keep the text as it was.
    if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return { end: end + 1, text: raw.slice(amp, end + 1) };
    return { end: end + 1, text: String.fromCodePoint(code) };
  }
  for (const [name, text] of PREDEFINED) if (raw.startsWith(name, amp + 1)) return { end: amp + 1 + name.length, text };
  return undefined;
}

/**
 * Decodes entity and character references in raw XML character data or an attribute value. A loop over
 * the `&`s rather than a replace with a callback: this runs for every value of a 50 MB sitemap.
 */
export function decodeXmlEntities(raw: string): string {
  let amp = raw.indexOf('&');
  if (amp === -1) return raw;
  let out = '';
  let from = 0;
  while (amp !== -1) {
    const reference = referenceAt(raw, amp);
    if (reference === undefined) {
      amp = raw.indexOf('&', amp + 1);
      continue;
    }
    out += raw.slice(from, amp) + reference.text;
    from = reference.end;
    amp = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

// Most values (every URL and date of a sitemap) have nothing to escape: a test is cheaper than a replace.
const TEXT_SPECIAL = /[&<>]/;
const ATTRIBUTE_SPECIAL = /[&<>"]/;

/** Escapes text for element content. */
export function escapeXmlText(text: string): string {
  if (!TEXT_SPECIAL.test(text)) return text;
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Escapes text for a double-quoted attribute value. */
export function escapeXmlAttribute(text: string): string {
  if (!ATTRIBUTE_SPECIAL.test(text)) return text;
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** Wraps text in CDATA, splitting any `]]>` it contains so the section cannot be closed early. */
export function toCdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
