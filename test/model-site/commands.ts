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
import { BUDGET, runBuild, type BuildRun, type KillPoint, type SiteDirs } from './runner.js';
import {
  addFault,
  appliedFaults,
  bodyOf,
  cover,
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
    model.pending.add('add language');
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
    model.pending.add('edit body');
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
    model.pending.add('edit title');
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
    model.pending.add('featured image');
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
    model.pending.add('republish');
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
    model.pending.add('rename');
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
    const id = await addFault(real.sim, {
      route: FAULT_ROUTES[this.endpoint],
      status: this.status,
      times: this.times,
      ...(this.status === 429 ? { retryAfter: 0 } : {}),
    });
    model.faults.push({ id, endpoint: this.endpoint, status: this.status });
  }
  toString = () => `Fault(${this.endpoint}, ${this.status} x${this.times})`;
}

/** A 429 storm: every API and feed request of the next ones answered 429. */
class Storm implements Command {
  constructor(readonly times: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    step(model, `429 storm x${this.times}`);
    const id = await addFault(real.sim, { route: '*', status: 429, retryAfter: 0, times: this.times });
    model.faults.push({ id, endpoint: 'storm', status: 429 });
  }
  toString = () => `Storm(${this.times})`;
}

const failText = (model: Model, run: BuildRun, problems: Problem[] = []) =>
  `steps:\n  ${model.trace.join('\n  ')}\nproblems:\n  ${problems.map((p) => `[${p.kind}] ${p.detail}`).join('\n  ')}\nbuild output:\n${run.logs}`;

/**
 * Whether an applied fault explains a failed build's error: the error must be of the kind that fault causes
 * (it names the call that failed), not any error after any fault.
 */
const CAUSES: Record<string, RegExp> = {
  list: /articles|list/i,
  detail: /articles|detail/i,
  sitemap: /sitemap/i,
  rss: /RSS|feed/i,
  image: /image/i,
  storm: /429|rate limit|too many requests/i,
};
const failureLines = (logs: string) =>
  logs
    .split('\n')
    .filter((line) => /BUILD FAILED|\berror\b|content-publisher: /i.test(line))
    .join('\n');

/** A real build; `killAt` kills it (SIGKILL) while the service holds that call of it. */
export class Build implements Command {
  constructor(
    readonly how: 'build' | 'watch',
    readonly killAt?: KillPoint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await this.execute(model, real, false);
  }
  /** `final`: a quiet build after convergence: only articles out of the loader's reach may be behind. */
  async execute(model: Model, real: Real, final: boolean): Promise<BuildRun> {
    model.builds += 1;
    const stateBefore = await readFile(real.dirs.watchState, 'utf8').catch(() => undefined);
    const run = await runBuild(real.sim, real.dirs, this.how, this.killAt);
    const appliedIds = await appliedFaults(
      real.sim,
      model.faults.map((f) => f.id),
    );
    const applied = model.faults.filter((f) => appliedIds.has(f.id));
    await clearFaults(real.sim);
    model.faults = [];
    for (const record of run.records)
      if (record.route === 'GET /media/*' && record.status !== 200) model.imageFailures.add(record.path);
    step(
      model,
      `${this} -> build ${run.buildExit}${run.how === 'watch' ? `, watch ${run.watchExit}` : ''}; ${run.requests} requests; faults applied: ${applied.map((f) => `${f.endpoint} ${f.status}`).join(', ') || 'none'}`,
    );
    // The coverage table: what reached this build.
    for (const fault of applied)
      cover(model, fault.endpoint === 'storm' ? 'storm' : `fault ${fault.endpoint} ${fault.status}`);
    if (this.killAt) cover(model, run.buildExit === 'killed' ? `kill at ${this.killAt.call} call` : 'kill not reached');
    if (run.buildExit === 0 || run.buildExit === 1) {
      // A killed build (or a watch that ran none) leaves the changes to the next one.
      for (const kind of model.pending) cover(model, kind);
      model.pending.clear();
      cover(model, `${this.how} ${run.buildExit === 0 ? 'succeeded' : 'failed'}`);
    }
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
      // A watch that ran no build and failed: only a fault on what it reads (the public feeds) explains it.
      if (run.buildExit === 'not-run' && run.watchExit !== 3 && run.buildExit !== 'killed')
        expect(
          applied.some((f) => ['rss', 'sitemap', 'storm'].includes(f.endpoint) && CAUSES[f.endpoint]!.test(run.logs)),
          `watch failed (exit ${run.watchExit}) without a fault on the feeds it reads\n${failText(model, run)}`,
        ).toBe(true);
    }
    if (run.buildExit === 'killed' || run.buildExit === 'not-run') return run;
    if (run.buildExit !== 0) {
      const lines = failureLines(run.logs);
      expect(
        applied.some((f) => CAUSES[f.endpoint]!.test(lines)),
        `the build failed with an error no applied fault (${applied.map((f) => `${f.endpoint} ${f.status}`).join(', ') || 'none'}) causes:\n${lines}\n${failText(model, run)}`,
      ).toBe(true);
      return run;
    }
    const problems = await checkSite(model, real.sim, real.dirs, run, final);
    expect(problems, failText(model, run, problems)).toEqual([]);
    return run;
  }
  toString = () =>
    `${this.how === 'watch' ? 'WatchBuild' : 'Build'}${this.killAt === undefined ? '' : `(killed at ${this.killAt.call} call ${this.killAt.n})`}`;
}

