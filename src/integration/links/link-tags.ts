/**
 * The link rewrite of the middleware, on a page's bytes as they stream: linear in the page's length on any
 * input, and safe at any chunk boundary. Works on a "binary" (latin1) string, one character per byte, so
 * every byte it does not rewrite comes out exactly as it came in, whatever the page's encoding; only an
 * ASCII `href` is ever rewritten (a service URL is ASCII; anything else is left as it is).
 */

import { ALLOWED_SCHEMES } from '../../html/policy.js';
import { rewriteUrl } from '../../html/urls.js';

/**
 * The new `href` of a link (absolute, ASCII), undefined to leave it, or '' to take it away (the link stays as
 * text: its article's page answers 404 everywhere); with the page's `<html lang>`, if any. A taken address is
 * parked in `data-unpublished-href`, and given back by a later pass whose target answers again (an article
 * published again, on a page an incremental build keeps).
 */
export type LinkTarget = (href: string, pageLanguage: string | undefined) => string | undefined;

/**
 * `target` asked once per link and page language: pages repeat their links (navigation, lists), and a sitemap
 * asks for each `<loc>` three times (what it lists, hreflang, the rewrite).
 */
export function memoLinkTarget(target: LinkTarget): (href: string, pageLanguage?: string) => string | undefined {
  const answers = new Map<string, string | undefined>();
  return (href, pageLanguage) => {
    const key = `${pageLanguage ?? ''} ${href}`;
    if (!answers.has(key)) answers.set(key, target(href, pageLanguage));
    return answers.get(key);
  };
}

/** What the scan has learnt of the page so far: its language, from its first `<html>` tag. */
export interface PageState {
  language?: string | undefined;
  seenHtml?: boolean;
}

/** An unfinished tag longer than this is passed through as text: the carry (and so any rescan) stays bounded. */
export const MAX_TAG_CHARS = 16 * 1024;

