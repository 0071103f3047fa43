import { z } from 'zod';
import { IMAGE_DEFAULTS, imagesOptionSchema } from '../images/image-options.js';
import { sanitizeOptionsSchema } from '../../html/index.js';
import { ConfigError } from '../../client/index.js';
import { apiKeySchema, baseUrlSchema, durationMsSchema, integerSchema, siteIdSchema } from '../../options/fields.js';
import { formatIssue, optionsDocsLine, type OptionProblem } from '../../options/issues.js';
import { asAstroUserError } from '../errors/astro-errors.js';
import { cleartextRefusal } from '../../client/cleartext.js';
import { withSyncPlaceholders } from '../process/loader-runs.js';
import { MOVES_KEPT_DAYS } from '../state/moves.js';

/**
 * Defaults in one place. The budget suits a Pro plan (30 or 60 requests an hour for the whole user, all
 * tokens): a build spends at most 20, and stops when only 5 are left in the hour, so that a watcher, the
 * CLI or a second build in the same hour still has room.
 */
export const ARTICLES_LOADER_DEFAULTS = {
  budget: { maxRequests: 20, reserve: 5 },
  refresh: 'auto',
  strict: false,
  allowMassRemoval: false,
  revalidateAfterHours: 24,
  movesKeptDays: MOVES_KEPT_DAYS,
  timeoutMs: 30_000,
} as const satisfies {
  budget: { maxRequests: number; reserve: number };
  refresh: 'auto' | 'force';
  strict: boolean;
  allowMassRemoval: boolean;
  revalidateAfterHours: number | false;
  movesKeptDays: number;
  timeoutMs: number;
};

export const budgetSchema = z.strictObject({
  /**
   * The most authenticated requests one build may send (the list call included).
   * @default 20
   */
  maxRequests: integerSchema(1, 100_000, 'requests').default(ARTICLES_LOADER_DEFAULTS.budget.maxRequests),
  /**
   * Requests left untouched in the hourly window (read from X-RateLimit-Remaining) for other tools.
   * @default 5
   */
  reserve: integerSchema(0, 100_000, 'requests').default(ARTICLES_LOADER_DEFAULTS.budget.reserve),
});

/** Options shared by every loader that talks to the service. */
export const connectionSchema = z.strictObject({
  /**
   * The site whose articles are loaded.
   * @default process.env.PUBLISHER_SITE_ID
   */
  siteId: siteIdSchema(),
  /**
   * The service's base URL (http or https, no credentials, no query string).
   * @default process.env.PUBLISHER_BASE_URL
   */
  baseUrl: baseUrlSchema(),
  /**
   * The API key (`btb_...`). Never written to the store, the output or the logs.
   * @default process.env.PUBLISHER_API_KEY
   */
  apiKey: apiKeySchema(),
  /**
   * Accept a plain `http://` baseUrl to a host other than this machine (the key then travels in cleartext):
   * only for a trusted private network. Loopback is always accepted.
   * @default false
   */
  allowInsecureHttp: z.boolean({ error: 'must be true or false' }).default(false),
  /**
   * Timeout of one request (list, detail, keywords, digest, public feeds), in milliseconds. A request that
   * has no complete answer by then fails like any transient error: the stored content is kept with a
   * warning (`strict` fails). Lower it so that a slow service cannot hold a build for 30 s per request.
   * @default 30000
   */
  timeoutMs: durationMsSchema(1).default(ARTICLES_LOADER_DEFAULTS.timeoutMs),
});

