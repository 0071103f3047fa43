// The plain syntax: a subset of XML that fast-xml-parser's XMLValidator (5.x, src/validator.js) always
// accepts, checked by the scanner as it goes. The validator walks the whole document a character at a
// time and was the costliest step of a 50,000-URL sitemap; it now runs only on documents the scanner
// did not find plain, so what it accepts and refuses is unchanged (test/unit/xml-plain.test.ts runs both
// on the corpora and on mutations of them). Each rule below is at least as strict as the validator:
// - outside the root element, only ' ', tab, CR and LF (the validator refuses any other character);
// - names are ASCII, `[A-Za-z_][A-Za-z0-9._:-]*` (a subset of its `isName`);
// - a start tag is `<name>`, `<name/>` or `<name` followed by attributes `name="v"` / `name='v'`, each
//   after whitespace, `=` with optional whitespace around it, and no name twice (it refuses repeats);
// - an end tag is `</name>` with only whitespace before `>`;
// - in text, every `&` starts `&lt;` `&gt;` `&amp;` `&apos;` `&quot;` `&#digits;` or `&#xhex;`;
// - `<!` starts only a comment or a CDATA section (both end where the validator ends them);
// - a processing instruction is neither `<?>` (which it ends at once) nor an `<?xml` declaration
//   after the start of the document (which it refuses).

/** ' ', tab, LF, CR: the whitespace of the validator's `isWhiteSpace`. */
export function isXmlSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** Whether xml[from, to) holds only XML whitespace. */
export function isSpaceOnly(xml: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isXmlSpace(xml.charCodeAt(i))) return false;
  return true;
}

function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

function isNameChar(code: number): boolean {
  // a-z A-Z _ 0-9 . : -
  return isNameStart(code) || (code >= 48 && code <= 58) || code === 46 || code === 45;
}

/** Whether xml[from, to) is a plain (ASCII) name. */
export function isPlainName(xml: string, from: number, to: number): boolean {
  if (to <= from || !isNameStart(xml.charCodeAt(from))) return false;
  for (let i = from + 1; i < to; i++) if (!isNameChar(xml.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether the part of a start tag after its name, xml[from, gt) where xml[gt] is the tag's `>`, is
 * plain: attributes with quoted values, each after whitespace, no name twice, an optional final `/`.
 */
export function isPlainAttributes(xml: string, from: number, gt: number): boolean {
  let names: string[] | Set<string> = [];
  let i = from;
  for (;;) {
    if (i === gt) return true;
    if (xml.charCodeAt(i) === 47 /* / */) return i + 1 === gt;
    if (!isXmlSpace(xml.charCodeAt(i))) return false;
    while (isXmlSpace(xml.charCodeAt(i))) i++;
    if (i === gt) return true;
    if (xml.charCodeAt(i) === 47 /* / */) return i + 1 === gt;
    const nameStart = i;
    if (!isNameStart(xml.charCodeAt(i))) return false;
    i++;
    while (isNameChar(xml.charCodeAt(i))) i++;
    const nameEnd = i;
    while (isXmlSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 61 /* = */) return false;
    i++;
    while (isXmlSpace(xml.charCodeAt(i))) i++;
    const quote = xml.charCodeAt(i);
    if (quote !== 34 && quote !== 39) return false;
    const close = xml.indexOf(quote === 34 ? '"' : "'", i + 1);
    if (close === -1 || close >= gt) return false;
    i = close + 1;
    const name = xml.slice(nameStart, nameEnd);
    // Most tags have a few attributes: a list; a root declaring hundreds of namespaces: a set.
    if (Array.isArray(names)) {
      if (names.includes(name)) return false;
      names.push(name);
      if (names.length > 16) names = new Set(names);
    } else {
      if (names.has(name)) return false;
      names.add(name);
    }
  }
}

const PLAIN_REFERENCE = /&(?:lt|gt|amp|apos|quot|#[0-9]+|#x[0-9a-fA-F]+);/y;

/** Whether the `&` at `at` starts a predefined entity or a character reference. */
export function isPlainReference(xml: string, at: number): boolean {
  PLAIN_REFERENCE.lastIndex = at;
  return PLAIN_REFERENCE.test(xml);
}

/** Whether the processing instruction at `lt` (`<?`) is one the validator skips as the scanner does. */
export function isPlainInstruction(xml: string, lt: number): boolean {
  if (xml.charCodeAt(lt + 2) === 62 /* > */) return false;
  if (lt === 0 || !xml.startsWith('xml', lt + 2)) return true;
  const after = xml.charCodeAt(lt + 5);
  return after !== 32 && after !== 63; /* ? */
}
