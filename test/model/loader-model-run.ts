/**
 * The run of the loader model's two test files (loader-model.test.ts, loader-model-limit.test.ts): model-based
 * tests of articlesLoader (fast-check commands in loader-commands.ts) against the simulator, under every service
 * variant issue 36 lists (loader-variants.ts): random sequences of service changes (publish, in
 * another language, non-ASCII, past 50 articles; edit; status; unpublish; republish; rename), faults of every
 * endpoint and kind (statuses, timeouts, dropped connections, bad bodies, drift), 429 storms, builds with a fault
 * active, builds killed after their N-th store write, under a real rate limit in some variants.
 *
 * After every build (loader-checks.ts), judged from the service's truth the model keeps: an entry holds one whole
 * published version of its own article and language, never older than it held; nothing the loader should hold
 * is lost; the requests are within the budget and the window; a failure only of the kind a fault that reached
 * the build causes. After the faults clear and the CDN copies and the window expire, quiet builds (as many as
 * the window allows for the articles to fetch) leave each loader's store equal to its published articles at
 * their latest version, except what the model knows the service cannot give (a shared slug whose detail answers
 * the other language, with a feed that does not carry it whole).
 *
 * Each sequence opens with its variant's share of every fault kind, change, storm and kill (loader-opening.ts),
 * then the generated commands. `npm test` runs fixed seeds (one per variant, one run each) and asserts a coverage
 * table of what reached a build: each file, what its variants' openings bring. The variants with a real rate limit
 * are a file of their own: the blog's clock is one per process (blog-clock.ts), so a file runs its variants one
 * after the other, and two files run side by side in two processes;
 * `npm run test:model` runs more runs with a random seed. Replay one variant:
 * MODEL_VARIANT="<part of its name>" MODEL_SEED=<seed> npm run test:model (MODEL_SHRINK=1 shrinks a failure).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetWindow } from '../../src/loader/budget/rate-window.js';
import { startSimulator } from '../../src/simulator/index.js';
import { clearFaults } from '../faults/helpers.js';
import { realNow } from '../support/timing.js';
import { runStarts, timePasses } from './blog-clock.js';
import { fakeContext, type FakeContext } from '../astro/loader-context.js';
import { Build, commands, loader, Publish } from './loader-commands.js';
import { checkEntries } from './loader-checks.js';
import { report, resetCoverage, sequence } from './loader-coverage.js';
import { detailLanguage, expectedOf, keyOf, type Article, type Lang, type Model, type Real } from './loader-truth.js';
import { openingKinds, openingOf } from './loader-opening.js';
import { MODEL_VARIANTS, selectedVariants, type ModelVariant } from './loader-variants.js';
import { RUNS, SEED } from '../support/model-seed.js';

const MAX_COMMANDS = Number(process.env.MODEL_COMMANDS ?? 12);
/**
 * Variants run one after the other unless MODEL_PARALLEL says more: each has its own simulator and the loaders'
 * memory is per service URL, but the blog's clock (`Date`, blog-clock.ts) is one for the process, and a variant's
 * quiet builds move it hours ahead of the other's service.
 */
