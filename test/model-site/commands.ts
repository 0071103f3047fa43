/**
 * The fast-check commands of the site model test: service changes (admin API of the simulator), faults,
 * and real builds of the model site (direct or by `watch --once`, some killed), each good build judged by
 * site-checks.ts.
 */
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { checkSite, type Problem } from './site-checks.js';
import { BUDGET, loaderSummaries, runBuild, type BuildRun, type SiteDirs } from './runner.js';
import {
  addFault,
  bodyOf,
  clearFaults,
  featuredUrl,
  freshArticle,
  keyOf,
  LANGS,
  withLinks,
  other,
  patchArticle,
  publishArticle,
  unpublishArticle,
  shadowed,
  type Article,
  type Lang,
  type Model,
} from './service.js';

export interface Real {
  sim: Simulator;
  dirs: SiteDirs;
}
type Command = fc.AsyncCommand<Model, Real>;

const pick = (map: Map<string, Article>, n: number) => [...map.values()][n % map.size]!;
const step = (model: Model, text: string) => model.trace.push(text);

class Publish implements Command {
  constructor(
    readonly word: string,
    readonly lang: Lang,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const article = freshArticle(model, this.lang, this.word);
    step(model, `publish ${keyOf(article.lang, article.slug)}`);
    await publishArticle(model, real.sim, article);
  }
  toString = () => `Publish(${this.word}, ${this.lang})`;
}

/** The same slug published in the other language. */
class AddLanguage implements Command {
  constructor(readonly n: number) {}
  private candidates = (m: Readonly<Model>) =>
    [...m.published.values()].filter((a) => !m.published.has(keyOf(other(a.lang), a.slug)));
  check = (m: Readonly<Model>) => this.candidates(m).length > 0;
  async run(model: Model, real: Real) {
    const source = this.candidates(model)[this.n % this.candidates(model).length]!;
    const lang = other(source.lang);
    const earlier = model.unpublished.get(keyOf(lang, source.slug));
    const article = { ...freshArticle(model, lang, 'Variant', source.slug), publishedAt: source.publishedAt };
    if (earlier) article.version = earlier.version + 1;
    step(model, `add language ${keyOf(lang, source.slug)}`);
    await publishArticle(model, real.sim, article);
  }
  toString = () => `AddLanguage(${this.n})`;
}

/** A new body: new version, `images` in-article images (add or remove), links to what is published now. */
class EditBody implements Command {
  constructor(
    readonly n: number,
    readonly images: number,
  ) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    article.version += 1;
    article.images = this.images;
    withLinks(model, article, this.n + article.version);
    step(model, `edit body ${keyOf(article.lang, article.slug)} v${article.version} (${this.images} images)`);
    await patchArticle(model, real.sim, article, { content: bodyOf(article) });
  }
  toString = () => `EditBody(${this.n}, ${this.images} images)`;
}

class EditTitle implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    article.title = `${article.titles[0]} t${article.titles.length}`;
    article.titles.push(article.title);
    step(model, `edit title ${keyOf(article.lang, article.slug)}: ${article.title}`);
    await patchArticle(model, real.sim, article, { title: article.title });
  }
  toString = () => `EditTitle(${this.n})`;
}

/** Another featured image, or none. */
class Featured implements Command {
  constructor(
    readonly n: number,
    readonly remove: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    // A number never used before: the page's image names which version it shows.
    article.featured = this.remove ? null : model.next++;
    step(model, `featured ${keyOf(article.lang, article.slug)}: ${article.featured ?? 'none'}`);
    await patchArticle(model, real.sim, article, {
      featured_image: article.featured === null ? null : featuredUrl(article, article.featured),
    });
  }
  toString = () => `Featured(${this.n}, ${this.remove ? 'remove' : 'change'})`;
}

class Unpublish implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    step(model, `unpublish ${keyOf(article.lang, article.slug)}`);
    await unpublishArticle(model, real.sim, article);
  }
  toString = () => `Unpublish(${this.n})`;
}

