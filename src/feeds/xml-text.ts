// Text helpers for raw XML. Only the five predefined entities and numeric character references are
// decoded: documents declaring anything else are refused before we get here (see safe-xml.ts), and an
// unknown reference is left as literal text rather than guessed at.

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

const REFERENCE = /&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|apos|quot);/g;

/** Decodes entity and character references in raw XML character data or an attribute value. */
export function decodeXmlEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(REFERENCE, (whole, ref: string) => {
    if (ref.charCodeAt(0) !== 35 /* # */) return PREDEFINED[ref] ?? whole;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    // Out-of-range or NUL code points are not XML characters: keep the text as it was.
    if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return whole;
    return String.fromCodePoint(code);
  });
}

/** Escapes text for element content. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Escapes text for a double-quoted attribute value. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** Wraps text in CDATA, splitting any `]]>` it contains so the section cannot be closed early. */
export function toCdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
