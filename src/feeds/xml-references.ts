// The character and entity references of a document that make it ill-formed without a DTD, which
// fast-xml-parser's validator lets through: stray `&`s and references to characters XML forbids.

/** A reference that is well-formed without a DTD: the five predefined entities or a character reference. */
const DEFINED_REFERENCE = /&(?:lt|gt|amp|apos|quot|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/y;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

export interface ReferenceScan {
  /**
   * Offsets (ascending) of every `&` that starts no predefined entity and no character reference:
   * `&nbsp;`, `&uuml;` (HTML entities an upstream copied in) or a bare `&` in an attribute value.
   */
  stray: number[];
  /** Offset of the first character reference to a code point XML forbids (`&#26;`), or -1. */
  invalidCharacter: number;
}

/**
 * Finds the references in text and attribute values that make a document without a DTD ill-formed, which
 * fast-xml-parser's validator lets through. Stray `&`s are escaped to `&amp;` by the rewriters (the text
 * then shows literally; nothing is expanded); a reference to a forbidden character is refused by the
 * caller. CDATA sections, comments and processing instructions are skipped: an `&` there is literal
 * already. Linear: a document without `&` costs one indexOf.
 */
export function scanReferences(xml: string): ReferenceScan {
  const result: ReferenceScan = { stray: [], invalidCharacter: -1 };
  let amp = xml.indexOf('&');
  if (amp === -1) return result;
  let comment = xml.indexOf('<!');
  let pi = xml.indexOf('<?');
  while (amp !== -1) {
    const section = comment === -1 ? pi : pi === -1 ? comment : Math.min(comment, pi);
    if (section !== -1 && section < amp) {
      let end = section + 2;
      if (xml.startsWith('<!--', section)) end = xml.indexOf('-->', section + 4) + 3;
      else if (xml.startsWith('<![CDATA[', section)) end = xml.indexOf(']]>', section + 9) + 3;
      else if (section === pi) end = xml.indexOf('?>', section + 2) + 2;
      if (end < section + 2) return result; // unclosed: the document was refused before this runs
      if (comment !== -1 && comment < end) comment = xml.indexOf('<!', end);
      if (pi !== -1 && pi < end) pi = xml.indexOf('<?', end);
      if (amp < end) amp = xml.indexOf('&', end);
      continue;
    }
    DEFINED_REFERENCE.lastIndex = amp;
    const ref = DEFINED_REFERENCE.exec(xml);
    if (!ref) {
      result.stray.push(amp);
    } else if (result.invalidCharacter === -1 && (ref[1] !== undefined || ref[2] !== undefined)) {
      const code = ref[1] !== undefined ? Number.parseInt(ref[1], 10) : Number.parseInt(ref[2] ?? '', 16);
      if (!isXmlChar(code)) result.invalidCharacter = amp;
    }
    amp = xml.indexOf('&', amp + 1);
  }
  return result;
}
