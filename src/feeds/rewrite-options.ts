import { z } from 'zod';
import { formatIssue } from '../options/issues.js';

const urlMapper = z.custom<(upstream: string) => string>((v) => typeof v === 'function', {
  error: 'must be a function (upstream URL) => blog URL, e.g. makeArticleUrlMapper({...})',
});

/** Options shared by the sitemap and RSS rewriters. */
export const rewriteOptionsSchema = z.object({
  /** The upstream URL of the document, named in error messages. */
  url: z.string().min(1),
  /** Origins treated as the service's domain (the site's domain, the API base origin). */
  upstreamOrigins: z.array(z.string()),
  /** Maps an upstream URL (on one of `upstreamOrigins`) to the blog's URL. */
  mapUrl: urlMapper,
  /**
   * Size cap of the upstream document in UTF-8 bytes.
   * @default 50 MB for sitemaps, 10 MB for RSS
   */
  maxBytes: z.int().positive().optional(),
  /**
   * Told what was repaired or dropped (an encoding fallback, whitespace before `<?xml`, control
   * characters, undeclared prefixes, XHTML elements): the output is still written.
   * @default undefined (nothing is reported)
   */
  onWarning: z
    .custom<(message: string) => void>((v) => typeof v === 'function', {
      error: 'must be a function (message) => void',
    })
    .optional(),
});
export type RewriteOptions = z.input<typeof rewriteOptionsSchema>;

/** Validates rewriter options, throwing a TypeError naming the option. */
export function validateOptions<T extends z.ZodType>(schema: T, value: unknown, fn: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problem = formatIssue(parsed.error.issues[0]!, value, { call: `${fn}()`, docs: 'integration-options' });
  // An internal call (the routes build these options): the message names the function, no README section.
  throw new TypeError(`${fn}(): ${problem.message}`);
}
