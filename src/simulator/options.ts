import { z } from 'zod';
import { formatIssue } from '../options/issues.js';
import { PROFILES, serviceVariantsSchema } from './variants.js';

/**
 * Options of `startSimulator()` and of `content-publisher simulator`.
 * One strict schema: a typo in an option name is an error, not a silently ignored value.
 */
export const simulatorOptionsSchema = z
  .object({
    /**
     * TCP port on 127.0.0.1. `0` lets the system pick a free port (read it from `simulator.url`).
     * @default 0
     */
    port: z.number().int().min(0).max(65_535).default(0),
    /**
     * Seed of the generated content: the same seed gives the same sites, articles and keyword data.
     * @default 1
     */
    seed: z.number().int().min(0).default(1),
    /**
     * Number of seeded articles per site.
     * @default 30
     */
    articles: z.number().int().min(0).max(20_000).default(30),
    /**
     * Which description of the API's rate limits applies: `'first'` (Pro 30/h, Agence 200/h, no `usage` in
     * `/me/`) or `'second'` (Pro 60/h, Agence 600/h, `usage` present).
     * @default 'second'
     */
    rateLimits: z.enum(['first', 'second']).default('second'),
    /**
     * Length of the sliding rate-limit window in milliseconds (shorten it in tests).
     * @default 3_600_000
     */
    windowMs: z.number().int().min(1).default(3_600_000),
    /**
     * How long a `generate` call takes, in milliseconds (the real service takes 60 to 120 s); at most
     * 600_000, like a fault's `delayMs` (a longer wait only makes clients time out).
     * @default 50
     */
    generateDelayMs: z.number().int().min(0).max(600_000).default(50),
    /**
     * Same requests-per-window limit for every user with API access, replacing the plan's limit
     * (for tests and benchmarks of large sites).
     * @default undefined (the plan's limit)
     */
    rateLimitOverride: z.number().int().min(1).optional(),
    /**
     * More tokens for the Pro user (same rate limit as its own tokens), such as a recognisable
     * `btb_leakcheck_...` token for secret-leak tests. Each must match the API's token format
     * (`btb_` then letters, digits, `_` or `-`).
     * @default []
     */
    extraProTokens: z
      .array(
        z
          .string()
          .regex(/^btb_[A-Za-z0-9_-]+$/, 'must be a token like "btb_leakcheck_1" (btb_ then letters, digits, _ or -)'),
      )
      .max(100)
      .default([]),
    /**
     * Answers to what the API document leaves open (list size and paging, sitemap lastmod, RSS content,
     * CDN copies, shared slugs, rate-limit headers): see `serviceVariantsSchema`. Unset keys keep the
     * simulator's original behaviour.
     * @default {}
     */
    variants: serviceVariantsSchema.default(serviceVariantsSchema.parse({})),
    /**
     * A named combination of variants (`current`, `paged`, `sparse`, `multilingual`); `variants` set on
     * top of it win.
     * @default undefined (`current`)
     */
    profile: z.enum(Object.keys(PROFILES) as [keyof typeof PROFILES, ...Array<keyof typeof PROFILES>]).optional(),
  })
  .strict();

export type SimulatorOptions = z.input<typeof simulatorOptionsSchema>;
export type ResolvedSimulatorOptions = z.output<typeof simulatorOptionsSchema>;

/** Validates options and names the offending option and the fix in the error message. */
export function resolveSimulatorOptions(options: SimulatorOptions = {}): ResolvedSimulatorOptions {
  const profile =
    typeof options.profile === 'string' && Object.hasOwn(PROFILES, options.profile) ? PROFILES[options.profile] : {};
  const parsed = simulatorOptionsSchema.safeParse({ ...options, variants: { ...profile, ...options.variants } });
  if (parsed.success) return parsed.data;
  const problem = formatIssue(parsed.error.issues[0]!, options, {
    call: 'startSimulator()',
    docs: 'simulator-a-development-tool',
  });
  throw new TypeError(`${problem.message} ${problem.hint}`);
}
