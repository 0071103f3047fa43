import { randomBytes } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import { HeadingCollector, type Heading } from './headings.js';
import { resolvePolicy, type ResolvedPolicy, type SanitizeOptions } from './options.js';
import { DROP_CONTENT_TAGS, URL_ATTRIBUTES } from './policy.js';
import {
  allowsName,
  checkAttributes,
  compileMatchers,
  exclusiveFilter,
  transformHeading,
  transformIframe,
  transformImage,
  transformLink,
  type TransformContext,
} from './transforms.js';
import { parseArticleUrl } from './urls.js';

export interface SanitizeArticleOptions {
  /** Extensions of the policy (validated; dangerous extensions throw SanitizeOptionsError). */
  sanitize?: SanitizeOptions;
  /**
   * The article's public URL: relative links and images are resolved against it, and links to
   * another origin count as external. Ignored when it is not an absolute http(s) URL.
   */
  articleUrl?: string;
}

export interface SanitizedArticle {
  html: string;
  headings: Heading[];
}

interface CompiledPolicy {
  policy: ResolvedPolicy;
  /**
   * The per-article state the transforms read. Built once with the options so that each call only
   * resets three fields: sanitize-html is synchronous, so one article is in flight per policy.
   */
  ctx: TransformContext;
  options: sanitizeHtml.IOptions;
}

// Options objects are usually created once (the loader's config) and reused for every article:
// validate, merge and build the sanitize-html options once per object.
const compiled = new WeakMap<object, CompiledPolicy>();
let defaultPolicy: CompiledPolicy | undefined;

function compile(sanitize: SanitizeOptions | undefined): CompiledPolicy {
  if (sanitize === undefined) return (defaultPolicy ??= build(undefined));
  if (typeof sanitize !== 'object' || sanitize === null) return build(sanitize);
  let entry = compiled.get(sanitize);
  if (!entry) {
    entry = build(sanitize);
    compiled.set(sanitize, entry);
  }
  return entry;
}

const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
// Unguessable and never written out (every occurrence is replaced), so markup in the source cannot
// forge a placeholder. One per process: random bytes per call cost measurable throughput. Drawn at the
// first use, not at import: Cloudflare Workers refuse random values in a module's global scope.
let placeholder: string | undefined;
const PLACEHOLDER = (): string => (placeholder ??= `acp-${randomBytes(12).toString('hex')}-`);
const MARKER = (): string => ` id="${PLACEHOLDER()}`;

function build(sanitize: unknown): CompiledPolicy {
  const policy = resolvePolicy(sanitize);
  const ctx: TransformContext = {
    base: undefined,
    origin: undefined,
    schemes: policy.allowedSchemes,
    iframeHosts: policy.iframeHosts,
    headings: new HeadingCollector(),
    placeholder: PLACEHOLDER(),
    placeholderIds: false,
    needsPlaceholders: false,
  };
  // The class attribute is let through where classes are allowed; checkAttributes filters the names.
  const allowedAttributes: Record<string, string[]> = { ...policy.allowedAttributes };
  for (const tag of Object.keys(policy.allowedClasses))
    allowedAttributes[tag] = [...(allowedAttributes[tag] ?? []), 'class'];
  const attributeMatchers = compileMatchers(allowedAttributes);
  // sanitize-html runs a tag's own transform, then the '*' one (script-like values, classes).
  const transformTags: Record<string, sanitizeHtml.Transformer> = {
    '*': checkAttributes(attributeMatchers, compileMatchers(policy.allowedClasses)),
    a: transformLink(ctx),
    img: transformImage(ctx),
    iframe: transformIframe(ctx),
  };
  const heading = transformHeading(ctx);
  for (const tag of HEADING_TAGS) transformTags[tag] = heading;
  return {
    policy,
    ctx,
    options: {
      allowedTags: policy.allowedTags,
      // Attribute allow-lists are applied by the '*' transform (checkAttributes); `false` here only
      // skips sanitize-html's per-call map building: its URL, srcset and iframe checks still run.
      allowedAttributes: false,
      allowedSchemes: policy.allowedSchemes,
      allowedSchemesByTag: {},
      // Only attributes the '*' transform lets through reach sanitize-html's scheme check, so the list
      // is cut to those (href, src, cite by default): it is searched for every attribute written.
      allowedSchemesAppliedToAttributes: URL_ATTRIBUTES.filter((name) =>
        [...attributeMatchers.values()].some((m) => allowsName(m, name)),
      ),
      allowProtocolRelative: false,
      allowedIframeHostnames: [...policy.iframeHosts],
      allowIframeRelativeUrls: false,
      allowVulnerableTags: false,
      disallowedTagsMode: 'discard',
      nonTextTags: [...DROP_CONTENT_TAGS],
      // No style attribute is ever allowed, so skip postcss entirely.
      parseStyleAttributes: false,
      enforceHtmlBoundary: false,
      // Void elements users may allow (source, track) must not get a closing tag.
      selfClosing: ['img', 'br', 'hr', 'wbr', 'col', 'area', 'source', 'track'],
      transformTags,
      exclusiveFilter: exclusiveFilter(ctx),
    },
  };
}

