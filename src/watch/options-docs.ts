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
   * What to do when the feeds changed: run a command or POST to a deploy hook.
   * @required
   */
  trigger: RunTriggerOptions | HookTriggerOptions;
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

export type TriggerOptionsMatchSchema = Proof<
  Documents<RunTriggerOptions | HookTriggerOptions, z.input<typeof triggerSchema>>
>;
export type WatchOptionsMatchSchema = Proof<Documents<WatchOptionsInput, z.input<typeof watchOptionsSchema>>>;