const PARALLEL = Math.max(1, Number(process.env.MODEL_PARALLEL ?? 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Out of the loader's reach, as the model knows the service: with shared slugs, the detail answers the slug's
 * oldest article (unless it honours `language`), and only a feed carrying the article whole can give the other.
 */
function unreachable(model: Model, article: Article): boolean {
  const service = model.variant.service;
  if (!model.shared || service.detailLanguage === 'honoured') return false;
  if (detailLanguage(model, article.slug) === article.lang) return false;
  const feedWhole = (service.rssContent ?? 'full') === 'full' && (service.rssTruncateAt === undefined || !article.long);
  return !feedWhole;
}

function storeMatches(model: Model, lang: Lang, ctx: FakeContext): boolean {
  const expected = expectedOf(model, lang).filter((a) => !unreachable(model, a));
  return expected.every(
    (a) =>
      ctx.entries.get(a.slug)?.rendered?.html.includes(`mark-${lang}-${a.slug}-v${a.version}-end`) &&
      ctx.entries.get(a.slug)?.data.title === a.title,
  );
}

async function converge(model: Model, real: Real): Promise<void> {
  await clearFaults(real.sim);
  const service = model.variant.service;
  // Every CDN copy old enough to be taken again at the next request.
  const copies = Math.max(
    service.feedCdnMaxAgeSeconds ?? 0,
    service.feedStaleEdgeSeconds ?? 0,
    service.sitemapState === 'stale' ? (service.sitemapStaleSeconds ?? 3600) : 0,
  );
  const window = model.variant.rateLimit;
  await sleep(Math.max(copies * 1000 + 50, window?.windowMs ?? 0, model.waitUntil - realNow()));
  // Without X-RateLimit-Reset the loader cannot know the window reset and counts an hour: the model plays the
  // hour passing (the simulator's window did reset), as a later build in a new hour would see it.
  if (service.rateLimitReset === 'absent') forgetWindow(real.sim.url);
  for (const [lang, ctx] of real.ctx) {
    // The model's accounting: each quiet build may spend a whole window; enough builds to fetch every article.
    const articles = model.articles.size + model.removed.size;
    const perBuild = window ? window.requests - 4 : 1000;
    const builds = 2 + Math.ceil(articles / perBuild);
    const quiet = loader(model, real.sim, lang, {
      budget: { maxRequests: 1000, reserve: 0 },
      revalidateAfterHours: 0.0000001,
      // No fault is left: a slow answer on a loaded machine is not one.
      timeoutMs: 30_000,
      // The documented confirmation of a mass removal: the model's unpublishing is deliberate.
      allowMassRemoval: true,
    });
    for (let i = 0; i < builds; i += 1) {
      if (window && i > 0) await sleep(window.windowMs);
      if (window && i > 0 && service.rateLimitReset === 'absent') forgetWindow(real.sim.url);
      const before = new Map(structuredClone([...ctx.entries]));
      timePasses();
      await quiet.load(ctx.context);
      checkEntries(model, lang, ctx, before);
      if (i >= 1 && storeMatches(model, lang, ctx)) break;
    }
    const mine = expectedOf(model, lang);
    const expected = mine.filter((a) => !unreachable(model, a));
    const pending = mine.filter((a) => unreachable(model, a));
    // A pending one keeps what it held, if anything; a renamed one its old slug's entry (the rename rule).
    const kept = [
      ...pending.filter((a) => ctx.entries.has(a.slug)).map((a) => a.slug),
      ...pending.flatMap((a) => (a.renamedFrom !== undefined && ctx.entries.has(a.renamedFrom) ? [a.renamedFrom] : [])),
    ];
    expect([...ctx.entries.keys()].sort(), `${lang} store after ${builds} quiet builds`).toEqual(
      [...new Set([...expected.map((a) => a.slug), ...kept])].sort(),
    );
    for (const article of expected) {
      const entry = ctx.entries.get(article.slug)!;
      expect(entry.rendered?.html, keyOf(lang, article.slug)).toContain(
        `mark-${lang}-${article.slug}-v${article.version}-end`,
      );
      expect(entry.data.title, keyOf(lang, article.slug)).toBe(article.title);
    }
  }
}

/** A store of its own per language loader, in a collection named for the language (as a site would). */
function languageContext(model: Model, real: Pick<Real, 'sim'>, lang: Lang): FakeContext {
  const ctx = fakeContext(loader(model, real.sim, lang).schema);
  if (model.perLanguage) Object.assign(ctx.context, { collection: `articles-${lang}` });
  return ctx;
}

/** A small site to start from, so that most commands find something to act on, and one build. */
async function startingSite(model: Model, real: Real): Promise<void> {
  for (const title of ['Alpha', 'Beta', 'Gamma'])
    await new Publish(title, 'en', 'ascii', 'published', title === 'Beta').run(model, real);
  if (model.perLanguage) await new Publish('Delta', 'fr', 'ascii', 'published', false).run(model, real);
  await new Build(null, null).run(model, real);
  model.executed = 0;
  model.pendingKinds.clear();
}

function newModel(variant: ModelVariant): Model {
  const shared = variant.service.sharedSlugs === true;
  return {
    variant,
    shared,
    perLanguage: shared || variant.perLanguage === true,
    articles: new Map(),
    removed: new Map(),
    next: 1,
    seq: 1,
    executed: 0,
    pendingKinds: new Set(),
    faults: new Map(),
    waitUntil: 0,
  };
}

let running = 0;
const queue: Array<() => void> = [];
/** Runs `run` when fewer than PARALLEL variants are running. */
async function inTurn<T>(run: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => queue.push(resolve));
  running += 1;
  try {
    return await run();
  } finally {
    running -= 1;
    queue.shift()?.();
  }
}

/**
 * The model's tests under the variants of `mine` that MODEL_VARIANT selects (all, when it is not set): a test per
 * variant, then the coverage of what their openings bring.
 */
export function describeLoaderModel(title: string, mine: (variant: ModelVariant) => boolean): void {
  const VARIANTS = selectedVariants().filter(mine);
  const needed = openingKinds(VARIANTS);
  describe(`articlesLoader model, ${title} (seed ${SEED} + variant index, ${RUNS} runs of up to ${MAX_COMMANDS} commands)`, () => {
    beforeAll(() => resetCoverage());
    afterAll(() => {
      console.log(report(needed).table);
    });

    // A replay (MODEL_VARIANT) may select none of this file's variants: then it has only its coverage test.
    if (VARIANTS.length > 0)
      describe.concurrent(`every variant, ${PARALLEL} at a time`, () => {
        for (const variant of VARIANTS) {
          // Its own seed, the same whether it runs alone (MODEL_VARIANT) or with the others.
          const index = MODEL_VARIANTS.indexOf(variant);
          const seed = SEED + index;
          it(
            `under the variant: ${variant.name}`,
            () =>
              inTurn(async () => {
                const started = performance.now();
                const sim = await startSimulator({
                  articles: 0,
                  rateLimitOverride: variant.rateLimit?.requests ?? 100_000,
                  windowMs: variant.rateLimit?.windowMs ?? 3_600_000,
                  variants: variant.service,
                });
                try {
                  await fc.assert(
                    fc.asyncProperty(
                      fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'max' }),
                      async (cmds) => {
                        sequence([...cmds].length);
                        await fetch(`${sim.url}/__simulator/reset`, { method: 'POST' });
                        // The simulator's reset cleared its window before its time: the loaders' memory of it is wrong.
                        forgetWindow(sim.url);
                        runStarts();
                        const model = newModel(variant);
                        const languages: Lang[] = model.perLanguage ? ['en', 'fr'] : ['en'];
                        const real: Real = { sim, ctx: new Map() };
                        for (const lang of languages) real.ctx.set(lang, languageContext(model, real, lang));
                        await startingSite(model, real);
                        // The variant's opening first (loader-opening.ts: its share of the fault kinds, changes, storm, kill).
                        await fc.asyncModelRun(() => ({ model, real }), [...openingOf(variant), ...cmds]);
                        await converge(model, real);
                      },
                    ),
                    { seed, numRuns: RUNS, verbose: 1, endOnFailure: process.env.MODEL_SHRINK !== '1' },
                  );
                } catch (error) {
                  console.error(
                    `loader model failed under "${variant.name}"; replay: MODEL_VARIANT="${variant.name}" MODEL_SEED=${seed - index} npm run test:model`,
                  );
                  throw error;
                } finally {
                  console.log(
                    `loader model "${variant.name}": seed ${seed}, ${Math.round(performance.now() - started)} ms`,
                  );
                  await sim.close();
                }
              }),
            600_000,
          );
        }
      });

    it("coverage: every change, fault, storm and kill the variants' openings bring reached a build", () => {
      const { table, missing, longest } = report(needed);
      // A filtered run (MODEL_VARIANT) covers what its variants can.
      if (process.env.MODEL_VARIANT) return;
      expect(missing, table).toEqual([]);
      // Sizes honoured: fast-check's commands without a size stop at 10 (a file of five variants drew 11 at most).
      expect(longest, 'the longest sequence generated').toBeGreaterThan(Math.min(10, MAX_COMMANDS - 1));
    });
  });
}
