import type sanitizeHtml from 'sanitize-html';
import type { HeadingCollector } from './headings.js';
import { IFRAME_ALLOW_FEATURES, IFRAME_REFERRER_POLICY, IFRAME_SANDBOX, SAFE_REL_TOKENS } from './policy.js';
import { isExternal, rewriteSrcset, rewriteUrl, type UrlContext } from './urls.js';

type Attributes = sanitizeHtml.Attributes;
type Tag = sanitizeHtml.Tag;

/** State of one sanitiser run: transforms are closures over it (one pass, no second parse). */
export interface TransformContext extends UrlContext {
  iframeHosts: ReadonlySet<string>;
  headings: HeadingCollector;
  /** Prefix of the placeholder ids given to headings until their text is known. */
  placeholder: string;
  /**
   * false: headings get no id from sanitize-html; the exclusive filter records where each opening tag
   * sits in the output and the id is inserted there afterwards (no attribute to escape, no search).
   * true: placeholder ids, filled by search (the exact fallback, see sanitize.ts).
   */
  placeholderIds: boolean;
  /** Set when a source heading id is followed by other attributes: only placeholders keep their order. */
  needsPlaceholders: boolean;
}

/** Index of a heading in the collector, carried on its attribs object (not an attribute: a symbol). */
const HEADING_INDEX = Symbol('heading index');
type HeadingAttributes = Attributes & { [HEADING_INDEX]?: number };

function setUrl(attribs: Attributes, name: string, ctx: UrlContext): string | undefined {
  const value = attribs[name];
  if (value === undefined) return undefined;
  const rewritten = rewriteUrl(value, ctx);
  if (rewritten === undefined) delete attribs[name];
  else attribs[name] = rewritten;
  return rewritten;
}

/**
 * sanitize-html reads a transform's result (tagName, attribs, text) at once and never keeps it, so each
 * transform fills one reused object instead of allocating one per element (the '*' transform runs on
 * every element). Not shared between transforms: a tag's own transform and then '*' run for one tag.
 */
function resultSlot(): { set(tagName: string, attribs: Attributes, text?: string): Tag } {
  const slot: Tag = { tagName: '', attribs: {} };
  return {
    set(tagName, attribs, text) {
      slot.tagName = tagName;
      slot.attribs = attribs;
      slot.text = text;
      return slot;
    },
  };
}

/** Keeps the SAFE_REL_TOKENS of a rel value (lowercased, de-duplicated, in order). */
function safeRel(value: string | undefined, external: boolean): string | undefined {
  // Most links carry no rel: skip the split and the set.
  if (value === undefined || value.trim() === '') return external ? 'noopener noreferrer' : undefined;
  const rel = new Set(
    value
      .toLowerCase()
      .split(/\s+/)
      .filter((t) => SAFE_REL_TOKENS.has(t)),
  );
  if (external) {
    rel.add('noopener');
    rel.add('noreferrer');
  }
  return rel.size > 0 ? [...rel].join(' ') : undefined;
}

/** Links: resolved URLs, target only `_blank`, and rel="noopener noreferrer" off-site or in a new tab. */
export function transformLink(ctx: TransformContext) {
  const result = resultSlot();
  return (tagName: string, attribs: Attributes): Tag => {
    const href = setUrl(attribs, 'href', ctx);
    const target = attribs.target;
    const blank = target !== undefined && target.trim().toLowerCase() === '_blank';
    if (blank) attribs.target = '_blank';
    else if (target !== undefined) delete attribs.target;
    const rel = safeRel(attribs.rel, blank || (href !== undefined && isExternal(href, ctx)));
    if (rel !== undefined) attribs.rel = rel;
    else if (attribs.rel !== undefined) delete attribs.rel;
    return result.set(tagName, attribs);
  };
}

/** Images: resolved src/srcset, lazy loading and async decoding whatever the source asked. */
export function transformImage(ctx: TransformContext) {
  const result = resultSlot();
  return (tagName: string, attribs: Attributes): Tag => {
    setUrl(attribs, 'src', ctx);
    if (attribs.srcset !== undefined) {
      const srcset = rewriteSrcset(attribs.srcset, ctx);
      if (srcset === undefined) delete attribs.srcset;
      else attribs.srcset = srcset;
    }
    attribs.loading = 'lazy';
    attribs.decoding = 'async';
    return result.set(tagName, attribs);
  };
}

function allowedIframeSrc(value: string | undefined, hosts: ReadonlySet<string>): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value.trim());
    // https only: a plain-http player would be blocked as mixed content anyway.
    return url.protocol === 'https:' && !url.username && !url.password && hosts.has(url.hostname)
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Iframes: kept only from the listed hosts (an iframe without src is removed whole by the
 * exclusive filter), always sandboxed, lazy, with a referrer policy players accept.
 */
export function transformIframe(ctx: TransformContext) {
  return (tagName: string, attribs: Attributes): Tag => {
    const src = allowedIframeSrc(attribs.src, ctx.iframeHosts);
    const kept: Attributes = {};
    if (src !== undefined) {
      kept.src = src;
      for (const name of ['width', 'height', 'title']) {
        const value = attribs[name];
        if (value !== undefined) kept[name] = value;
      }
      const allow = (attribs.allow ?? '')
        .split(';')
        .map((f) => f.trim().toLowerCase())
        .filter((f) => IFRAME_ALLOW_FEATURES.has(f));
      if (allow.length > 0) kept.allow = allow.join('; ');
      kept.sandbox = IFRAME_SANDBOX;
      kept.loading = 'lazy';
      kept.referrerpolicy = IFRAME_REFERRER_POLICY;
      kept.allowfullscreen = '';
    }
    // Iframe content is fallback text browsers never show; dropping it avoids raw-text surprises.
    return { tagName, attribs: kept, text: '' };
  };
}

