// The one entry point for untrusted XML. Order matters: the size cap comes before any scanning, the
// DOCTYPE refusal before any parser sees the document (so no entity, internal or external, can ever be
// expanded), our offset scanner, then fast-xml-parser's validator where the scanner cannot vouch for
// the document (see xml-plain.ts).

import { XMLValidator } from 'fast-xml-parser';
import { cleanXmlText, decodeXmlBytes } from './decode-xml.js';
import { XmlSafetyError } from './errors.js';
import { scanReferences, type ReferenceScan } from './xml-references.js';
import { lineColumn, scanXmlDocument, XmlScanError, type XmlElement } from './xml-scan.js';

/** Default size cap for a sitemap: the sitemap protocol's own limit (50 MB uncompressed). */
export const DEFAULT_MAX_XML_BYTES = 50 * 1024 * 1024;
/** Default size cap for an RSS feed: 50 items never come near this. */
export const DEFAULT_MAX_RSS_BYTES = 10 * 1024 * 1024;

export interface SafeXmlOptions {
  /** The upstream URL, for messages. */
  url: string;
  /** What the document should be, for messages ("sitemap", "RSS feed"). */
  kind: string;
  /** Size cap in UTF-8 bytes. */
  maxBytes: number;
}

export interface SafeXmlDocument {
  /** The document text (without a byte-order mark). */
  xml: string;
  root: XmlElement;
  /**
   * Offsets of `&`s that start no predefined entity or valid character reference (`&nbsp;`, a bare `&`):
   * the validator accepts them, but copied verbatim they would make a rewritten document ill-formed.
   */
  strayAmpersands: number[];
  /** What was repaired or tolerated (encoding fallbacks, leading whitespace, dropped characters). */
  warnings: string[];
}

const QUOTED = `(?:"[^"<>]*"|'[^'<>]*')`;
/** A DOCTYPE with at most an external identifier and no internal subset. */
const EXTERNAL_DOCTYPE = new RegExp(
  `<!DOCTYPE\\s+[A-Za-z_][\\w:.-]*(?:\\s+(?:PUBLIC\\s+${QUOTED}\\s+${QUOTED}|PUBLIC\\s+${QUOTED}|SYSTEM\\s+${QUOTED}))?\\s*>`,
  'y',
);

const HTML_ROOT = /^<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/**
 * Whether the document starts like an HTML page (after an XML declaration, comments and whitespace).
 * Hand-written rather than one regex, whose nested lazy comment group backtracks exponentially.
 */
function looksLikeHtml(xml: string): boolean {
  let i = 0;
  const limit = Math.min(xml.length, 65_536);
  while (i < limit) {
    while (i < limit && /\s/.test(xml.charAt(i))) i++;
    if (xml.startsWith('<?', i)) {
      const close = xml.indexOf('?>', i + 2);
      if (close === -1) return false;
      i = close + 2;
    } else if (xml.startsWith('<!--', i)) {
      const close = xml.indexOf('-->', i + 4);
      if (close === -1) return false;
      i = close + 3;
    } else {
      return HTML_ROOT.test(xml.slice(i, i + 64));
    }
  }
  return false;
}

function fail(
  opts: SafeXmlOptions,
  reason: XmlSafetyError['reason'],
  detail: string,
  xml?: string,
  offset?: number,
): never {
  const at = xml !== undefined && offset !== undefined ? lineColumn(xml, offset) : undefined;
  throw new XmlSafetyError({ url: opts.url, kind: opts.kind, reason, detail, line: at?.line, column: at?.column });
}

/**
 * Offset of a `<!DOCTYPE` or `<!ENTITY` markup declaration, skipping CDATA sections and comments (an
 * article may quote "<!DOCTYPE html>" in its content). Linear: each section is jumped over with indexOf.
 */
function declarationOffset(xml: string): number {
  let i = 0;
  for (;;) {
    const at = xml.indexOf('<!', i);
    if (at === -1) return -1;
    if (xml.startsWith('<![CDATA[', at)) {
      const close = xml.indexOf(']]>', at + 9);
      if (close === -1) return -1; // unclosed: the well-formedness check refuses it
      i = close + 3;
    } else if (xml.startsWith('<!--', at)) {
      const close = xml.indexOf('-->', at + 4);
      if (close === -1) return -1;
      i = close + 3;
    } else {
      const word = xml.slice(at + 2, at + 8).toUpperCase();
      if (word === 'DOCTYP' || word === 'ENTITY') return at;
      i = at + 2;
    }
  }
}

/**
 * Escapes the stray `&`s found by `references` (each becomes `&amp;`) and updates `references` to what
 * scanning the escaped text finds: no stray `&`, and the same forbidden character reference, 4 characters
 * further on for each `&` escaped before it. (The inserted `amp;` holds none of the characters that open
 * or close a comment, CDATA section or processing instruction, nor does it fall inside a reference, so
 * nothing else the scan reads changes.) Joining the slices between the strays keeps a document with
 * millions of them linear and free of per-edit objects.
 */
function escapeStrayAmpersands(xml: string, references: ReferenceScan): string {
  const parts: string[] = [];
  let from = 0;
  let before = 0;
  for (const at of references.stray) {
    parts.push(xml.slice(from, at));
    from = at + 1;
    if (references.invalidCharacter !== -1 && at < references.invalidCharacter) before++;
  }
  parts.push(xml.slice(from));
  if (references.invalidCharacter !== -1) references.invalidCharacter += 4 * before;
  references.stray = [];
  return parts.join('&amp;');
}

