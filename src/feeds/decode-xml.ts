// Turns the bytes of an upstream XML document into text the way an XML processor must (XML 1.0,
// appendix F): a byte-order mark first, then the encoding declaration, UTF-8 when there is neither.
// Decoding a windows-1251 or GB2312 feed as UTF-8 would turn every Cyrillic or Chinese character into
// U+FFFD, and the writers then declare UTF-8, which makes the damage permanent.

import { XmlSafetyError } from './errors.js';

export interface DecodedXml {
  /** The document as text (without a byte-order mark). */
  text: string;
  /** The WHATWG name of the encoding that was used, e.g. `windows-1251`, `gbk`, `utf-16le`. */
  encoding: string;
  /** What was tolerated on the way (an unknown or wrong declaration), for the server log. */
  warnings: string[];
}

export interface DecodeXmlOptions {
  /** The upstream URL, named in messages. */
  url: string;
  /** "sitemap", "RSS feed": named in messages. */
  kind: string;
}

/** `encoding="..."` of an XML declaration at the start of ASCII-compatible text (after optional whitespace). */
const DECLARED = /^\s*<\?xml\s[^?>]{0,200}?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']/;

/** UTF-32 is not among the encodings TextDecoder knows; it is four bytes per code point, so decode it here. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const units: string[] = [];
  let chunk: number[] = [];
  for (let i = 0; i + 4 <= bytes.byteLength; i += 4) {
    const code = view.getUint32(i, littleEndian);
    chunk.push(code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);
    if (chunk.length === 8192) {
      units.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  units.push(String.fromCodePoint(...chunk));
  return units.join('');
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/** Whether the bytes are valid UTF-8. */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes an XML document's bytes by its byte-order mark or encoding declaration (UTF-8, UTF-16 and
 * UTF-32 in both byte orders, and every legacy encoding the WHATWG Encoding standard names: ISO-8859-x,
 * windows-125x, KOI8, GB2312/GBK/GB18030, Big5, Shift_JIS, EUC-JP/KR...). Tolerated, with a warning:
 * a declaration of UTF-16/32 on 8-bit text, and an unknown encoding name on bytes that are valid UTF-8.
 * A document without a declaration that is not valid UTF-8 is read as windows-1252, as browsers do.
 * Throws XmlSafetyError (reason 'encoding') for an unknown encoding on bytes that are not UTF-8.
 */
export function decodeXmlBytes(bytes: Uint8Array, opts: DecodeXmlOptions): DecodedXml {
  const warnings: string[] = [];
  const done = (text: string, encoding: string): DecodedXml => ({
    text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
    encoding,
    warnings,
  });
  // Byte-order marks and the UTF-16/32 patterns of "<?" (XML 1.0 appendix F.1). UTF-32 first: its
  // little-endian mark begins with UTF-16's.
  if (startsWith(bytes, [0xff, 0xfe, 0, 0]) || startsWith(bytes, [0x3c, 0, 0, 0]))
    return done(decodeUtf32(bytes, true), 'utf-32le');
  if (startsWith(bytes, [0, 0, 0xfe, 0xff]) || startsWith(bytes, [0, 0, 0, 0x3c]))
    return done(decodeUtf32(bytes, false), 'utf-32be');
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return done(new TextDecoder('utf-8').decode(bytes), 'utf-8');
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0x3c, 0, 0x3f, 0]))
    return done(new TextDecoder('utf-16le').decode(bytes), 'utf-16le');
  if (startsWith(bytes, [0xfe, 0xff]) || startsWith(bytes, [0, 0x3c, 0, 0x3f]))
    return done(new TextDecoder('utf-16be').decode(bytes), 'utf-16be');

  // ASCII-compatible: the declaration is readable as Latin-1 whatever the encoding.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 512)).toString('latin1');
  const label = DECLARED.exec(head)?.[1];
  if (label === undefined) {
    if (isUtf8(bytes)) return done(new TextDecoder('utf-8').decode(bytes), 'utf-8');
    warnings.push(
      `The ${opts.kind} at ${opts.url} declares no encoding and is not valid UTF-8: it was read as windows-1252 (Latin-1). Declare its encoding (<?xml version="1.0" encoding="..."?>) upstream.`,
    );
    return done(new TextDecoder('windows-1252').decode(bytes), 'windows-1252');
  }
  const decoder = decoderFor(label);
  if (decoder && !decoder.encoding.startsWith('utf-16')) return done(decoder.decode(bytes), decoder.encoding);
  if (decoder) {
    // Declared UTF-16 but written with one byte per ASCII character: the declaration is wrong.
    warnings.push(
      `The ${opts.kind} at ${opts.url} declares encoding "${label}" but is written in an 8-bit encoding: it was read as UTF-8.`,
    );
    return done(new TextDecoder('utf-8').decode(bytes), 'utf-8');
  }
  if (/^(?:ucs-?4|utf-?32)/i.test(label) && isUtf8(bytes)) {
    warnings.push(
      `The ${opts.kind} at ${opts.url} declares encoding "${label}" but is written in an 8-bit encoding: it was read as UTF-8.`,
    );
    return done(new TextDecoder('utf-8').decode(bytes), 'utf-8');
  }
  if (isUtf8(bytes)) {
    warnings.push(
      `The ${opts.kind} at ${opts.url} declares the unknown encoding "${label}"; its bytes are valid UTF-8, so it was read as UTF-8.`,
    );
    return done(new TextDecoder('utf-8').decode(bytes), 'utf-8');
  }
  throw new XmlSafetyError({
    url: opts.url,
    kind: opts.kind,
    reason: 'encoding',
    detail: `it declares the encoding "${label}", which is not a known character encoding, and its bytes are not UTF-8. Fix the encoding declaration upstream (e.g. encoding="ISO-8859-1" or "UTF-8").`,
  });
}

/**
 * Characters XML 1.0 forbids anywhere in a document: C0 controls other than tab, newline and carriage
 * return, unpaired surrogates, U+FFFE and U+FFFF.
 */
/* eslint-disable no-control-regex -- control characters are what this expression is about */
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

export interface CleanedXml {
  text: string;
  warnings: string[];
}

/**
 * The two repairs applied to every upstream document before it is checked, each with a warning:
 * - whitespace before the XML declaration (a blank line printed by a template before `<?xml`) is trimmed:
 *   strictly a well-formedness error, very common, and the document is otherwise intact;
 * - raw characters XML forbids (a NUL or form feed pasted into a title) are dropped: they carry nothing
 *   a reader could show, and strict readers would refuse the whole feed because of one.
 * Linear: one regex test in the common case where there is nothing to drop.
 */
export function cleanXmlText(input: string, opts: DecodeXmlOptions): CleanedXml {
  const warnings: string[] = [];
  let text = input;
  const first = text.search(/\S/);
  if (first > 0 && text.startsWith('<?xml', first)) {
    text = text.slice(first);
    warnings.push(
      `The ${opts.kind} at ${opts.url} has whitespace before its XML declaration; it was trimmed. Remove the blank line before <?xml upstream.`,
    );
  }
  FORBIDDEN.lastIndex = 0;
  if (FORBIDDEN.test(text)) {
    let dropped = 0;
    text = text.replace(FORBIDDEN, () => {
      dropped++;
      return '';
    });
    warnings.push(
      `The ${opts.kind} at ${opts.url} contains ${dropped} character${dropped === 1 ? '' : 's'} XML forbids (control characters such as U+0000); ${dropped === 1 ? 'it was' : 'they were'} dropped.`,
    );
  }
  return { text, warnings };
}