/** Swaps the placeholder ids for the final slugs with indexOf: cheaper than a regex per call. */
function fillHeadingIds(html: string, headings: Heading[]): string {
  let from = 0;
  const marker = MARKER();
  let at = html.indexOf(marker);
  if (at === -1) return html;
  const parts: string[] = [];
  while (at !== -1) {
    const start = at + marker.length;
    const end = html.indexOf('"', start);
    parts.push(html.slice(from, at), ` id="${headings[Number(html.slice(start, end))]?.slug ?? 'heading'}`);
    from = end;
    at = html.indexOf(marker, end);
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/**
 * Inserts each heading's id at the end of its opening tag, found from the output offset recorded when
 * the heading closed. Undefined when any heading has no usable offset (it never closed, or the output
 * is not what the offset says): the caller then falls back to placeholder ids.
 */
function insertHeadingIds(html: string, headings: Heading[], positions: number[]): string | undefined {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < headings.length; i++) {
    const heading = headings[i]!;
    const at = positions[i]!;
    // Attribute names and escaped values contain no ">", so the first one ends the opening tag.
    if (at < from || !html.startsWith(`<h${heading.depth}`, at)) return undefined;
    const end = html.indexOf('>', at);
    if (end === -1) return undefined;
    parts.push(html.slice(from, end), ` id="${heading.slug}"`);
    from = end;
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/** One sanitize-html pass; undefined when the heading ids need the placeholder pass instead. */
function run(
  html: string,
  ctx: TransformContext,
  options: sanitizeHtml.IOptions,
  placeholderIds: boolean,
): SanitizedArticle | undefined {
  ctx.placeholderIds = placeholderIds;
  ctx.needsPlaceholders = false;
  const collector = (ctx.headings = new HeadingCollector());
  const out = sanitizeHtml(html, options);
  if (collector.size === 0) return { html: out, headings: [] };
  if (ctx.needsPlaceholders) return undefined;
  const headings = collector.finish();
  const filled = placeholderIds
    ? fillHeadingIds(out, headings)
    : insertHeadingIds(out, headings, collector.positions());
  if (filled === undefined) return undefined;
  // Empty headings keep their id (links may target them) but have nothing to show in a table of contents.
  return { html: filled, headings: headings.filter((h) => h.text !== '') };
}

/**
 * Sanitises untrusted article HTML under the package policy (see policy.ts) in one sanitize-html
 * pass: links, images, iframes and heading ids are rewritten by its tag transforms, then each heading
 * gets its id at the output offset recorded for it. Markup where that cannot be done exactly (a
 * heading that never closes, a source id before other attributes) takes a second pass with
 * placeholder ids, the same policy either way.
 */
export function sanitizeArticle(html: string, options: SanitizeArticleOptions = {}): SanitizedArticle {
  const { ctx, options: sanitizeOptions } = compile(options.sanitize);
  const article = parseArticleUrl(options.articleUrl);
  ctx.base = article?.base;
  ctx.origin = article?.origin;
  const input = String(html ?? '');
  return run(input, ctx, sanitizeOptions, false) ?? run(input, ctx, sanitizeOptions, true)!;
}
