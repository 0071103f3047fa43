/**
 * Options of `runWatch()` (the loop behind `content-publisher watch`): one strict schema, with the types
 * derived from it. The CLI turns its flags into these; a program can call `runWatch()` directly.
 */
import { z } from 'zod';
import { MAX_TIMER_MS } from './duration.js';
import { HOOK_PROVIDERS } from './hook-request.js';

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
  z.object({
    kind: z.literal('hook'),
    url: httpUrl,
    timeoutMs: z.number().int().positive().max(MAX_TIMER_MS).default(30_000),
    /** Which host's hook: the request it expects (see hook-request.ts). @default inferred from the URL, else 'generic' */
    provider: z.enum(HOOK_PROVIDERS).optional(),
    /** Bearer token (GitHub repository_dispatch); a secret, never printed. @default undefined */
    token: z.string().min(1).optional(),
    /** GitHub repository_dispatch `event_type`. @default 'content-published' */
    eventType: z.string().min(1).max(100).optional(),
  }).strict(),
]);

export const watchOptionsSchema = z
  .object({
    /** The site id whose public feeds are watched. */
    site: z.number().int().positive(),
    /** The service's base URL (the feeds are `<baseUrl>/api/sites/<site>/rss.xml` and `sitemap.xml`). */
    baseUrl: z.string().min(1),
    trigger: triggerSchema,
    /** Where the state is kept between polls and runs. */
    statePath: z.string().min(1),
    /**
     * Time between polls in ms (100 ms up to 2^31 - 1 ms, Node's timer range).
     * @default 300_000 (5 minutes)
     */
    intervalMs: z.number().int().min(100).max(MAX_TIMER_MS).default(300_000),
    /**
     * After a change, wait this long and poll again before triggering, so a burst makes one trigger.
     * Not applied with `once`. At most 2^31 - 1 ms (Node's timer range).
     * @default 30_000
     */
    debounceMs: z.number().int().min(0).max(MAX_TIMER_MS).default(30_000),
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

export type WatchOptionsInput = z.input<typeof watchOptionsSchema>;
export type WatchOptions = z.output<typeof watchOptionsSchema>;
export type TriggerSpec = z.output<typeof triggerSchema>;

export function resolveWatchOptions(input: WatchOptionsInput): WatchOptions {
  const parsed = watchOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = issue?.path.join('.') || '(options)';
  throw new TypeError(`[astro-content-publisher] watch option \`${name}\` is invalid: ${issue?.message ?? 'invalid value'}.`);
}