/** Headings: a placeholder id now, the real slug once the text is known (see HeadingCollector). */
export function transformHeading(ctx: TransformContext) {
  const result = resultSlot();
  return (tagName: string, attribs: Attributes): Tag => {
    const id = attribs.id;
    const index = ctx.headings.open(tagName.charCodeAt(1) - 48, id);
    if (ctx.placeholderIds) {
      attribs.id = ctx.placeholder + index;
    } else {
      if (id !== undefined) {
        delete attribs.id;
        // The id is inserted last in the tag; a source id before other attributes would move.
        if (Object.keys(attribs).length > 0) ctx.needsPlaceholders = true;
      }
      (attribs as HeadingAttributes)[HEADING_INDEX] = index;
    }
    return result.set(tagName, attribs);
  };
}

// Script URLs and markup are inert in most attributes (title, alt), but a value that reads like one is
// never needed in an article and may become live in some other consumer of the HTML: drop it.
const SCRIPT_LIKE = /(?:java|vb|live)script:|data:text\/html|<\s*script/;
// eslint-disable-next-line no-control-regex
const IGNORED = /[\x00-\x20]+/g;

/** Names allowed on one tag (attributes or classes): exact names and one regex for the globs. */
export interface NameMatcher {
  names: ReadonlySet<string>;
  globs: RegExp | undefined;
}

/**
 * Compiles per-tag allow-lists once ("data-*", "language-*" globs become one anchored regex per
 * tag); each tag's matcher includes the '*' entries.
 */
export function compileMatchers(lists: Record<string, string[]>): Map<string, NameMatcher> {
  const matchers = new Map<string, NameMatcher>();
  for (const [tag, list] of Object.entries(lists)) {
    const all = [...list, ...(tag === '*' ? [] : (lists['*'] ?? []))];
    const globs = all
      .filter((c) => c.includes('*'))
      .map((c) => c.replace(/[.+?^${}()|[\]\\-]/g, '\\$&').replace(/\*/g, '.*'));
    matchers.set(tag, {
      names: new Set(all.filter((c) => !c.includes('*'))),
      globs: globs.length ? new RegExp(`^(?:${globs.join('|')})$`) : undefined,
    });
  }
  return matchers;
}

/** True when `name` is one of the matcher's names or matches one of its globs. */
export function allowsName(matcher: NameMatcher, name: string): boolean {
  return matcher.names.has(name) || matcher.globs?.test(name) === true;
}

/**
 * Every element (the '*' transform, after the tag's own): keeps only allowed attributes, drops
 * values that read like script (see SCRIPT_LIKE) and classes outside the allow-list. The allow-lists
 * are applied here, compiled once, rather than by sanitize-html, which rebuilds its attribute and
 * class maps (and class glob regexes) on every call; sanitize-html still checks every URL, srcset
 * and iframe source of what remains.
 */
export function checkAttributes(
  attributes: ReadonlyMap<string, NameMatcher>,
  classes: ReadonlyMap<string, NameMatcher>,
) {
  const anyAttribute = attributes.get('*');
  const anyClass = classes.get('*');
  const result = resultSlot();
  return (tagName: string, attribs: Attributes): Tag => {
    const allowed = attributes.get(tagName) ?? anyAttribute;
    for (const name in attribs) {
      const value = attribs[name]!;
      // Event handlers and inline styles can never be allowed (options.ts refuses them too).
      if (!allowed || !allowsName(allowed, name) || name.startsWith('on') || name === 'style') {
        delete attribs[name];
      } else if (
        (value.includes(':') || value.includes('<')) &&
        SCRIPT_LIKE.test(value.replace(IGNORED, '').toLowerCase())
      ) {
        delete attribs[name];
      } else if (name === 'class') {
        // Without a class list for the tag, the attribute allow-list alone decides (as in sanitize-html).
        const matcher = classes.get(tagName) ?? anyClass;
        if (!matcher) continue;
        const kept = value
          .split(/\s+/)
          .filter((c) => c !== '' && allowsName(matcher, c))
          .join(' ');
        if (kept === '') delete attribs[name];
        else attribs[name] = kept;
      }
    }
    return result.set(tagName, attribs);
  };
}

/** Removes refused iframes (with their content) and records each heading's text as it closes. */
export function exclusiveFilter(ctx: TransformContext) {
  return (frame: sanitizeHtml.IFrame): boolean => {
    const tag = frame.tag;
    if (tag === 'iframe') return frame.attribs.src === undefined;
    if (tag.length === 2 && tag[0] === 'h') {
      if (!ctx.placeholderIds) {
        const index = (frame.attribs as HeadingAttributes)[HEADING_INDEX];
        if (index !== undefined) ctx.headings.close(index, frame.text, frame.tagPosition);
        return false;
      }
      const id = frame.attribs.id;
      if (id !== undefined && id.startsWith(ctx.placeholder)) {
        ctx.headings.close(Number(id.slice(ctx.placeholder.length)), frame.text);
      }
    }
    return false;
  };
}