/** Published again, with a new body. */
class Republish implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => [...m.unpublished.values()].some((a) => !m.published.has(keyOf(a.lang, a.slug)));
  async run(model: Model, real: Real) {
    const candidates = new Map([...model.unpublished].filter(([key]) => !model.published.has(key)));
    const article = pick(candidates, this.n);
    article.version += 1;
    step(model, `republish ${keyOf(article.lang, article.slug)} v${article.version}`);
    await publishArticle(model, real.sim, article);
  }
  toString = () => `Republish(${this.n})`;
}

/** A new slug for an article: unpublished under the old one, published under the new (same title and date). */
class Rename implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    const slug = `a${model.next++}`;
    step(model, `rename ${keyOf(article.lang, article.slug)} -> ${slug}`);
    await unpublishArticle(model, real.sim, article);
    await publishArticle(model, real.sim, { ...article, slug, version: 1, titles: [article.title], seq: 0 });
  }
  toString = () => `Rename(${this.n})`;
}

const FAULT_ROUTES = {
  list: 'GET /api/v1/sites/:id/articles/',
  detail: 'GET /api/v1/sites/:id/articles/:slug/',
  sitemap: 'GET /api/sites/:id/sitemap.xml',
  rss: 'GET /api/sites/:id/rss.xml',
  image: 'GET /media/*',
} as const;

/** A fault on one kind of call of the next build (cleared after it). */
class Fault implements Command {
  constructor(
    readonly endpoint: keyof typeof FAULT_ROUTES,
    readonly status: number,
    readonly times: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    step(model, `fault ${this.endpoint} ${this.status} x${this.times}`);
    model.faulted = true;
    await addFault(real.sim, {
      route: FAULT_ROUTES[this.endpoint],
      status: this.status,
      times: this.times,
      ...(this.status === 429 ? { retryAfter: 0 } : {}),
    });
  }
  toString = () => `Fault(${this.endpoint}, ${this.status} x${this.times})`;
}

/** A 429 storm: every API and feed request of the next ones answered 429. */
class Storm implements Command {
  constructor(readonly times: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    step(model, `429 storm x${this.times}`);
    model.faulted = true;
    await addFault(real.sim, { route: '*', status: 429, retryAfter: 0, times: this.times });
  }
  toString = () => `Storm(${this.times})`;
}

const failText = (model: Model, run: BuildRun, problems: Problem[] = []) =>
  `steps:\n  ${model.trace.join('\n  ')}\nproblems:\n  ${problems.map((p) => `[${p.kind}] ${p.detail}`).join('\n  ')}\nbuild output:\n${run.logs}`;

/** A real build; `killAfterMs` kills it (SIGKILL) that long after its loaders started. */
export class Build implements Command {
  constructor(
    readonly how: 'build' | 'watch',
    readonly killAfterMs?: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await this.execute(model, real, false);
  }
  /** `final`: a quiet build after convergence: only articles out of the loader's reach may be behind. */
  async execute(model: Model, real: Real, final: boolean): Promise<BuildRun> {
    model.builds += 1;
    const stateBefore = await readFile(real.dirs.watchState, 'utf8').catch(() => undefined);
    const run = await runBuild(real.sim, real.dirs, this.how, this.killAfterMs);
    await clearFaults(real.sim);
    const faulted = model.faulted;
    model.faulted = false;
    step(
      model,
      `${this} -> build ${run.buildExit}${run.how === 'watch' ? `, watch ${run.watchExit}` : ''}; ${run.requests} requests; ${[...loaderSummaries(run.logs)].map(([l, s]) => `${l}: ${s.total} stored, ${s.pending} pending`).join(', ')}`,
    );
    expect(
      run.requests,
      `requests of all loaders (budget ${BUDGET} each)\n${failText(model, run)}`,
    ).toBeLessThanOrEqual(BUDGET * LANGS.length);
    if (run.how === 'watch') {
      const stateAfter = await readFile(real.dirs.watchState, 'utf8').catch(() => undefined);
      if (run.watchExit === 0) {
        expect(run.buildExit, `watch recorded a trigger of a build that did not succeed\n${failText(model, run)}`).toBe(
          0,
        );
        model.watchDirty = false;
      } else if (run.watchExit === 3) {
        expect(model.watchDirty, `watch saw nothing new after a change\n${failText(model, run)}`).toBe(false);
      } else if (stateBefore === undefined && stateAfter !== undefined) {
        // A failed first-run trigger leaves a state that knows no article, so that the next run triggers.
        const saved = JSON.parse(stateAfter) as { rss: { items: unknown[] }; sitemap: { entries: object } };
        expect([saved.rss.items, saved.sitemap.entries], `a failed first trigger\n${failText(model, run)}`).toEqual([
          [],
          {},
        ]);
      } else {
        expect(stateAfter, `watch changed its state without a trigger\n${failText(model, run)}`).toBe(stateBefore);
      }
    }
    if (run.buildExit === 'killed' || run.buildExit === 'not-run') return run;
    if (run.buildExit !== 0) {
      expect(faulted, `the build failed without a fault\n${failText(model, run)}`).toBe(true);
      return run;
    }
    const problems = await checkSite(model, real.sim, real.dirs, run, final);
    expect(problems, failText(model, run, problems)).toEqual([]);
    return run;
  }
  toString = () =>
    `${this.how === 'watch' ? 'WatchBuild' : 'Build'}${this.killAfterMs === undefined ? '' : `(killed +${this.killAfterMs}ms)`}`;
}