export const articlesLoaderOptionsSchema = connectionSchema.extend({
  /**
   * The statuses built: one (sent as the list call's `status` filter) or several (the list is asked unfiltered).
   * Every list item's and detail's status is checked whatever the service did with the filter: another status
   * is never stored. API.md documents only `published`; widen it explicitly, e.g. `['published', 'scheduled']`.
   * @default 'published'
   */
  status: z.union([z.string().min(1).max(50), z.array(z.string().min(1).max(50)).min(1).max(20)]).default('published'),
  /** Only articles in this language (the list call's `language` filter), e.g. `'fr'`. @default undefined (all) */
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be a language code such as "en" or "pt-BR"')
    .optional(),
  /** At most this many articles (the list call's `limit`, 1..1000). @default undefined (all, up to the service's maximum) */
  limit: z.number().int().min(1).max(1000).optional(),
  /** The request budget of one build. @default { maxRequests: 20, reserve: 5 } */
  budget: budgetSchema.default({ ...ARTICLES_LOADER_DEFAULTS.budget }),
  /** Extensions of the sanitising policy (allow-lists only; sanitising cannot be switched off). @default undefined */
  sanitize: sanitizeOptionsSchema.optional(),
  /** Article images through Astro's image pipeline (see image-options.ts); `false` leaves them on the service's CDN. @default {} */
  images: imagesOptionSchema.default({ ...IMAGE_DEFAULTS }),
  /** `'force'` re-fetches every article (oldest checked first) within the budget. @default 'auto' */
  refresh: z.enum(['auto', 'force']).default(ARTICLES_LOADER_DEFAULTS.refresh),
  /**
   * Turn every warning (stale content kept, request failed, removal withheld) into a build failure. A lasting
   * condition (a list cut short, a repeated slug), which later builds say as an info line after its first
   * warning, fails every build while it holds.
   * @default false
   */
  strict: z.boolean().default(ARTICLES_LOADER_DEFAULTS.strict),
  /**
   * Accept a list that comes back empty or without more than half of the stored articles. Without it such a
   * list is treated as suspect: nothing is removed and the build warns.
   * @default false
   */
  allowMassRemoval: z.boolean().default(ARTICLES_LOADER_DEFAULTS.allowMassRemoval),
  /**
   * Leftover budget re-fetches articles last checked longer ago than this (oldest first); `false` turns it off.
   * @default 24
   */
  revalidateAfterHours: z
    .union([
      z
        .number()
        .positive()
        .max(24 * 365),
      z.literal(false),
    ])
    .default(ARTICLES_LOADER_DEFAULTS.revalidateAfterHours),
  /**
   * How long a renamed article's old slug is remembered (days): the blog redirects its old URL to the new one
   * (a redirect page, the host's `_redirects`, or a 301 on demand) and points links at the new URL meanwhile.
   * `0` forgets a move at the next build.
   * @default 365
   */
  movesKeptDays: z
    .number()
    .min(0)
    .max(365 * 10)
    .default(ARTICLES_LOADER_DEFAULTS.movesKeptDays),
});

export type ResolvedArticlesLoaderOptions = z.output<typeof articlesLoaderOptionsSchema>;

export const dataLoaderOptionsSchema = connectionSchema.extend({
  /** Skip the request when the stored copy is younger than this many minutes (0: one request every build). @default 0 */
  maxAgeMinutes: z
    .number()
    .min(0)
    .max(24 * 60 * 30)
    .default(0),
  /**
   * The same budget as articlesLoader's. A data loader sends at most one request, so `maxRequests` (at least 1)
   * never binds; `reserve` does: no request when the last X-RateLimit-Remaining seen for this key (by any
   * loader of this process) is at or below it.
   * @default { maxRequests: 20, reserve: 5 }
   */
  budget: budgetSchema.default({ ...ARTICLES_LOADER_DEFAULTS.budget }),
  /** Turn a failed or skipped request (stale copy kept) into a build failure. @default false */
  strict: z.boolean().default(false),
});
export type ResolvedDataLoaderOptions = z.output<typeof dataLoaderOptionsSchema>;

/** The README heading that lists the loaders' options, and the line that names it (formatIssue's own). */
const OPTIONS_ANCHOR = 'articlesloader-options';
const OPTIONS_DOCS = optionsDocsLine(OPTIONS_ANCHOR);

const ENV_HINT = {
  siteId: 'PUBLISHER_SITE_ID',
  baseUrl: 'PUBLISHER_BASE_URL',
  apiKey: 'PUBLISHER_API_KEY',
} as const;

/** Fills siteId/baseUrl/apiKey from the environment when the caller left them out. */
export function withEnvDefaults<T extends { siteId?: unknown; baseUrl?: unknown; apiKey?: unknown }>(
  options: T,
  env: Record<string, string | undefined> = process.env,
): T {
  const out: Record<string, unknown> = { ...options };
  if (out.siteId === undefined && env.PUBLISHER_SITE_ID !== undefined && env.PUBLISHER_SITE_ID !== '') {
    const n = Number(env.PUBLISHER_SITE_ID);
    out.siteId = /^\d+$/.test(env.PUBLISHER_SITE_ID.trim()) ? n : env.PUBLISHER_SITE_ID;
  }
  if (out.baseUrl === undefined && env.PUBLISHER_BASE_URL) out.baseUrl = env.PUBLISHER_BASE_URL;
  if (out.apiKey === undefined && env.PUBLISHER_API_KEY) out.apiKey = env.PUBLISHER_API_KEY;
  return out as T;
}

