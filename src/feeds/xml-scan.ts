// A minimal, linear tokenizer that turns an already-validated XML string into an element tree with source
// offsets. We keep offsets instead of values so the rewriters can splice new URLs into the original text
// and leave everything else byte-for-byte intact (CDATA, comments, prefixes, extension elements), and
// because it is several times faster than an order-preserving parse + build of a 50,000-URL sitemap.
// It never expands anything: entity references stay as raw text until a caller decodes a value.

import { isPlainAttributes, isPlainInstruction, isPlainName, isPlainReference, isSpaceOnly } from './xml-plain.js';
import { decodeXmlEntities } from './xml-text.js';

export interface XmlElement {
  /** Qualified name as written, e.g. `xhtml:link`. */
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  /** Offset of `<` of the start tag. */
  readonly start: number;
  /** Offset just after the start tag's `>`. */
  readonly startTagEnd: number;
  /** Offset of the end tag's `<` (equals startTagEnd for an empty-element tag). */
  contentEnd: number;
  /** Offset just after the end tag's `>`. */
  end: number;
  readonly parent: XmlElement | undefined;
  /** Set when the element closes; elements without children share one frozen empty array. */
  children: readonly XmlElement[];
}

export interface XmlAttribute {
  name: string;
  /** Decoded value. */
  value: string;
  /** Offsets of the raw value, between the quotes. */
  valueStart: number;
  valueEnd: number;
}

export class XmlScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly truncated: boolean,
    /** A structural limit was exceeded (the document may be well-formed, but it is not a feed). */
    readonly limit = false,
  ) {
    super(message);
  }
}

/**
 * Structural limits. Sitemaps and RSS feeds are a few levels deep with short tags (article HTML sits in
 * CDATA or escaped text, not in elements), while very deep nesting or megabyte-long start tags make every
 * XML parser, fast-xml-parser's validator included, slow and memory-hungry: refuse them up front.
 */
export const SCAN_LIMITS = { maxDepth: 64, maxTagLength: 64 * 1024 } as const;

function isNameEnd(code: number): boolean {
  // whitespace, '/', '>'
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 47 || code === 62;
}

/** Index just after the `>` closing a tag opened at `from`, skipping quoted attribute values. */
function tagEnd(xml: string, from: number): number {
  let quote = 0;
  for (let i = from; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      quote = c;
    } else if (c === 62) {
      return i + 1;
    }
  }
  return -1;
}

function skipTo(xml: string, from: number, marker: string, what: string): number {
  const at = xml.indexOf(marker, from);
  if (at === -1) throw new XmlScanError(`${what} is never closed`, from, true);
  return at + marker.length;
}

const NO_CHILDREN: readonly XmlElement[] = Object.freeze([]);

interface QualifiedName {
  name: string;
  prefix: string;
  local: string;
}

/**
 * The name written at xml[from, to), split at its first colon. A document repeats a few names thousands
 * of times (`url`, `loc`, `lastmod`): the last 16 different ones are compared in place and shared
 * rather than sliced again for every element.
 */
function qualifiedName(xml: string, from: number, to: number, recent: QualifiedName[]): QualifiedName {
  const length = to - from;
  for (const known of recent) if (known.name.length === length && xml.startsWith(known.name, from)) return known;
  const name = xml.slice(from, to);
  const colon = name.indexOf(':');
  const found = {
    name,
    prefix: colon === -1 ? '' : name.slice(0, colon),
    local: colon === -1 ? name : name.slice(colon + 1),
  };
  recent.unshift(found);
  if (recent.length > 16) recent.pop();
  return found;
}

export interface ScannedXml {
  root: XmlElement;
  /** The document is in the plain syntax (xml-plain.ts), which fast-xml-parser's validator accepts. */
  plain: boolean;
}

/** Builds the element tree of a single-rooted document. Throws XmlScanError on structural problems. */
export function scanXml(xml: string): XmlElement {
  return scanXmlDocument(xml).root;
}

/**
 * Builds the element tree of a single-rooted document and tells whether it is in the plain syntax.
 * Throws XmlScanError on structural problems.
 */
