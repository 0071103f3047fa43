import { z } from 'zod';
import { formatIssue } from '../options/issues.js';
import {
  ALLOWED_SCHEMES,
  BASE_ALLOWED_ATTRIBUTES,
  BASE_ALLOWED_CLASSES,
  BASE_ALLOWED_TAGS,
  DEFAULT_IFRAME_HOSTS,
  FORBIDDEN_ATTRIBUTES,
  FORBIDDEN_TAGS,
  type AllowedScheme,
} from './policy.js';

const KNOWN_KEYS = ['allowedTags', 'allowedAttributes', 'allowedIframeHosts', 'allowedClasses', 'allowedSchemes'];
const TAG_NAME = /^[a-z][a-z0-9-]*$/;
const ATTRIBUTE_NAME = /^[a-z_][a-z0-9_.:-]*$/;
// Globs are allowed only where every match is inert; `o*` would match every event handler.
const ATTRIBUTE_GLOBS = new Set(['data-*', 'aria-*']);
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
const CLASS_NAME = /^[A-Za-z0-9_*-]+$/;

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function tagProblem(tag: string, option: string): string | undefined {
  const name = tag.toLowerCase();
  if (FORBIDDEN_TAGS.has(name)) {
    return (
      `\`sanitize.${option}\` cannot allow <${name}>: it can run script, load content or submit data. ` +
      'Sanitising cannot be loosened for such tags; remove it from the list.'
    );
  }
  if (name !== '*' && !TAG_NAME.test(name)) {
    return `\`sanitize.${option}\` has an invalid tag name ${show(tag)}. Use plain element names such as "video".`;
  }
  return undefined;
}

const tagSchema = z.string().superRefine((tag, ctx) => {
  if (tag === '*') {
    ctx.addIssue({
      code: 'custom',
      message: `\`sanitize.allowedTags\` cannot be "*": list the extra tags one by one.`,
    });
    return;
  }
  const problem = tagProblem(tag, 'allowedTags');
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const attributeSchema = z.string().superRefine((attribute, ctx) => {
  const name = attribute.toLowerCase();
  let message: string | undefined;
  if (name.startsWith('on')) {
    message = `\`sanitize.allowedAttributes\` cannot allow event handler ${show(attribute)}: on* attributes run script. Remove it.`;
  } else if (FORBIDDEN_ATTRIBUTES.has(name) || name.startsWith('xlink:') || name.startsWith('xmlns')) {
    message = `\`sanitize.allowedAttributes\` cannot allow ${show(attribute)}: it can carry script, styles or another document. Remove it.`;
  } else if (name.includes('*') ? !ATTRIBUTE_GLOBS.has(name) : !ATTRIBUTE_NAME.test(name)) {
    message =
      `\`sanitize.allowedAttributes\` has an invalid attribute name ${show(attribute)}. ` +
      'Use plain names such as "controls"; the only patterns accepted are "data-*" and "aria-*".';
  }
  if (message) ctx.addIssue({ code: 'custom', message });
});

const attributesSchema = z.record(z.string(), z.array(attributeSchema)).superRefine((record, ctx) => {
  for (const tag of Object.keys(record)) {
    const problem = tagProblem(tag, 'allowedAttributes');
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [tag] });
  }
});

const hostSchema = z.string().superRefine((host, ctx) => {
  if (!HOSTNAME.test(host.toLowerCase())) {
    ctx.addIssue({
      code: 'custom',
      message:
        `\`sanitize.allowedIframeHosts\` entries must be bare hostnames such as "player.vimeo.com" ` +
        `(got ${show(host)}). Leave out the scheme, port, path and wildcards.`,
    });
  }
});

const classesSchema = z
  .record(
    z.string(),
    z.array(
      z.string().superRefine((name, ctx) => {
        if (!CLASS_NAME.test(name)) {
          ctx.addIssue({
            code: 'custom',
            message: `\`sanitize.allowedClasses\` has an invalid class name ${show(name)}. Use letters, digits, "-", "_" and "*" globs.`,
          });
        }
      }),
    ),
  )
  .superRefine((record, ctx) => {
    for (const tag of Object.keys(record)) {
      const problem = tagProblem(tag, 'allowedClasses');
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [tag] });
    }
  });

const schemeSchema = z.string().superRefine((scheme, ctx) => {
  if (!(ALLOWED_SCHEMES as readonly string[]).includes(scheme.toLowerCase().replace(/:$/, ''))) {
    ctx.addIssue({
      code: 'custom',
      message:
        `\`sanitize.allowedSchemes\` may only narrow the list http, https, mailto (got ${show(scheme)}). ` +
        'Other schemes can run script or reach local apps; link to an https page instead.',
    });
  }
});

