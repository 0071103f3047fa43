/**
 * The documented types of `runWatch()`'s options: what an editor shows on hover. Each is proven equal to
 * its schema's input in ./options.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { Documents, Proof } from '../options/documented.js';
import type { HOOK_PROVIDERS } from './hook-request.js';
import type { triggerSchema, watchOptionsSchema } from './options.js';

/** Run a shell command (a build) when the feeds change; stdio inherited, exit code 0 means success. */
export interface RunTriggerOptions {
  /**
   * Which trigger this is.
   * @required
   */
  kind: 'run';
  /**
   * The shell command to run.
   * @required
   */
  command: string;
}

/** POST to a deploy hook URL when the feeds change; a 2xx answer within `timeoutMs` means success. */
export interface HookTriggerOptions {
  /**
   * Which trigger this is.
   * @required
   */
  kind: 'hook';
  /**
   * The deploy hook's http(s) URL.
   * @required
   */
  url: string;
  /**
   * How long to wait for the hook's answer, in milliseconds (1 to 2147483647, Node's timer range).
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Which host's hook: the request it expects (netlify, vercel, cloudflare, github or generic).
   * @default inferred from the URL, else 'generic'
   */
  provider?: (typeof HOOK_PROVIDERS)[number] | undefined;
  /**
   * Bearer token (GitHub repository_dispatch); a secret, never printed.
   * @default undefined
   */
  token?: string | undefined;
  /**
   * GitHub repository_dispatch `event_type`.
   * @default 'content-published'
   */
  eventType?: string | undefined;
}

/**
 * POST the changed articles' cache tags (and the lists', sitemap's and feed's) to the blog's invalidation
 * endpoint (`publisher({ invalidate: true })`); a 2xx answer within `timeoutMs` means success. A refusal of the
 * request itself (400, 413, 422) would come again on every run: the site's one tag is sent instead, and said.
 */
export interface InvalidateTriggerOptions {
  /**
   * Which trigger this is.
   * @required
   */
  kind: 'invalidate';
  /**
   * The endpoint's URL, such as `https://blog.example.com/_publisher/invalidate` (plain http only to this machine).
   * @required
   */
  url: string;
  /**
   * The endpoint's shared secret (the blog's `PUBLISHER_INVALIDATE_TOKEN`, at least 16 characters); never printed.
   * @required
   */
  token: string;
  /**
   * How long to wait for the answer, in milliseconds (1 to 2147483647, Node's timer range).
   * @default 30000
   */
  timeoutMs?: number | undefined;
}

/** The options of `runWatch()` (the loop behind `content-publisher watch`). */
export interface WatchOptionsInput {
  /**
   * The site id whose public feeds are watched (a positive integer).
   * @required
   */
  siteId: number;
  /**
   * The service's base URL, without `/api/v1` (the feeds are `<baseUrl>/api/sites/<siteId>/rss.xml` and
   * `sitemap.xml`).
   * @required
   */
  baseUrl: string;
  /**
   * What to do when the feeds changed: run a command, POST to a deploy hook, or invalidate the changed pages'
   * cache tags; or several of these in order (all must succeed for the change to be recorded).
   * @required
   */
  trigger: TriggerOptions | TriggerOptions[];
  /**
   * Where the state is kept between polls and runs.
   * @required
   */
  statePath: string;
  /**
   * Time between polls in ms (100 ms up to 2147483647 ms, Node's timer range).
   * @default 300000 (5 minutes)
   */
  intervalMs?: number | undefined;
  /**
   * After a change, wait this long (ms) and poll again before triggering, so a burst makes one trigger.
   * Not applied with `once`. At most 2147483647 ms (Node's timer range).
   * @default 30000
   */
  debounceMs?: number | undefined;
  /**
   * Check once and return the outcome instead of looping.
   * @default false
   */
  once?: boolean | undefined;
  /**
   * Trigger also when no state exists yet (by default the first run only records the baseline).
   * @default false
   */
  triggerOnFirstRun?: boolean | undefined;
  /**
   * Send a `run` command's stdout to stderr (keeps stdout machine-readable for `--json`).
   * @default false
   */
  stdoutToStderr?: boolean | undefined;
}

/** One trigger of `runWatch()`. */
export type TriggerOptions = RunTriggerOptions | HookTriggerOptions | InvalidateTriggerOptions;

export type TriggerOptionsMatchSchema = Proof<Documents<TriggerOptions, z.input<typeof triggerSchema>>>;
export type WatchOptionsMatchSchema = Proof<Documents<WatchOptionsInput, z.input<typeof watchOptionsSchema>>>;
