/**
 * The documented type of the loaders' `sanitize` option: what an editor shows on hover. Proven equal to
 * the schema's input in ./options.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { Documents, Proof } from '../options/documented.js';
import type { sanitizeOptionsSchema } from './options.js';

/**
 * Extensions to the sanitising policy. Everything is additive: sanitising cannot be switched off, and
 * tags, attributes or schemes that can run script are refused with an error naming the option.
 */
export interface SanitizeOptions {
  /**
   * Extra tags to keep (e.g. `['video', 'source']`). Script, style, svg, math, form controls,
   * object/embed, base/meta/link and similar are refused.
   * @default []
   */
  allowedTags?: string[] | undefined;
  /**
   * Extra attributes per tag (`'*'` for every tag), e.g. `{ video: ['src', 'controls', 'poster'] }`.
   * URL-valued attributes are still limited to http, https, mailto. `on*`, `style`, `srcdoc` are refused.
   * @default {}
   */
  allowedAttributes?: Record<string, string[]> | undefined;
  /**
   * Extra iframe hostnames (exact match, https only) whose embeds are kept, sandboxed.
   * @default [] (on top of www.youtube.com, www.youtube-nocookie.com, player.vimeo.com)
   */
  allowedIframeHosts?: string[] | undefined;
  /**
   * Extra classes per tag (globs allowed), e.g. `{ div: ['callout', 'callout-*'] }`.
   * @default {} (on top of `language-*` on code and pre)
   */
  allowedClasses?: Record<string, string[]> | undefined;
  /**
   * Narrows the URL schemes kept in links and images; only http, https and mailto can be listed.
   * @default ['http', 'https', 'mailto']
   */
  allowedSchemes?: string[] | undefined;
}

export type SanitizeOptionsMatchSchema = Proof<Documents<SanitizeOptions, z.input<typeof sanitizeOptionsSchema>>>;