/**
 * Extensions to the sanitising policy. Everything is additive: sanitising cannot be switched off,
 * and tags, attributes or schemes that can run script are refused with an error naming the option.
 */
export const sanitizeOptionsSchema = z.strictObject(
  {
    /**
     * Extra tags to keep (e.g. `['video', 'source']`). Script, style, svg, math, form controls,
     * object/embed, base/meta/link and similar are refused.
     * @default []
     */
    allowedTags: z.array(tagSchema).optional(),
    /**
     * Extra attributes per tag (`'*'` for every tag), e.g. `{ video: ['src', 'controls', 'poster'] }`.
     * URL-valued attributes are still limited to http, https, mailto. `on*`, `style`, `srcdoc` are refused.
     * @default {}
     */
    allowedAttributes: attributesSchema.optional(),
    /**
     * Extra iframe hostnames (exact match, https only) whose embeds are kept, sandboxed.
     * @default [] (on top of www.youtube.com, www.youtube-nocookie.com, player.vimeo.com)
     */
    allowedIframeHosts: z.array(hostSchema).optional(),
    /**
     * Extra classes per tag (globs allowed), e.g. `{ div: ['callout', 'callout-*'] }`.
     * @default {} (on top of `language-*` on code and pre)
     */
    allowedClasses: classesSchema.optional(),
    /**
     * Narrows the URL schemes kept in links and images; only http, https and mailto can be listed.
     * @default ['http', 'https', 'mailto']
     */
    allowedSchemes: z.array(schemeSchema).optional(),
  },
  {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        return (
          `\`sanitize\` has no option ${issue.keys.map((k) => `"${k}"`).join(', ')}. ` +
          `Supported: ${KNOWN_KEYS.join(', ')}. Sanitising cannot be switched off or bypassed.`
        );
      }
      if (issue.code === 'invalid_type') {
        return (
          `\`sanitize\` must be an object of allow-list extensions (got ${show(issue.input)}). ` +
          'Sanitising cannot be switched off; to keep more markup, extend allowedTags or allowedAttributes.'
        );
      }
      return undefined;
    },
  },
);

export type { SanitizeOptions } from './options-docs.js';

/** The merged policy, ready for sanitize-html (lists lowercased and de-duplicated). */
export interface ResolvedPolicy {
  allowedTags: string[];
  allowedAttributes: Record<string, string[]>;
  allowedClasses: Record<string, string[]>;
  allowedSchemes: AllowedScheme[];
  iframeHosts: ReadonlySet<string>;
}

/** Thrown when `sanitize` options are refused; the message lists every problem. */
export class SanitizeOptionsError extends Error {
  override name = 'SanitizeOptionsError';
  constructor(readonly issues: string[]) {
    super(issues.join('\n'));
  }
}

function mergeLists(
  base: Readonly<Record<string, readonly string[]>>,
  extra: Record<string, string[]> | undefined,
): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const [tag, values] of Object.entries(base)) merged[tag] = [...values];
  for (const [tag, values] of Object.entries(extra ?? {})) {
    const key = tag.toLowerCase();
    merged[key] = [...new Set([...(merged[key] ?? []), ...values.map((v) => v.toLowerCase())])];
  }
  return merged;
}

/** Validates user extensions and merges them over the base policy. Throws SanitizeOptionsError. */
export function resolvePolicy(input: unknown): ResolvedPolicy {
  const parsed = sanitizeOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const context = { call: 'the loader', docs: 'the-sanitising-policy', under: 'sanitize' };
    throw new SanitizeOptionsError(parsed.error.issues.map((issue) => formatIssue(issue, input, context).message));
  }
  const options = parsed.data;
  const classes = mergeLists(BASE_ALLOWED_CLASSES, undefined);
  for (const [tag, names] of Object.entries(options.allowedClasses ?? {})) {
    const key = tag.toLowerCase();
    // Class names are case-sensitive in CSS: keep them as given.
    classes[key] = [...new Set([...(classes[key] ?? []), ...names])];
  }
  return {
    allowedTags: [...new Set([...BASE_ALLOWED_TAGS, ...(options.allowedTags ?? []).map((t) => t.toLowerCase())])],
    allowedAttributes: mergeLists(BASE_ALLOWED_ATTRIBUTES, options.allowedAttributes),
    allowedClasses: classes,
    allowedSchemes: options.allowedSchemes
      ? [...new Set(options.allowedSchemes.map((s) => s.toLowerCase().replace(/:$/, '') as AllowedScheme))]
      : [...ALLOWED_SCHEMES],
    iframeHosts: new Set([...DEFAULT_IFRAME_HOSTS, ...(options.allowedIframeHosts ?? []).map((h) => h.toLowerCase())]),
  };
}
