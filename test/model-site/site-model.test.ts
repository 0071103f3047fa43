/**
 * Model-based test of the whole blog through real Astro (issue 18, item 2): random sequences of service
 * changes (publish, edit the body, the title, the featured image, add or remove in-article images,
 * unpublish, republish, rename, a language variant, a fault on any call, a 429 storm) interleaved with real
 * `astro build` runs of test/fixtures/model-site (every feature on: article and featured images with
 * <Image>, a theme-shaped schema through starterFields and a user's .transform, two languages under
 * language-prefixed routes, incremental builds keyed by entry.digest, sitemap, RSS and robots routes,
 * in-article links), some started by `watch --once`, some killed with SIGKILL mid-build. After every good
 * build, `astro preview` serves the output and site-checks.ts judges it over HTTP; at the end of a sequence
 * quiet builds must bring every page to its article's current version.
 *
 * Each sequence is four rounds that bring every kind of change, a fault, a storm and a kill that really kills
 * to a build, in a random order with random parameters (coveringCommands), then up to MODEL_COMMANDS random
 * commands; what reached a build is printed as a coverage table and asserted. `npm test` runs a fixed seed
 * (one sequence, two more steps); `npm run test:model:site` runs more with a random seed (MODEL_RUNS,
 * MODEL_SEED, MODEL_COMMANDS) and prints the seed (replay: MODEL_SEED=<seed>).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { converge, coveringCommands, startingSite, type Real } from './commands.js';
import { siteDirs } from './runner.js';
import { newModel, resetService, type FeedContent } from './service.js';

const RUNS = Number(process.env.MODEL_RUNS ?? 1);
const SEED =
  process.env.MODEL_SEED === undefined
    ? 20261161
    : process.env.MODEL_SEED === 'random'
      ? Date.now() % 2 ** 31
      : Number(process.env.MODEL_SEED);
/** Random commands after the covering rounds (coveringCommands). */
const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 2);

/**
 * What every sequence must have brought to a build (the coverage table): a seed or a change of the generators
 * that stops covering one of these fails, rather than passing without testing it.
 */
const MUST_REACH = [
  'unpublish',
  'rename',
  'add language',
  'edit body',
  'storm',
  'watch succeeded',
  'build succeeded',
] as const;
const MUST_REACH_ONE_OF: Array<{ what: string; kinds: RegExp }> = [
  { what: 'a fault on a call', kinds: /^fault / },
  { what: 'a kill that really killed', kinds: /^kill at / },
];

describe(`the blog follows the service (seed ${SEED}, ${RUNS} sequences of 4 covering rounds and up to ${MAX_COMMANDS} more steps)`, () => {
  it(
    'every good build serves each article current or pending, nothing foreign, nothing lost, every URL 200',
    async () => {
      const sim = await startSimulator({
        articles: 0,
        rateLimitOverride: 100_000,
        windowMs: 3_600_000,
        variants: { sharedSlugs: true },
      });
      let builds = 0;
      let sequences = 0;
      const coverage = new Map<string, number>();
      try {
        await fc.assert(
          fc.asyncProperty(
            // The feed carries whole articles, or teasers (then a language variant whose slug's detail answers
            // the other language is out of reach, and stays pending).
            fc.constantFrom<FeedContent>('full', 'teaser'),
            coveringCommands(MAX_COMMANDS),
            async (feed, cmds) => {
              await resetService(sim, feed);
              const model = newModel(feed);
              const real: Real = { sim, dirs: await siteDirs() };
              try {
                await startingSite(model, real);
                await fc.asyncModelRun(() => ({ model, real }), cmds);
                await converge(model, real);
                const missing = [
                  ...MUST_REACH.filter((kind) => !model.coverage.has(kind)),
                  ...MUST_REACH_ONE_OF.filter(
                    ({ kinds }) => ![...model.coverage.keys()].some((k) => kinds.test(k)),
                  ).map(({ what }) => what),
                ];
                expect(missing, `what never reached a build in this sequence:\n  ${model.trace.join('\n  ')}`).toEqual(
                  [],
                );
                expect(model.builds, 'builds in the sequence').toBeGreaterThan(5);
              } finally {
                console.log(`site model sequence ${sequences + 1} (feed: ${feed}):\n  ${model.trace.join('\n  ')}`);
                builds += model.builds;
                sequences += 1;
                for (const [kind, count] of model.coverage) coverage.set(kind, (coverage.get(kind) ?? 0) + count);
                await real.dirs.cleanup();
              }
            },
          ),
          // Real builds are slow: no shrinking; the failure prints the steps and the build output.
          { seed: SEED, numRuns: RUNS, endOnFailure: true, verbose: 1 },
        );
      } catch (error) {
        console.error(`site model failed; replay with MODEL_SEED=${SEED} MODEL_RUNS=${RUNS} npm run test:model:site`);
        throw error;
      } finally {
        console.log(`site model: seed ${SEED}, ${sequences} sequences, ${builds} builds`);
        // What reached a build, by kind: changes, faults applied by the service, kills, builds and watch runs.
        console.log(
          `site model coverage:\n${[...coverage]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([kind, count]) => `  ${kind.padEnd(24)} ${count}`)
            .join('\n')}`,
        );
        await sim.close();
      }
    },
    Math.max(900_000, RUNS * 300_000),
  );
});