const LINK_START = /^<(?:a|area)[\s/>]/i;
const HTML_START = /^<html[\s>]/i;
// Within the <html> tag only: its `lang`, as src/html/article-links.ts reads it.
const HTML_LANG = /\slang\s*=\s*["']?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?)["'\s>]/i;
// Within one tag only (bounded by MAX_TAG_CHARS): the `href` attribute, quoted as the sanitiser writes it.
const HREF = /(\shref\s*=\s*)(["'])([^"'<>]*)\2/i;
// The address of a link whose article was unpublished, parked by an earlier pass.
const PARKED = /(\sdata-unpublished-href\s*=\s*)(["'])([^"'<>]*)\2/i;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether a parked address may come back as `href`: only one the sanitiser would have kept (src/html/urls.ts
 * under the policy's schemes). An article may write `data-unpublished-href` itself where its owner allows
 * `data-*` on `<a>`, and the sanitiser does not read that attribute as a URL: `//evil.example/login`, `tel:` or
 * `ftp:` would otherwise become a link the sanitiser removes. (The entities an attribute may hold are decoded
 * first, as a browser would: `jav&#x09;ascript:` is `jav\tascript:`.)
 */
function restorable(value: string): boolean {
  const decoded = value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (entity, name: string) => {
    if (name[0] !== '#') return name.toLowerCase() === 'amp' ? '&' : entity;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
  });
  return rewriteUrl(decoded, { base: undefined, origin: undefined, schemes: ALLOWED_SCHEMES }) !== undefined;
}

const decodeAttribute = (value: string) => value.replaceAll('&amp;', '&');
const encodeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

function rewriteTag(tag: string, target: LinkTarget, page: PageState): string {
  if (!page.seenHtml && HTML_START.test(tag)) {
    page.seenHtml = true;
    page.language = HTML_LANG.exec(tag)?.[1];
  }
  if (!LINK_START.test(tag)) return tag;
  const match = HREF.exec(tag) ?? PARKED.exec(tag);
  if (!match || match.index === undefined) return tag;
  const [whole, start = '', quote = '"', value = ''] = match;
  const parked = !/\shref/i.test(start);
  // A non-ASCII href (a raw UTF-8 slug) is read as UTF-8; bytes that are not UTF-8 leave the link alone.
  let href = value;
  if (!/^[\x20-\x7e]*$/.test(value)) {
    try {
      href = UTF8.decode(Buffer.from(value, 'latin1'));
    } catch {
      return tag;
    }
  }
  const next = target(decodeAttribute(href), page.language);
  const replace = (attribute: string) => tag.slice(0, match.index) + attribute + tag.slice(match.index + whole.length);
  // Still unpublished: parked as it is. Answering again: the address comes back (mapped, or as it was, where the
  // sanitiser would keep it).
  if (parked) {
    if (next === '' || (next === undefined && !restorable(href))) return tag;
    return replace(` href=${quote}${next === undefined ? value : encodeAttribute(next)}${quote}`);
  }
  if (next === '') return replace(` data-unpublished-href=${quote}${value}${quote}`);
  // The new href is ASCII (the blog's URL, percent-encoded), so it goes back into the bytes as is.
  // eslint-disable-next-line no-control-regex
  if (next === undefined || !/^[\x00-\x7f]*$/.test(next)) return tag;
  return replace(`${start}${quote}${encodeAttribute(next)}${quote}`);
}

/** How far the scan of an unfinished tag got: resumed there with the next chunk, so no byte is scanned twice. */
export interface ScanState {
  /** Index in the carried text up to which the tag was scanned. */
  scanned: number;
  /** The quote of the attribute value the scan is inside, or ''. */
  quote: string;
}

/**
 * Where the tag that starts at `from` (a "<") ends: the index after its ">", outside quoted values;
 * `state` when the text ends first. A tag longer than MAX_TAG_CHARS ends there (passed through as is).
 */
function tagEnd(text: string, from: number, resume: ScanState | undefined): number | ScanState {
  let quote = resume?.quote ?? '';
  const limit = from + MAX_TAG_CHARS;
  const stop = Math.min(text.length, limit);
  for (let i = resume?.scanned ?? from + 1; i < stop; i += 1) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      // A quote opens a value only right after "=" (and spaces): elsewhere it is just a character.
      let j = i - 1;
      while (j > from && i - j < 64 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r'))
        j -= 1;
      if (text[j] === '=') quote = c;
    } else if (c === '>') return i + 1;
  }
  return stop === limit ? limit : { scanned: stop, quote };
}

/**
 * Rewrites the links of `text` (the carry of the previous chunk, then this chunk) and returns what can be
 * sent now, and what must wait for the next chunk (a tag cut by the chunk boundary) with how far it was
 * scanned. With `final`, nothing waits.
 */
export function rewriteLinkChunk(
  text: string,
  target: LinkTarget,
  final: boolean,
  resume?: ScanState,
  page: PageState = {},
): { out: string; carry: string; state?: ScanState } {
  // The text is copied out only up to each tag that changes: a page whose links all stay is returned as it is.
  let out = '';
  let copied = 0;
  let pos = 0;
  let state = resume;
  for (;;) {
    const open = text.indexOf('<', pos);
    if (open === -1) return { out: out + text.slice(copied), carry: '' };
    const end = tagEnd(text, open, open === 0 ? state : undefined);
    state = undefined;
    if (typeof end !== 'number') {
      if (final) return { out: out + text.slice(copied), carry: '' };
      return {
        out: out + text.slice(copied, open),
        carry: text.slice(open),
        state: { scanned: end.scanned - open, quote: end.quote },
      };
    }
    // Only <a>, <area> and <html> tags are read (by their first letter, in either case).
    const first = text.charCodeAt(open + 1) | 0x20;
    if (first === 0x61 || first === 0x68) {
      const tag = text.slice(open, end);
      const next = rewriteTag(tag, target, page);
      if (next !== tag) {
        out += text.slice(copied, open) + next;
        copied = end;
      }
    }
    pos = end;
  }
}

/** A TransformStream of bytes that rewrites the links of an HTML page as it streams. */
export function linkRewriteStream(target: LinkTarget): TransformStream<Uint8Array, Uint8Array> {
  let carry = '';
  let state: ScanState | undefined;
  const page: PageState = {};
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, text: string) => {
    if (text) controller.enqueue(new Uint8Array(Buffer.from(text, 'latin1')));
  };
  return new TransformStream({
    transform(chunk, controller) {
      const result = rewriteLinkChunk(carry + Buffer.from(chunk).toString('latin1'), target, false, state, page);
      carry = result.carry;
      state = result.state;
      emit(controller, result.out);
    },
    flush(controller) {
      emit(controller, rewriteLinkChunk(carry, target, true, state, page).out);
    },
  });
}
