/**
 * URL decisions shared by the transforms. sanitize-html re-checks every URL attribute after the
 * transforms run, so these functions normalise and resolve; they are not the last line of defence.
 */

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
// Browsers ignore ASCII control characters and spaces inside a URL's scheme ("java\tscript:"),
// and treat "\" like "/" in http(s) URLs ("/\evil.com" is protocol-relative).
// eslint-disable-next-line no-control-regex
const IGNORED = /[\x00-\x20]+/g;

/** Per-article context: the article's URL (base for relative URLs) and its origin. */
export interface UrlContext {
  /** Normalised article URL (a string: URL objects as bases are re-serialised on every resolution). */
  base: string | undefined;
  /** Its origin, e.g. "https://blog.example.com". */
  origin: string | undefined;
  schemes: readonly string[];
}

/** Parses `articleUrl`; an unusable value is ignored so that remote data cannot fail a build. */
export function parseArticleUrl(articleUrl: string | undefined): { base: string; origin: string } | undefined {
  if (!articleUrl) return undefined;
  // Re-sanitising the same article (or a batch under one URL) skips the URL parser.
  if (articleUrl === lastArticleUrl) return lastParsed;
  let parsed: { base: string; origin: string } | undefined;
  try {
    const url = new URL(articleUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') parsed = { base: url.href, origin: url.origin };
  } catch {
    parsed = undefined;
  }
  lastArticleUrl = articleUrl;
  lastParsed = parsed;
  return parsed;
}
let lastArticleUrl: string | undefined;
let lastParsed: { base: string; origin: string } | undefined;

// A root-relative path made only of characters the URL parser leaves alone and without "." or ".."
// segments resolves to origin + path: skip the parser for the most common relative link.
const PLAIN_ROOT_PATH = /^\/(?![/\\])[A-Za-z0-9.\-_~!$&()*+,;=:@/?#]*$/;
const DOT_SEGMENT = /(^|\/)\.\.?(?=[/?#]|$)/;

/**
 * Returns the URL to write (relative ones resolved against the article when known), or undefined
 * when the attribute must go: protocol-relative URLs, schemes outside the policy, unparseable values.
 */
export function rewriteUrl(value: string, ctx: UrlContext): string | undefined {
  const trimmed = value.trim();
  // Most values are absolute http(s) URLs: with the scheme spelled plainly, the checks below would
  // find exactly this scheme, so decide at once.
  if (trimmed.startsWith('https:')) return ctx.schemes.includes('https') ? trimmed : undefined;
  if (trimmed.startsWith('http:')) return ctx.schemes.includes('http') ? trimmed : undefined;
  const probe = trimmed.replace(IGNORED, '');
  if (probe === '') return undefined;
  if (/^[/\\]{2}/.test(probe)) return undefined;
  const scheme = SCHEME.exec(probe);
  if (scheme) return ctx.schemes.includes(scheme[1]!.toLowerCase()) ? trimmed : undefined;
  if (probe.startsWith('#') || !ctx.base) return trimmed;
  if (ctx.origin && PLAIN_ROOT_PATH.test(trimmed) && !DOT_SEGMENT.test(trimmed.split(/[?#]/, 1)[0]!)) {
    return ctx.origin + trimmed;
  }
  try {
    return new URL(trimmed, ctx.base).href;
  } catch {
    return undefined;
  }
}

/** True when `url` (already rewritten) points to another origin than the article's. */
export function isExternal(url: string, ctx: UrlContext): boolean {
  if (!/^https?:/i.test(url)) return false;
  if (!ctx.origin) return true;
  const origin = ctx.origin;
  // Most links are already in canonical form: decide by prefix before parsing.
  if (url.startsWith(origin) && (url.length === origin.length || '/?#'.includes(url[origin.length]!))) return false;
  try {
    return new URL(url).origin !== origin;
  } catch {
    return true;
  }
}

/**
 * Rewrites each candidate of a srcset ("url 2x, url 640w"); candidates with a refused URL are
 * dropped, and undefined means none is left. Follows the HTML candidate syntax: the URL runs to the
 * next whitespace, a trailing comma ends it, descriptors run to the next comma.
 */
export function rewriteSrcset(value: string, ctx: UrlContext): string | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /[\s,]/.test(value[i]!)) i++;
    if (i >= value.length) break;
    let end = i;
    while (end < value.length && !/\s/.test(value[end]!)) end++;
    let url = value.slice(i, end);
    let descriptors = '';
    i = end;
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let depth = 0;
      const start = i;
      while (i < value.length && (value[i] !== ',' || depth > 0)) {
        if (value[i] === '(') depth++;
        else if (value[i] === ')') depth = Math.max(0, depth - 1);
        i++;
      }
      descriptors = value.slice(start, i).trim();
      i++;
    }
    // Descriptors are numbers with w/x/h suffixes; anything else makes the candidate invalid.
    if (descriptors && !/^(\d+(\.\d+)?[wxh]\s*)+$/i.test(descriptors)) continue;
    const rewritten = rewriteUrl(url, ctx);
    if (rewritten === undefined || /^mailto:/i.test(rewritten)) continue;
    out.push(descriptors ? `${rewritten} ${descriptors}` : rewritten);
  }
  return out.length > 0 ? out.join(', ') : undefined;
}