/**
 * Quiet builds until each loader has nothing pending but what is out of its reach (at most 3): the articles
 * whose slug's detail answers another language; then every page must be current, except those articles,
 * which must be counted pending (with a whole feed, only their featured image may be missing).
 */
export async function converge(model: Model, real: Real): Promise<void> {
  await clearFaults(real.sim);
  model.faulted = false;
  for (let i = 0; i < 3; i += 1) {
    const last = await new Build('build').execute(model, real, i === 2);
    const summaries = loaderSummaries(last.logs);
    const settled = LANGS.every((lang) => {
      const out = [...model.published.values()].filter((a) => a.lang === lang && shadowed(model, a)).length;
      return summaries.get(lang)?.pending === out;
    });
    if (settled) {
      // The same output judged again as final (a build is the slow part; its output is what counts).
      if (i < 2) {
        const problems = await checkSite(model, real.sim, real.dirs, last, true);
        expect(problems, failText(model, last, problems)).toEqual([]);
      }
      return;
    }
  }
}

/** Two English articles and one French variant, built once. */
export async function startingSite(model: Model, real: Real): Promise<void> {
  await new Publish('Alpha', 'en').run(model, real);
  await new Publish('Beta', 'en').run(model, real);
  await new AddLanguage(0).run(model, real);
  await new Build('build').run(model, real);
}

const word = fc.stringMatching(/^[A-Z][a-z]{2,7}$/);
const n = fc.nat(50);
const build = fc.constantFrom<'build' | 'watch'>('build', 'watch').map((how) => new Build(how));
export const commands: Array<fc.Arbitrary<Command>> = [
  fc.tuple(word, fc.constantFrom<Lang>('en', 'fr')).map(([w, l]) => new Publish(w, l)),
  n.map((p) => new AddLanguage(p)),
  fc.tuple(n, fc.integer({ min: 0, max: 2 })).map(([p, i]) => new EditBody(p, i)),
  n.map((p) => new EditTitle(p)),
  fc.tuple(n, fc.boolean()).map(([p, r]) => new Featured(p, r)),
  n.map((p) => new Unpublish(p)),
  n.map((p) => new Republish(p)),
  n.map((p) => new Rename(p)),
  fc
    .tuple(
      fc.constantFrom<keyof typeof FAULT_ROUTES>('list', 'detail', 'sitemap', 'rss', 'image'),
      fc.constantFrom(500, 503, 429),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([e, s, t]) => new Fault(e, s, t)),
  fc.integer({ min: 2, max: 12 }).map((t) => new Storm(t)),
  build,
  build,
  fc
    .tuple(fc.constantFrom<'build' | 'watch'>('build', 'watch'), fc.integer({ min: 0, max: 3000 }))
    .map(([how, ms]) => new Build(how, ms)),
];
