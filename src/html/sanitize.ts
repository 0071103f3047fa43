import { randomBytes } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import { HeadingCollector, type Heading } from './headings.js';
import { resolvePolicy, type ResolvedPolicy, type SanitizeOptions } from './options.js';
import { DROP_CONTENT_TAGS, URL_ATTRIBUTES } from './policy.js';
import {
  dropScriptLikeValues,
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

type StaticOptions = Omit<sanitizeHtml.IOptions, 'transformTags' | 'exclusiveFilter'>;

interface CompiledPolicy {
  policy: ResolvedPolicy;
  options: StaticOptions;
  /** dropScriptLikeValues for each tag that can keep an attribute ('*' if any attribute is global). */
  scriptChecks: Record<string, sanitizeHtml.Transformer>;
}

function withScriptCheck(transform: sanitizeHtml.Transformer): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const tag = transform(tagName, attribs);
    const checked = dropScriptLikeValues(tag.tagName, tag.attribs);
    return tag.text === undefined ? checked : { ...checked, text: tag.text };
  };
}

// Options objects are usually created once (the loader's config) and reused for every article:
// validate and merge once per object.
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

function build(sanitize: unknown): CompiledPolicy {
  const policy = resolvePolicy(sanitize);
  // Only tags that can keep an attribute need the check; the others lose every attribute anyway.
  const tagsWithAttributes = new Set([...Object.keys(policy.allowedAttributes), ...Object.keys(policy.allowedClasses)]);
  const scriptChecks: Record<string, sanitizeHtml.Transformer> = {};
  for (const tag of tagsWithAttributes.has('*') ? ['*'] : tagsWithAttributes) scriptChecks[tag] = dropScriptLikeValues;
  return {
    policy,
    scriptChecks,
    options: {
      allowedTags: policy.allowedTags,
      allowedAttributes: policy.allowedAttributes,
      allowedClasses: policy.allowedClasses,
      allowedSchemes: policy.allowedSchemes,
      allowedSchemesByTag: {},
      allowedSchemesAppliedToAttributes: [...URL_ATTRIBUTES],
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
    },
  };
}

const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;
// Unguessable and never written out (every occurrence is replaced), so markup in the source cannot
// forge a placeholder. One per process: random bytes per call cost measurable throughput.
const PLACEHOLDER = `acp-${randomBytes(12).toString('hex')}-`;
const MARKER = ` id="${PLACEHOLDER}`;

/** Swaps the placeholder ids for the final slugs with indexOf: cheaper than a regex per call. */
function fillHeadingIds(html: string, headings: Heading[]): string {
  let from = 0;
  let at = html.indexOf(MARKER);
  if (at === -1) return html;
  const parts: string[] = [];
  while (at !== -1) {
    const start = at + MARKER.length;
    const end = html.indexOf('"', start);
    parts.push(html.slice(from, at), ` id="${headings[Number(html.slice(start, end))]?.slug ?? 'heading'}`);
    from = end;
    at = html.indexOf(MARKER, end);
  }
  parts.push(html.slice(from));
  return parts.join('');
}

/**
 * Sanitises untrusted article HTML under the package policy (see policy.ts) in one sanitize-html
 * pass: links, images, iframes and heading ids are rewritten by its tag transforms, then the heading
 * placeholders are swapped for their slugs.
 */
export function sanitizeArticle(html: string, options: SanitizeArticleOptions = {}): SanitizedArticle {
  const { policy, options: staticOptions, scriptChecks } = compile(options.sanitize);
  const article = parseArticleUrl(options.articleUrl);
  const ctx: TransformContext = {
    base: article?.base,
    origin: article?.origin,
    schemes: policy.allowedSchemes,
    iframeHosts: policy.iframeHosts,
    headings: new HeadingCollector(),
    placeholder: PLACEHOLDER,
  };
  const transformTags: Record<string, sanitizeHtml.Transformer> = { ...scriptChecks };
  const heading = withScriptCheck(transformHeading(ctx));
  for (const tag of HEADING_TAGS) transformTags[tag] = heading;
  transformTags.a = withScriptCheck(transformLink(ctx));
  transformTags.img = withScriptCheck(transformImage(ctx));
  transformTags.iframe = withScriptCheck(transformIframe(ctx));

  let out = sanitizeHtml(String(html ?? ''), {
    ...staticOptions,
    transformTags,
    exclusiveFilter: exclusiveFilter(ctx),
  });
  if (ctx.headings.size === 0) return { html: out, headings: [] };

  const headings = ctx.headings.finish();
  out = fillHeadingIds(out, headings);
  // Empty headings keep their id (links may target them) but have nothing to show in a table of contents.
  return { html: out, headings: headings.filter((h) => h.text !== '') };
}