/**
 * Quiet builds until every page is what the model says the service has, but for what is out of the loader's
 * reach (at most 3 builds): each build is judged as usual, and the site judged as final after each; the last
 * must pass as final. Judged from the model's truth, never from the build's own count of pending articles.
 */
export async function converge(model: Model, real: Real): Promise<void> {
  await clearFaults(real.sim);
  model.faults = [];
  for (let i = 0; i < 3; i += 1) {
    const last = await new Build('build').execute(model, real, i === 2);
    if (i === 2) return;
    const problems = await checkSite(model, real.sim, real.dirs, last, true);
    if (problems.length === 0) return;
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
const lang = fc.constantFrom<Lang>('en', 'fr');
const how = fc.constantFrom<'build' | 'watch'>('build', 'watch');
const publish = fc.tuple(word, lang).map(([w, l]) => new Publish(w, l));
const addLanguage = n.map((p) => new AddLanguage(p));
const editBody = fc.tuple(n, fc.integer({ min: 0, max: 2 })).map(([p, i]) => new EditBody(p, i));
const editTitle = n.map((p) => new EditTitle(p));
const featured = fc.tuple(n, fc.boolean()).map(([p, r]) => new Featured(p, r));
const unpublish = n.map((p) => new Unpublish(p));
const republish = n.map((p) => new Republish(p));
const rename = n.map((p) => new Rename(p));
// No image faults: the simulator serves /media/ before its fault registry (a fault there is never applied).
const fault = fc
  .tuple(
    fc.constantFrom<keyof typeof FAULT_ROUTES>('list', 'detail', 'sitemap', 'rss'),
    fc.constantFrom(500, 503, 429),
    fc.integer({ min: 1, max: 3 }),
  )
  .map(([e, s, t]) => new Fault(e, s, t));
const storm = fc.integer({ min: 2, max: 12 }).map((t) => new Storm(t));
// Two loaders list once each; a build's detail calls depend on what changed (a whole feed can stand in).
const killPoint = fc.oneof(
  fc.record({ call: fc.constant<'list'>('list'), n: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ call: fc.constant<'detail'>('detail'), n: fc.integer({ min: 1, max: 3 }) }),
);
const build = how.map((h) => new Build(h));
const killedBuild = fc.tuple(how, killPoint).map(([h, k]) => new Build(h, k));
const change = fc.oneof(publish, addLanguage, editBody, editTitle, featured, unpublish, republish, rename);

export const commands: Array<fc.Arbitrary<Command>> = [
  publish,
  addLanguage,
  editBody,
  editTitle,
  featured,
  unpublish,
  republish,
  rename,
  fault,
  storm,
  build,
  build,
  killedBuild,
];

/**
 * Rounds that reach a build with every kind the model claims to cover, whatever the seed: each round is some
 * changes and faults in a random order, then a build. Then `extra` random commands. The kill round edits
 * bodies first, so that its build has detail calls to be held in.
 */
export function coveringCommands(extra: number): fc.Arbitrary<Command[]> {
  const round = (must: Array<fc.Arbitrary<Command>>, end: fc.Arbitrary<Command>) =>
    fc
      .tuple(fc.tuple(...must), fc.array(change, { maxLength: 2 }), end)
      .chain(([required, more, last]) =>
        fc
          .shuffledSubarray([...required, ...more], { minLength: required.length + more.length })
          .map((shuffled) => [...shuffled, last]),
      );
  return fc
    .tuple(
      round([unpublish, fault, editBody], build),
      round(
        [rename, storm, addLanguage],
        how.map((h) => new Build(h)),
      ),
      round([editBody, editBody, featured], killedBuild),
      round([publish, fault, editTitle], fc.constant(new Build('watch'))),
      fc.array(fc.oneof(...commands), { maxLength: extra }),
    )
    .map(([a, b, c, d, rest]) => [...a, ...b, ...c, ...d, ...rest]);
}
