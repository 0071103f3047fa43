/**
 * Model-based test of the whole blog through real Astro (issue 18, item 2; issues 36 and 39): a sequence of
 * rounds (rounds.ts), each playing a service variant (a sample of those the loader model draws from: a list that
 * ignores `status` with drafts in it and their detail answered, one that ignores `language` with a detail that
 * honours `?language=`, a capped list that ignores `limit`, two CDN edges serving feed copies of different ages,
 * a feed that cuts long bodies, an empty sitemap, a real rate limit spent with its reset in epoch milliseconds)
 * with service changes (publish, as a draft too, long articles, edits of the body, the title, the featured image,
 * every body at once, status changes published -> draft -> published, unpublish, republish, rename, a language
 * variant, slugs and titles beyond ASCII, the site past the feed's 50), faults of every kind on every call
 * (faults.ts), a 429 storm, and one
 * real `astro build` of test/fixtures/model-site per round
 * (every feature on: article and featured images with <Image>, a theme-shaped schema, two languages under
 * language-prefixed routes, incremental builds, sitemap, RSS and robots routes, in-article links), started
 * directly or by `watch --once`, the first killed with SIGKILL while the service holds one of its calls. After
 * every good build, `astro preview` serves the output and site-checks.ts judges it over HTTP from the service's
 * truth the model keeps; at the end quiet builds must bring every page to its article's current version.
 *
 * What reached a build (per command kind and per variant) is printed as a coverage table and asserted. Each round
 * draws from its own seed (the sequence's seed plus its index). `npm test` runs the fixed seed, one sequence
 * with no extra change per round; `npm run test:model:site` runs more with a random seed (MODEL_RUNS, MODEL_SEED,
 * MODEL_COMMANDS: extra random changes per round) and prints the seed (replay: MODEL_SEED=<seed>).
 */
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import type { Real } from './changes.js';
import { converge } from './commands.js';
import { FAULT_ENDPOINTS, FAULT_KINDS } from './faults.js';
import { RATE_LIMIT, siteDirs } from './runner.js';
import { ROUNDS, roundCommands, startingSite } from './rounds.js';
import { resetService } from './service-admin.js';
import { newModel, type FeedContent } from './service.js';
import { RUNS, SEED } from '../support/model-seed.js';

/** Random changes added to each round. */
const EXTRA = Number(process.env.MODEL_COMMANDS ?? 0);

/**
 * What every sequence must have brought to a build (the coverage table): a seed or a change of the generators
 * that stops covering one of these fails, rather than passing without testing it.
 */
const MUST_REACH = [
  'unpublish',
  'non-ASCII slug',
  "site past the feed's 50",
  'title with &, <, " or non-ASCII',
  'rename',
  'redirect from an old slug',
  'add language',
  'edit body',
  'edit every body',
  'to draft, edited',
  'new draft',
  'publish long',
  'featured image',
  'edit title',
  'storm',
  'watch succeeded',
  // The reset in epoch milliseconds reached the loaders; whether a build also fills the 1 s window depends on the
  // machine's speed (on a loaded one the calls spread over several windows): reported, not required.
  'rate-limit headers answered, reset epoch-ms',
  'build succeeded',
  ...ROUNDS.map((round) => `variant ${round.variant.name}`),
];
const MUST_REACH_ONE_OF: Array<{ what: string; kinds: RegExp }> = [
  ...FAULT_ENDPOINTS.map((endpoint) => ({
    what: `a fault on a ${endpoint} call`,
    kinds: new RegExp(`^fault ${endpoint} `),
  })),
  ...FAULT_KINDS.map((kind) => ({ what: `a fault of the kind ${kind}`, kinds: new RegExp(`^fault \\S+ ${kind}$`) })),
  { what: 'a kill that really killed', kinds: /^kill at / },
];

describe(`the blog follows the service (seed ${SEED}, ${RUNS} sequences of ${ROUNDS.length} rounds with ${EXTRA} extra changes each)`, () => {
  it(
    'every good build serves each article current or pending, nothing foreign, no draft, no cut or older body, nothing lost, every URL 200',
    async () => {
      const sim = await startSimulator({
        articles: 0,
        rateLimitOverride: RATE_LIMIT.requests,
        windowMs: RATE_LIMIT.windowMs,
        variants: { sharedSlugs: true },
      });
      let builds = 0;
      const coverage = new Map<string, number>();
      try {
        for (let run = 0; run < RUNS; run += 1) {
          const seed = SEED + run * ROUNDS.length;
          // The feed carries whole articles, or teasers (then a language variant whose slug's detail answers
          // the other language is out of reach, and stays pending).
          const feed: FeedContent = seed % 2 === 0 ? 'full' : 'teaser';
          await resetService(sim, feed);
          const model = newModel(feed);
          const real: Real = { sim, dirs: await siteDirs() };
          try {
            await startingSite(model, real);
            for (const round of roundCommands(seed, EXTRA))
              for (const command of round) if (command.check(model)) await command.run(model, real);
            await converge(model, real);
            const missing = [
              ...MUST_REACH.filter((kind) => !model.coverage.has(kind)),
              ...MUST_REACH_ONE_OF.filter(({ kinds }) => ![...model.coverage.keys()].some((k) => kinds.test(k))).map(
                ({ what }) => what,
              ),
            ];
            // Required of the fixed rounds; random extra changes may fail a round's only build on purpose (a fault),
            // so a long run reports what it did not reach instead of failing for it.
            if (EXTRA === 0)
              expect(missing, `what never reached a build in this sequence:\n  ${model.trace.join('\n  ')}`).toEqual(
                [],
              );
            else if (missing.length) console.log(`not reached in sequence ${run + 1}: ${missing.join('; ')}`);
          } catch (error) {
            console.error(
              `site model failed; replay with MODEL_SEED=${seed} MODEL_COMMANDS=${EXTRA} MODEL_RUNS=1 npm run test:model:site`,
            );
            throw error;
          } finally {
            console.log(`site model sequence ${run + 1} (seed ${seed}, feed: ${feed}):\n  ${model.trace.join('\n  ')}`);
            builds += model.builds;
            for (const [kind, count] of model.coverage) coverage.set(kind, (coverage.get(kind) ?? 0) + count);
            await real.dirs.cleanup();
          }
        }
      } finally {
        console.log(`site model: seed ${SEED}, ${RUNS} sequences, ${builds} builds`);
        // What reached a build, by kind: changes, faults applied by the service, kills, variants, builds, watch runs.
        console.log(
          `site model coverage:\n${[...coverage]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([kind, count]) => `  ${kind.padEnd(72)} ${count}`)
            .join('\n')}`,
        );
        await sim.close();
      }
    },
    Math.max(900_000, RUNS * 300_000),
  );
});
