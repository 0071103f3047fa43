/**
 * Options of `runWatch()` (the loop behind `content-publisher watch`): one strict schema, with the types
 * derived from it. The CLI turns its flags into these; a program can call `runWatch()` directly.
 */
import { z } from 'zod';
import { baseUrlSchema, durationMsSchema, siteIdSchema } from '../options/fields.js';
import { formatIssue } from '../options/issues.js';
import type { WatchOptionsInput } from './options-docs.js';
import { HOOK_PROVIDERS } from './hook-request.js';
import { isLoopbackHost } from '../client/cleartext.js';

const httpUrl = z.string().refine((value) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

export const triggerSchema = z.discriminatedUnion('kind', [
  /** A shell command (a build); stdio inherited, exit code 0 means success. */
  z.object({ kind: z.literal('run'), command: z.string().trim().min(1) }).strict(),
  /** A deploy hook URL to POST to; a 2xx answer within `timeoutMs` (at most 2^31 - 1 ms, Node's timer range) means success. */
  z
    .object({
      kind: z.literal('hook'),
      url: httpUrl,
      timeoutMs: durationMsSchema(1).default(30_000),
      /** Which host's hook: the request it expects (see hook-request.ts). @default inferred from the URL, else 'generic' */
      provider: z.enum(HOOK_PROVIDERS).optional(),
      /** Bearer token (GitHub repository_dispatch); a secret, never printed. @default undefined */
      token: z.string().min(1).optional(),
      /** GitHub repository_dispatch `event_type`. @default 'content-published' */
      eventType: z.string().min(1).max(100).optional(),
    })
    .strict(),
  /**
   * POST the changed articles' cache tags to the blog's invalidation endpoint (`publisher({ invalidate: true })`);
   * a 2xx answer within `timeoutMs` means success.
   */
  z
    .object({
      kind: z.literal('invalidate'),
      url: httpUrl.refine((value) => {
        const { protocol, hostname } = new URL(value);
        return protocol === 'https:' || isLoopbackHost(hostname);
      }, 'must be https (plain http only to this machine): the token would travel in cleartext'),
      /** The endpoint's shared secret (PUBLISHER_INVALIDATE_TOKEN of the blog); never printed. */
      token: z.string().min(16, 'must be at least 16 characters long (the blog refuses shorter ones)'),
      timeoutMs: durationMsSchema(1).default(30_000),
    })
    .strict(),
]);

export const watchOptionsSchema = z
  .object({
    /** The site id whose public feeds are watched. */
    siteId: siteIdSchema(),
    /** The service's base URL (the feeds are `<baseUrl>/api/sites/<siteId>/rss.xml` and `sitemap.xml`). */
    baseUrl: baseUrlSchema(),
    /** One trigger, or several run in order (a rebuild, then an invalidation); all must succeed. */
    trigger: z.union([triggerSchema, z.array(triggerSchema).min(1).max(3)]),
    /** Where the state is kept between polls and runs. */
    statePath: z.string().min(1),
    /**
     * Time between polls in ms (100 ms up to 2^31 - 1 ms, Node's timer range).
     * @default 300_000 (5 minutes)
     */
    intervalMs: durationMsSchema(100).default(300_000),
    /**
     * After a change, wait this long and poll again before triggering, so a burst makes one trigger.
     * Not applied with `once`. At most 2^31 - 1 ms (Node's timer range).
     * @default 30_000
     */
    debounceMs: durationMsSchema(0).default(30_000),
    /**
     * Check once and return the outcome instead of looping.
     * @default false
     */
    once: z.boolean().default(false),
    /**
     * Trigger also when no state exists yet (by default the first run only records the baseline).
     * @default false
     */
    triggerOnFirstRun: z.boolean().default(false),
    /**
     * Send a `run` command's stdout to stderr (keeps stdout machine-readable for `--json`).
     * @default false
     */
    stdoutToStderr: z.boolean().default(false),
  })
  .strict();

/** What the user may pass to `runWatch()`: documented interfaces, proven equal to the schemas' input. */
export type {
  WatchOptionsInput,
  RunTriggerOptions,
  HookTriggerOptions,
  InvalidateTriggerOptions,
} from './options-docs.js';
export type WatchOptions = z.output<typeof watchOptionsSchema>;
export type TriggerSpec = z.output<typeof triggerSchema>;
/** `trigger` after defaults: one trigger, or several in order. */
export type TriggerSetting = WatchOptions['trigger'];

export function resolveWatchOptions(input: WatchOptionsInput): WatchOptions {
  const parsed = watchOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problem = formatIssue(parsed.error.issues[0]!, input, { call: 'runWatch()', docs: 'watch-options' });
  throw new TypeError(`${problem.message} ${problem.hint}`);
}