/**
 * Checks and scans an untrusted XML document. Throws XmlSafetyError (naming the URL and the problem)
 * when it is over the size cap, empty, an HTML page, declares a DOCTYPE/entities, is not well-formed or
 * is truncated. Time and memory are linear in the (capped) input.
 */
export function parseSafeXml(input: string | Uint8Array, opts: SafeXmlOptions): SafeXmlDocument {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  // UTF-16 length is a lower bound of the UTF-8 size, so this rejects huge input without measuring it.
  if (size > opts.maxBytes || (typeof input === 'string' && Buffer.byteLength(input, 'utf8') > opts.maxBytes)) {
    fail(
      opts,
      'too-large',
      `it is ${typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : size} bytes, over the ${opts.maxBytes}-byte size cap. Nothing was parsed; raise the cap only if a file this large is expected.`,
    );
  }
  const decoded = typeof input === 'string' ? { text: input, warnings: [] } : decodeXmlBytes(input, opts);
  const cleaned = cleanXmlText(decoded.text.charCodeAt(0) === 0xfeff ? decoded.text.slice(1) : decoded.text, opts);
  const warnings = [...decoded.warnings, ...cleaned.warnings];
  let xml = cleaned.text;
  if (xml.trim() === '') fail(opts, 'empty', 'the response is empty. Check the URL and that the service is up.');
  if (looksLikeHtml(xml)) {
    fail(
      opts,
      'html',
      'it is an HTML page, not XML (the server probably answered an error or login page). Check the URL and the service status.',
    );
  }
  let declaration = declarationOffset(xml);
  if (declaration !== -1) {
    // `<!DOCTYPE rss PUBLIC "..." "http://my.netscape.com/...dtd">` (RSS 0.91) names an external DTD and
    // declares nothing itself: it is dropped, and the DTD is never fetched. An internal subset (`[...]`),
    // where entities are declared, is still refused.
    EXTERNAL_DOCTYPE.lastIndex = declaration;
    const external = EXTERNAL_DOCTYPE.exec(xml);
    if (external) {
      xml = xml.slice(0, declaration) + xml.slice(declaration + external[0].length);
      declaration = declarationOffset(xml);
    }
  }
  if (declaration !== -1) {
    fail(
      opts,
      'doctype',
      `it declares a DOCTYPE/entities (possible XML bomb or XXE). No entity was expanded. A ${opts.kind} never needs one; check that the URL points at the service's public feed.`,
      xml,
      declaration,
    );
  }
  // Our scanner runs first: it enforces the structural limits in linear time before the validator (which
  // is slow on pathological shapes) sees the document. On a structural error the validator's message is
  // preferred, being more precise.
  // Stray `&`s (`Fish & Chips`, `&nbsp;` copied from HTML) are escaped before anything parses the text:
  // they are the commonest defect of hand-made feeds, and as `&amp;` they read as what was meant.
  const references = scanReferences(xml);
  if (references.stray.length > 0) {
    xml = escapeStrayAmpersands(xml, references);
  }
  let root: XmlElement | undefined;
  let plain = false;
  let scanError: XmlScanError | undefined;
  try {
    ({ root, plain } = scanXmlDocument(xml));
  } catch (error) {
    if (!(error instanceof XmlScanError)) throw error;
    if (error.limit)
      fail(opts, 'too-complex', `it is not shaped like a ${opts.kind}: ${error.message}.`, xml, error.offset);
    scanError = error;
  }
  // A document in the plain syntax is one the validator accepts (see xml-plain.ts): it is not walked a
  // second time. Anything else, including every document the scanner refused, still goes through it.
  const valid = plain ? true : XMLValidator.validate(xml);
  if (valid !== true) {
    const { line, col } = valid.err;
    // Astro swaps the hint of a build error whose text names "document" or "window" for one about browser APIs
    // (generateHint in astro/dist/core/errors/dev/utils.js): the validator's "start of the document" says file.
    const msg = valid.err.msg.replace(/\bdocument\b/g, 'file');
    // The validator reports a document that stops early as unclosed tags: say "truncated", which is
    // what actually happens with a cut-off download.
    const truncated =
      (valid.err.code === 'InvalidXml' && msg.startsWith("Invalid '[")) || msg.startsWith('Unclosed tag');
    throw new XmlSafetyError({
      url: opts.url,
      kind: opts.kind,
      reason: truncated ? 'truncated' : 'not-well-formed',
      detail: truncated
        ? 'the XML ends before its elements are closed (it looks truncated: the download was probably cut off). Retry later.'
        : `it is not well-formed XML: ${msg}`,
      line: truncated ? undefined : line,
      column: truncated ? undefined : col,
    });
  }
  if (scanError || !root) {
    const error = scanError ?? new XmlScanError('there is no root element', 0, false);
    return fail(
      opts,
      error.truncated ? 'truncated' : 'not-well-formed',
      error.truncated
        ? `the XML looks truncated: ${error.message}. Retry later.`
        : `it is not well-formed XML: ${error.message}`,
      xml,
      error.offset,
    );
  }
  if (references.invalidCharacter !== -1) {
    const at = references.invalidCharacter;
    const reference = xml.slice(at, xml.indexOf(';', at) + 1);
    fail(
      opts,
      'not-well-formed',
      `it is not well-formed XML: the character reference ${reference} names a character XML does not allow.`,
      xml,
      at,
    );
  }
  return { xml, root, strayAmpersands: references.stray, warnings };
}