export function scanXmlDocument(xml: string): ScannedXml {
  let root: XmlElement | undefined;
  const stack: XmlElement[] = [];
  // The children of the open elements, in order; each element's own run starts at its childStart.
  // Copied out when the element closes: arrays of the exact size, none for the leaves.
  const pending: XmlElement[] = [];
  const childStart: number[] = [];
  const names: QualifiedName[] = [];
  let i = 0;
  let plain = true;
  // The next `&` at or after the current text; found again only once the scan has passed it (linear).
  let amp = xml.indexOf('&');
  for (;;) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? xml.length : lt;
    if (plain && textEnd > i) {
      if (stack.length === 0) {
        plain = isSpaceOnly(xml, i, textEnd);
      } else if (amp !== -1 && amp < textEnd) {
        if (amp < i) amp = xml.indexOf('&', i);
        while (amp !== -1 && amp < textEnd) {
          if (!isPlainReference(xml, amp)) plain = false;
          amp = xml.indexOf('&', amp + 1);
        }
      }
    }
    if (lt === -1) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) i = skipTo(xml, lt + 4, '-->', 'A comment');
      else if (xml.startsWith('<![CDATA[', lt)) i = skipTo(xml, lt + 9, ']]>', 'A CDATA section');
      else {
        i = skipTo(xml, lt + 2, '>', 'A declaration');
        plain = false;
      }
      continue;
    }
    if (next === 63 /* ? */) {
      i = skipTo(xml, lt + 2, '?>', 'A processing instruction');
      if (plain) plain = isPlainInstruction(xml, lt);
      continue;
    }
    if (next === 47 /* / */) {
      const gt = xml.indexOf('>', lt);
      if (gt === -1) throw new XmlScanError('an end tag is never closed', lt, true);
      const open = stack.pop();
      // Compare in place rather than slicing: this runs once per element of a 50,000-URL sitemap.
      const after = open ? lt + 2 + open.name.length : 0;
      if (!open || !xml.startsWith(open.name, lt + 2) || (after !== gt && xml.slice(after, gt).trim() !== '')) {
        const name = xml.slice(lt + 2, gt).trim();
        throw new XmlScanError(`unexpected end tag </${name}>${open ? ` (expected </${open.name}>)` : ''}`, lt, false);
      }
      if (plain && after !== gt) plain = isSpaceOnly(xml, after, gt);
      const first = childStart.pop() ?? pending.length;
      if (pending.length > first) {
        open.children = pending.slice(first);
        pending.length = first;
      }
      open.contentEnd = lt;
      open.end = gt + 1;
      i = gt + 1;
      continue;
    }
    let n = lt + 1;
    while (n < xml.length && !isNameEnd(xml.charCodeAt(n))) n++;
    const { name, prefix, local } = qualifiedName(xml, lt + 1, n, names);
    const end = tagEnd(xml, n);
    if (end === -1) throw new XmlScanError(`the start tag <${name}> is never closed`, lt, true);
    if (end - lt > SCAN_LIMITS.maxTagLength) {
      throw new XmlScanError(
        `the start tag <${name.slice(0, 40)}> is ${end - lt} characters long (limit ${SCAN_LIMITS.maxTagLength})`,
        lt,
        false,
        true,
      );
    }
    if (stack.length >= SCAN_LIMITS.maxDepth) {
      throw new XmlScanError(`elements are nested more than ${SCAN_LIMITS.maxDepth} levels deep`, lt, false, true);
    }
    const parent = stack[stack.length - 1];
    if (!parent && root) throw new XmlScanError(`a second root element <${name}> follows <${root.name}>`, lt, false);
    const element: XmlElement = {
      name,
      prefix,
      local,
      start: lt,
      startTagEnd: end,
      contentEnd: end,
      end,
      parent,
      children: NO_CHILDREN,
    };
    if (parent) pending.push(element);
    else root = element;
    if (xml.charCodeAt(end - 2) !== 47 /* / */) {
      stack.push(element);
      childStart.push(pending.length);
    }
    if (plain) plain = isPlainName(xml, lt + 1, n) && (end - 1 === n || isPlainAttributes(xml, n, end - 1));
    i = end;
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) throw new XmlScanError(`<${unclosed.name}> is never closed`, unclosed.start, true);
  if (!root) throw new XmlScanError('there is no root element', 0, false);
  return { root, plain };
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The attributes of an element's start tag, with decoded values and raw value offsets. */
export function attributesOf(xml: string, element: XmlElement): XmlAttribute[] {
  const nameEnd = element.start + 1 + element.name.length;
  const raw = xml.slice(nameEnd, element.startTagEnd - 1);
  const out: XmlAttribute[] = [];
  for (const match of raw.matchAll(ATTRIBUTE)) {
    const value = match[2] ?? match[3] ?? '';
    const valueStart = nameEnd + match.index + match[0].length - 1 - value.length;
    out.push({
      name: match[1] ?? '',
      value: decodeXmlEntities(value),
      valueStart,
      valueEnd: valueStart + value.length,
    });
  }
  return out;
}

export function attribute(xml: string, element: XmlElement, name: string): XmlAttribute | undefined {
  return attributesOf(xml, element).find((a) => a.name === name);
}

/** The namespace URI bound to a prefix ('' = default namespace) in scope at an element. */
export function namespaceOf(xml: string, element: XmlElement, prefix = element.prefix): string | undefined {
  const declaration = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  for (let el: XmlElement | undefined = element; el; el = el.parent) {
    // Cheap pre-check: most start tags declare nothing.
    if (!xml.slice(el.start, el.startTagEnd).includes('xmlns')) continue;
    const found = attribute(xml, el, declaration);
    if (found) return found.value;
  }
  return undefined;
}

/**
 * The character data of an element: text with references decoded, CDATA sections taken literally,
 * comments and processing instructions dropped (child elements' text is included, which never matters
 * for the leaf elements we read).
 */
export function textOf(xml: string, element: XmlElement): string {
  const raw = xml.slice(element.startTagEnd, element.contentEnd);
  if (!raw.includes('<')) return decodeXmlEntities(raw);
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const lt = raw.indexOf('<', i);
    if (lt === -1) {
      out += decodeXmlEntities(raw.slice(i));
      break;
    }
    out += decodeXmlEntities(raw.slice(i, lt));
    if (raw.startsWith('<![CDATA[', lt)) {
      const close = raw.indexOf(']]>', lt + 9);
      out += raw.slice(lt + 9, close);
      i = close + 3;
    } else if (raw.startsWith('<!--', lt)) {
      i = raw.indexOf('-->', lt + 4) + 3;
    } else if (raw.startsWith('<?', lt)) {
      i = raw.indexOf('?>', lt + 2) + 2;
    } else {
      i = tagEnd(raw, lt + 1);
    }
    if (i <= 0) break;
  }
  return out;
}

/** Whether an element's content is exactly one CDATA section (plus surrounding whitespace). */
export function isSingleCdata(xml: string, element: XmlElement): boolean {
  const raw = xml.slice(element.startTagEnd, element.contentEnd).trim();
  return raw.startsWith('<![CDATA[') && raw.endsWith(']]>') && raw.indexOf(']]>') === raw.length - 3;
}

/** 1-based line and column of an offset. */
export function lineColumn(xml: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = xml.indexOf('\n'); i !== -1 && i < offset; i = xml.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
