/**
 * The model and the fast-check commands of the articles loader's model-based test (loader-model.test.ts).
 *
 * An article is keyed by its language and slug (`en:a3`): with the simulator's `sharedSlugs` variant the same
 * slug can be published in `en` and `fr`, and the site then runs one loader per language (as the README
 * advises), each with its own store.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { isPublisherError } from '../../src/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { addFault, publish, patchArticle, ROUTES } from '../faults/helpers.js';
import type { FakeContext } from '../astro/loader-context.js';

export const BUDGET = 6;
export type Lang = 'en' | 'fr';

export interface Article {
  lang: Lang;
  slug: string;
  title: string;
  version: number;
  publishedAt: string;
  /** Publication order on the service: the detail endpoint answers the oldest published article of a slug. */
  seq: number;
  /** The slug it had before a rename: the loader keeps that entry until the renamed one is stored. */
  renamedFrom?: string;
}
export interface Model {
  /** Several languages share slugs (the `sharedSlugs` variant): one loader per language. */
  shared: boolean;
  published: Map<string, Article>;
  unpublished: Map<string, Article>;
  next: number;
  seq: number;
  /** Commands run (a generated command whose precondition fails is skipped). */
  executed: number;
}
export interface Real {
  sim: Simulator;
  /** One store per language loader (`en` only without shared slugs, where the loader has no `language`). */
  ctx: Map<Lang, FakeContext>;
}

export const keyOf = (lang: Lang, slug: string) => `${lang}:${slug}`;

/** The body carries its language, slug and version in the first paragraph (the teaser shows it too). */
export const body = (lang: Lang, slug: string, version: number) =>
  `<p>mark-${lang}-${slug}-v${version}-end</p><h2>Part</h2><p>More of ${slug}.</p>`;

export const loader = (model: Pick<Model, 'shared'>, sim: Simulator, lang: Lang, extra: Record<string, unknown> = {}) =>
  articlesLoader({
    siteId: 12,
    baseUrl: sim.url,
    apiKey: sim.tokens.pro,
    budget: { maxRequests: BUDGET, reserve: 0 },
    ...(model.shared ? { language: lang } : {}),
    ...extra,
  });

/** The language whose body the detail endpoint answers for a slug: the oldest published article of it. */
export function detailLanguage(model: Model, slug: string): Lang | undefined {
  const candidates = [...model.published.values()].filter((a) => a.slug === slug).sort((a, b) => a.seq - b.seq);
  return candidates[0]?.lang;
}

const languageQuery = (model: Model, lang: Lang) => (model.shared ? `?language=${lang}` : '');

function pick(map: Map<string, Article>, n: number): Article {
  return [...map.values()][n % map.size]!;
}

async function unpublishOnService(model: Model, real: Real, article: Article): Promise<void> {
  const response = await fetch(
    `${real.sim.url}/__simulator/articles/12/${article.slug}${languageQuery(model, article.lang)}`,
    { method: 'DELETE' },
  );
  expect(response.status, `unpublish ${keyOf(article.lang, article.slug)}`).toBe(204);
}

async function publishOnService(model: Model, real: Real, article: Article): Promise<void> {
  await publish(real.sim, {
    site: 12,
    title: article.title,
    slug: article.slug,
    language: article.lang,
    content: body(article.lang, article.slug, article.version),
    published_at: article.publishedAt,
  });
  article.seq = model.seq++;
  model.unpublished.delete(keyOf(article.lang, article.slug));
  model.published.set(keyOf(article.lang, article.slug), article);
}

export class Publish implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly title: string,
    readonly lang: Lang,
  ) {}
  check = (m: Readonly<Model>) => m.shared || this.lang === 'en';
  async run(model: Model, real: Real) {
    model.executed += 1;
    const slug = `a${model.next++}`;
    const publishedAt = `2026-0${1 + (model.next % 9)}-1${model.next % 10}`;
    await publishOnService(model, real, { lang: this.lang, slug, title: this.title, version: 1, publishedAt, seq: 0 });
  }
  toString = () => `Publish(${this.title}, ${this.lang})`;
}

/** The same slug published in the other language (shared slugs only). */
export class AddLanguage implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) =>
    m.shared && [...m.published.values()].some((a) => !m.published.has(keyOf(other(a.lang), a.slug)));
  async run(model: Model, real: Real) {
    model.executed += 1;
    const candidates = [...model.published.values()].filter((a) => !model.published.has(keyOf(other(a.lang), a.slug)));
    const source = candidates[this.pick % candidates.length]!;
    const lang = other(source.lang);
    const before = model.unpublished.get(keyOf(lang, source.slug));
    await publishOnService(model, real, {
      lang,
      slug: source.slug,
      title: `${source.title}-${lang}`,
      version: (before?.version ?? 0) + 1,
      publishedAt: source.publishedAt,
      seq: 0,
    });
  }
  toString = () => `AddLanguage(${this.pick})`;
}
const other = (lang: Lang): Lang => (lang === 'en' ? 'fr' : 'en');

export class Edit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly what: 'body' | 'title',
  ) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pick(model.published, this.pick);
    const path = `${article.slug}${languageQuery(model, article.lang)}`;
    if (this.what === 'body') {
      article.version += 1;
      await patchArticle(real.sim, 12, path, { content: body(article.lang, article.slug, article.version) });
    } else {
      article.title = `${article.title}+`;
      await patchArticle(real.sim, 12, path, { title: article.title });
    }
  }
  toString = () => `Edit(${this.pick}, ${this.what})`;
}