export interface ParseContext {
  /**
   * The factory runs in content.config.ts. Astro reports an error thrown there as "`astro sync` command
   * failed to generate content collection types: <message>." and adds the final period itself, so the
   * message leaves its own out (else the user reads "required..") and the fix is the error's hint, which
   * Astro prints after it (astro-errors.ts).
   */
  contentConfig?: boolean;
}

/** Validates loader options once, strictly; the ConfigError names the option, what was wrong and the fix. */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  factory: string,
  raw: unknown,
  context: ParseContext = {},
): z.output<S> {
  const fail = (problem: OptionProblem): never => {
    // The message carries the fix: `astro dev`, and callers outside Astro, show the message alone.
    const message = `${problem.message} ${problem.hint}`;
    if (!context.contentConfig) throw new ConfigError({ ...problem, message });
    // A build prints the hint after it: where every option is described (said once), not Astro's syntax advice.
    const fix = message.replace(` ${OPTIONS_DOCS}`, '').replace(/\.$/, '');
    throw asAstroUserError(new ConfigError({ ...problem, message: fix, hint: OPTIONS_DOCS }));
  };
  const input = raw ?? {};
  const result = schema.safeParse(input);
  if (result.success) {
    const { baseUrl, allowInsecureHttp } = result.data as { baseUrl?: string; allowInsecureHttp?: boolean };
    const cleartext = baseUrl === undefined ? undefined : cleartextRefusal(baseUrl, allowInsecureHttp);
    if (cleartext) {
      const hint = `Use https, or set ${factory}({ allowInsecureHttp: true }) on a trusted private network.`;
      fail({ option: 'baseUrl', message: `\`baseUrl\` ${cleartext}.`, hint });
    }
    return result.data;
  }
  return fail(
    formatIssue(result.error.issues[0]!, input, {
      call: `${factory}()`,
      docs: 'articlesloader-options',
      env: ENV_HINT,
    }),
  );
}

/**
 * A content-config loader's options (articlesLoader, keywordsLoader, digestLoader), validated once: the
 * connection from the environment where left out, placeholders under `astro sync` (withSyncPlaceholders), and
 * errors worded for Astro's content-config message.
 */
export function parseContentLoaderOptions<
  S extends z.ZodType,
  T extends { siteId?: unknown; baseUrl?: unknown; apiKey?: unknown },
>(schema: S, factory: string, options: T): z.output<S> {
  return parseOptions(schema, factory, withSyncPlaceholders(withEnvDefaults({ ...options })), { contentConfig: true });
}

export const liveArticlesLoaderOptionsSchema = connectionSchema.extend({
  /** Default `status` filter of `getLiveCollection` (a filter passed there wins). @default undefined */
  status: z.string().min(1).max(50).optional(),
  /** Default `language` filter of `getLiveCollection`. @default undefined */
  language: articlesLoaderOptionsSchema.shape.language,
  /** Default `limit` of `getLiveCollection`. @default undefined */
  limit: articlesLoaderOptionsSchema.shape.limit,
  /** Extensions of the sanitising policy. @default undefined */
  sanitize: articlesLoaderOptionsSchema.shape.sanitize,
  /**
   * No call when the last X-RateLimit-Remaining seen is at or below this: visitors cannot spend the
   * requests that builds, the watcher and the CLI need (cached answers are still served).
   * @default 5
   */
  reserve: budgetSchema.shape.reserve,
  /**
   * How long answers (found and not found), lists and the known slugs are reused without a call, in
   * seconds. A slug outside the known list is answered "not found" without a call.
   * @default 60
   */
  cacheSeconds: z.number().int().min(1).max(86_400).default(60),
});
/** What the user may pass to the loaders: documented interfaces, proven equal to the schemas' input. */
export type { ArticlesLoaderOptions, DataLoaderOptions, LiveArticlesLoaderOptions } from './options-docs.js';