export class Unpublish implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pick(model.published, this.pick);
    await unpublishOnService(model, real, article);
    model.published.delete(keyOf(article.lang, article.slug));
    model.unpublished.set(keyOf(article.lang, article.slug), article);
  }
  toString = () => `Unpublish(${this.pick})`;
}

export class Republish implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.unpublished.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pick(model.unpublished, this.pick);
    article.version += 1;
    await publishOnService(model, real, article);
  }
  toString = () => `Republish(${this.pick})`;
}

export class Rename implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pick(model.published, this.pick);
    await unpublishOnService(model, real, article);
    model.published.delete(keyOf(article.lang, article.slug));
    await publishOnService(model, real, {
      ...article,
      slug: `a${model.next++}`,
      version: 1,
      renamedFrom: article.slug,
    });
  }
  toString = () => `Rename(${this.pick})`;
}

export class Fault implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly endpoint: keyof typeof ROUTES,
    readonly status: number,
    readonly times: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    await addFault(real.sim, {
      route: ROUTES[this.endpoint],
      status: this.status,
      times: this.times,
      ...(this.status === 429 ? { retryAfter: 0 } : {}),
    });
  }
  toString = () => `Fault(${this.endpoint}, ${this.status} x${this.times})`;
}

/** A 429 storm: every API and feed request of the next ones answered 429 with Retry-After: 0. */
export class Storm implements fc.AsyncCommand<Model, Real> {
  constructor(readonly times: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    await addFault(real.sim, { route: '*', status: 429, retryAfter: 0, times: this.times });
  }
  toString = () => `Storm(${this.times})`;
}

/** What every build must keep: own content only, nothing lost unless unpublished. */
function checkEntries(model: Model, lang: Lang, ctx: FakeContext, before: Set<string>): void {
  for (const [id, entry] of ctx.entries) {
    // Never another article's or language's content: the marker in the HTML names this entry's language and slug.
    const marks = [...(entry.rendered?.html ?? '').matchAll(/mark-(\w+)-(.+?)-v\d+-end/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(marks, `${lang} entry ${id}`).toEqual([keyOf(lang, id)]);
    // Nor another language's URL (the shared-slugs service puts the language in the path).
    if (model.shared) expect(String(entry.data.url), `${lang} entry ${id} url`).toContain(`/${lang}/`);
  }
  for (const id of before) {
    // Gone only when unpublished (a failed or killed build never loses an entry).
    if (!ctx.entries.has(id))
      expect(model.published.has(keyOf(lang, id)), `${lang} entry ${id} lost while published`).toBe(false);
  }
}

/** Every language's loader runs once, one after the other, as Astro runs a build's loaders. */
export class Build implements fc.AsyncCommand<Model, Real> {
  constructor(readonly killed: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const sentAtStart = real.sim.stats().authenticated;
    for (const [lang, ctx] of real.ctx) {
      const before = new Set(ctx.entries.keys());
      const saved = { entries: structuredClone([...ctx.entries]), meta: new Map(ctx.meta) };
      const sentBefore = real.sim.stats().authenticated;
      try {
        await loader(model, real.sim, lang).load(ctx.context);
      } catch (error) {
        // A failed build (the list failed with nothing stored to serve) is allowed; it must not lose anything.
        expect(isPublisherError(error), String(error)).toBe(true);
        expect(new Set(ctx.entries.keys())).toEqual(before);
      }
      expect(real.sim.stats().authenticated - sentBefore, `requests of the ${lang} loader`).toBeLessThanOrEqual(BUDGET);
      checkEntries(model, lang, ctx, before);
      if (this.killed) {
        // Killed before Astro wrote its data store: the next build starts from what was there before.
        ctx.entries.clear();
        for (const [id, entry] of saved.entries) ctx.entries.set(id, entry);
        ctx.meta.clear();
        for (const [k, v] of saved.meta) ctx.meta.set(k, v);
      }
    }
    expect(real.sim.stats().authenticated - sentAtStart, 'requests of all loaders of the build').toBeLessThanOrEqual(
      BUDGET * real.ctx.size,
    );
  }
  toString = () => (this.killed ? 'KilledBuild' : 'Build');
}

/**
 * A small site to start each sequence from, so that most commands find something to act on: three articles,
 * and with shared slugs one of them also in `fr` plus one `fr` article of its own, then one build.
 */
export async function startingSite(model: Model, real: Real): Promise<void> {
  for (const title of ['Alpha', 'Beta', 'Gamma']) await new Publish(title, 'en').run(model, real);
  if (model.shared) {
    await new AddLanguage(0).run(model, real);
    await new Publish('Delta', 'fr').run(model, real);
  }
  await new Build(false).run(model, real);
  model.executed = 0;
}

export const commands = [
  fc
    .tuple(fc.stringMatching(/^[A-Z][a-z]{2,8}$/), fc.constantFrom('en' as const, 'fr' as const))
    .map(([t, l]) => new Publish(t, l)),
  fc.nat().map((p) => new AddLanguage(p)),
  fc.tuple(fc.nat(), fc.constantFrom('body' as const, 'title' as const)).map(([p, w]) => new Edit(p, w)),
  fc.nat().map((p) => new Unpublish(p)),
  fc.nat().map((p) => new Republish(p)),
  fc.nat().map((p) => new Rename(p)),
  fc
    .tuple(
      fc.constantFrom('list' as const, 'detail' as const, 'sitemap' as const, 'rss' as const),
      fc.constantFrom(500, 503, 429),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([e, s, t]) => new Fault(e, s, t)),
  fc.integer({ min: 2, max: 12 }).map((times) => new Storm(times)),
  fc.boolean().map((killed) => new Build(killed)),
  fc.constant(new Build(false)),
];
