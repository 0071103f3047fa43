/**
 * The fast-check commands of the articles loader's model test (loader-model.test.ts): changes on the service
 * (publish, in another language, non-ASCII, past 50 articles; edit; status; unpublish; republish; rename),
 * faults and storms, and builds, some with a fault injected just before them, some killed from inside.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import type { FakeContext } from '../astro/loader-context.js';
import { checkEntries, checkFailure } from './loader-checks.js';
import { count } from './loader-coverage.js';
import { realNow } from '../support/timing.js';
import {
  appliedCounts,
  faultArb,
  inject,
  KillSignal,
  labelOf,
  LOADER_TIMEOUT_MS,
  reached,
  TIMEOUT_OVERSHOOT_MS,
  type FaultKind,
  type ModelFault,
} from './loader-faults.js';
import {
  editOnService,
  keyOf,
  other,
  published,
  publishOnService,
  STATUSES,
  unpublishOnService,
  type Article,
  type Lang,
  type Model,
  type Real,
  type Status,
} from './loader-truth.js';

export const BUDGET = 6;

export const loader = (model: Model, sim: Real['sim'], lang: Lang, extra: Record<string, unknown> = {}) =>
  articlesLoader({
    siteId: 12,
    baseUrl: sim.url,
    apiKey: sim.tokens.pro,
    budget: { maxRequests: BUDGET, reserve: 0 },
    timeoutMs: LOADER_TIMEOUT_MS,
    ...(model.perLanguage ? { language: lang } : {}),
    ...model.variant.loader,
    ...extra,
  });

const pickOf = <T>(values: T[], n: number): T | undefined => values[n % Math.max(1, values.length)];
const existing = (m: Readonly<Model>) => [...m.articles.values()];

/**
 * A command, with the kinds of the coverage table it brings to the next build (loader-coverage.ts): a change
 * made, or what a build meets (its fault, its kill). The opening's commands (loader-opening.ts) say this way
 * what each variant's sequences are bound to cover.
 */
export type Cmd = fc.AsyncCommand<Model, Real> & { readonly brings: readonly string[] };

/** A change's kinds, for the next build to count. */
const bring = (model: Model, cmd: Cmd) => cmd.brings.forEach((kind) => model.pendingKinds.add(kind));

/** Slugs as a service makes them from titles in other scripts. */
const SLUG_KINDS = { ascii: (n: number) => `a${n}`, latin: (n: number) => `ét${n}-ça`, cjk: (n: number) => `記事${n}` };
export type SlugKind = keyof typeof SLUG_KINDS;

export class Publish implements Cmd {
  constructor(
    readonly title: string,
    readonly lang: Lang,
    readonly slugKind: SlugKind,
    readonly status: Status,
    readonly long: boolean,
  ) {}
  get brings() {
    const kind = this.slugKind === 'ascii' && /^[ -~]*$/.test(this.title) ? 'publish' : 'publish non-ASCII';
    return this.status === 'published' ? [kind] : [kind, `status ${this.status}`];
  }
  check = (m: Readonly<Model>) => m.perLanguage || this.lang === 'en';
  async run(model: Model, real: Real) {
    model.executed += 1;
    const n = model.next++;
    const article: Article = {
      lang: this.lang,
      slug: SLUG_KINDS[this.slugKind](n),
      title: `${this.title} ${n}`,
      version: 1,
      publishedAt: `2026-0${1 + (n % 9)}-1${n % 10}`,
      seq: 0,
      status: this.status,
      publishedVersions: new Set(),
      long: this.long,
    };
    await publishOnService(model, real, article);
    bring(model, this);
  }
  toString = () => `Publish(${this.title}, ${this.lang}, ${this.slugKind}, ${this.status}${this.long ? ', long' : ''})`;
}

/** Enough articles at once to pass the feed's 50. */
export class Bulk implements Cmd {
  brings = ['past 50 articles'];
  check = (m: Readonly<Model>) => m.variant.bulk === true && m.articles.size < 60;
  async run(model: Model, real: Real) {
    model.executed += 1;
    for (let i = 0; i < 52; i += 1) await new Publish('Bulk', 'en', 'ascii', 'published', false).run(model, real);
    model.executed -= 52;
    bring(model, this);
  }
  toString = () => 'Bulk(52)';
}

/** The same slug published in the other language (shared slugs only). */
export class AddLanguage implements Cmd {
  constructor(readonly pick: number) {}
  brings = ['language variant'];
  private candidates = (m: Readonly<Model>) =>
    existing(m).filter(
      (a) => !m.articles.has(keyOf(other(a.lang), a.slug)) && !m.removed.has(keyOf(other(a.lang), a.slug)),
    );
  check = (m: Readonly<Model>) => m.shared && this.candidates(m).length > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const source = pickOf(this.candidates(model), this.pick)!;
    const lang = other(source.lang);
    await publishOnService(model, real, {
      ...source,
      lang,
      title: `${source.title}-${lang}`,
      version: 1,
      status: 'published',
      publishedVersions: new Set(),
      seq: 0,
    });
    bring(model, this);
  }
  toString = () => `AddLanguage(${this.pick})`;
}

export class Edit implements Cmd {
  constructor(
    readonly pick: number,
    readonly what: 'body' | 'title',
  ) {}
  get brings() {
    return [`edit ${this.what}`];
  }
  check = (m: Readonly<Model>) => m.articles.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pickOf(existing(model), this.pick)!;
    await editOnService(model, real, article, this.what === 'body' ? { body: true } : { title: `${article.title}+` });
    bring(model, this);
  }
  toString = () => `Edit(${this.pick}, ${this.what})`;
}

export class SetStatus implements Cmd {
  constructor(
    readonly pick: number,
    readonly status: Status,
  ) {}
  get brings() {
    return [`status ${this.status}`];
  }
  check = (m: Readonly<Model>) => m.articles.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    await editOnService(model, real, pickOf(existing(model), this.pick)!, { status: this.status });
    bring(model, this);
  }
  toString = () => `SetStatus(${this.pick}, ${this.status})`;
}

export class Unpublish implements Cmd {
  constructor(readonly pick: number) {}
  brings = ['unpublish'];
  check = (m: Readonly<Model>) => m.articles.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    await unpublishOnService(model, real, pickOf(existing(model), this.pick)!);
    bring(model, this);
  }
  toString = () => `Unpublish(${this.pick})`;
}

export class Republish implements Cmd {
  constructor(readonly pick: number) {}
  brings = ['republish'];
  check = (m: Readonly<Model>) => m.removed.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pickOf([...model.removed.values()], this.pick)!;
    article.version += 1;
    article.status = 'published';
    await publishOnService(model, real, article);
    bring(model, this);
  }
  toString = () => `Republish(${this.pick})`;
}

export class Rename implements Cmd {
  constructor(readonly pick: number) {}
  brings = ['rename'];
  check = (m: Readonly<Model>) => m.articles.size > 0;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const article = pickOf(existing(model), this.pick)!;
    // The old slug stays among the removed (its entry may stay until the renamed one is stored).
    await unpublishOnService(model, real, article);
    await publishOnService(model, real, {
      ...article,
      slug: `a${model.next++}`,
      version: 1,
      publishedVersions: new Set(),
      renamedFrom: article.slug,
    });
    bring(model, this);
  }
  toString = () => `Rename(${this.pick})`;
}

/** A fault that stays until it applied `times` times: it may reach this build or a later one. */
export class Fault implements Cmd {
  constructor(readonly fault: ModelFault) {}
  // It stays until it applied: which build it reaches is not known in advance.
  brings = [];
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    model.faults.set(await inject(real.sim, this.fault), {
      label: labelOf(this.fault),
      kind: this.fault.kind,
      times: this.fault.times,
      api: this.fault.endpoint === 'list' || this.fault.endpoint === 'detail',
      ...(this.fault.kind === '429' ? { retryAfter: this.fault.retryAfter } : {}),
    });
  }
  toString = () => `Fault(${JSON.stringify(this.fault)})`;
}

/** A 429 storm on the API: the next requests answered 429, with the window's headers in the variant's forms. */
export class Storm implements Cmd {
  constructor(readonly times: number) {}
  brings = ['storm'];
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    const response = await fetch(`${real.sim.url}/__simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        route: 'GET /api/v1/*',
        status: 429,
        retryAfter: 1,
        rateLimited: true,
        times: this.times,
      }),
    });
    const { id } = (await response.json()) as { id: string };
    model.faults.set(id, { label: 'storm', kind: '429', times: this.times, api: true, retryAfter: 1 });
  }
  toString = () => `Storm(${this.times})`;
}

/** 429s of the service's own window during a build: those on the API that no fault answered. */
function limiterRejections(real: Real, before: number, faulted429s: number): number {
  const now = Object.entries(real.sim.stats().routes)
    .filter(([route]) => route.includes('/api/v1/'))
    .reduce((sum, [, statuses]) => sum + (statuses['429'] ?? 0), 0);
  return now - before - faulted429s;
}

function api429s(real: Real): number {
  return limiterRejections(real, 0, 0);
}

/** A context whose store throws after its `killAfter`-th write: the build dies there, as a killed process. */
function killable(ctx: FakeContext, killAfter: number | null): { context: FakeContext['context']; killed(): boolean } {
  if (killAfter === null) return { context: ctx.context, killed: () => false };
  let writes = 0;
  const store = ctx.context.store;
  const context = {
    ...ctx.context,
    store: {
      ...store,
      set: (entry: Parameters<typeof store.set>[0]) => {
        writes += 1;
        if (writes === killAfter) throw new KillSignal(writes);
        return store.set(entry);
      },
    },
  } as FakeContext['context'];
  return { context, killed: () => writes >= killAfter };
}

/** Every language's loader runs once, one after the other, as Astro runs a build's loaders. */
export class Build implements Cmd {
  constructor(
    readonly fault: ModelFault | null,
    readonly killAfter: number | null,
  ) {}
  /** Its fault (and the change a detail fault needs) and its kill: each counted only if it really happened. */
  get brings() {
    return [
      ...(this.fault ? [labelOf(this.fault)] : []),
      ...(this.fault?.endpoint === 'detail' ? ['edit body'] : []),
      ...(this.killAfter === null ? [] : ['killed build']),
    ];
  }
  check = () => true;
  async run(model: Model, real: Real) {
    model.executed += 1;
    // A detail fault reaches a build that fetches a detail: one article changes first.
    const changed = published(model)[0];
    if (this.fault?.endpoint === 'detail' && changed) {
      await editOnService(model, real, changed, { body: true });
      model.pendingKinds.add('edit body');
    }
    if (this.fault) await new Fault(this.fault).run(model, real);
    for (const kind of model.pendingKinds) count(kind);
    model.pendingKinds.clear();
    count(`variant ${model.variant.name}`);
    for (const [lang, ctx] of real.ctx) {
      const before = new Map(structuredClone([...ctx.entries]));
      const savedMeta = new Map(ctx.meta);
      const sentBefore = real.sim.stats().authenticated;
      const rejectedBefore = api429s(real);
      const faultsBefore = await appliedCounts(real.sim);
      const run = killable(ctx, this.killAfter);
      let failure: unknown;
      try {
        await loader(model, real.sim, lang).load(run.context);
      } catch (error) {
        failure = error;
      }
      const faultsAfter = await appliedCounts(real.sim);
      const hitIds = reached(faultsBefore, faultsAfter);
      const hit = hitIds.map((id) => model.faults.get(id)!);
      for (const fault of hit) count(fault.label);
      for (const fault of hit)
        if (fault.retryAfter !== undefined)
          model.waitUntil = Math.max(model.waitUntil, realNow() + fault.retryAfter * 1000 + 1000);
      // A request held by a timeout fault is counted by the simulator once it answers, at most the overshoot after
      // the loader gave up on it (the simulator's timer is due before this one): wait for it.
      if (hit.some((f) => f.kind === 'timeout'))
        await new Promise((resolve) => setTimeout(resolve, TIMEOUT_OVERSHOOT_MS + 200));
      // 429s the faults answered on the API (storms and 429 faults of the list or the detail).
      const faulted429s = hitIds
        .filter((id) => model.faults.get(id)!.kind === '429' && model.faults.get(id)!.api)
        .reduce((sum, id) => sum + (faultsAfter.get(id) ?? model.faults.get(id)!.times) - faultsBefore.get(id)!, 0);
      const limiter = Math.max(0, limiterRejections(real, rejectedBefore, faulted429s));
      if (limiter > 0) count('limiter 429');
      const killed = run.killed();
      if (killed) {
        count('killed build');
        // Killed before Astro wrote its data store: the next build starts from what was there before.
        ctx.entries.clear();
        for (const [id, entry] of before) ctx.entries.set(id, structuredClone(entry));
        ctx.meta.clear();
        for (const [k, v] of savedMeta) ctx.meta.set(k, v);
      }
      const kinds: Array<FaultKind | 'limiter-429' | 'kill'> = [
        ...hit.map((f) => f.kind),
        ...(limiter > 0 ? (['limiter-429'] as const) : []),
        ...(killed ? (['kill'] as const) : []),
      ];
      if (failure !== undefined) checkFailure(failure, kinds, ctx, before);
      expect(real.sim.stats().authenticated - sentBefore, `requests of the ${lang} loader`).toBeLessThanOrEqual(BUDGET);
      // What the window allowed: a loader may probe a window it cannot read once, not push on after a 429.
      expect(limiter, `429s of the service's window answered to the ${lang} loader`).toBeLessThanOrEqual(1);
      checkEntries(model, lang, ctx, before);
    }
  }
  toString = () =>
    `Build(${this.fault ? JSON.stringify(this.fault) : ''}${this.killAfter === null ? '' : `, killed after write ${this.killAfter}`})`;
}

const pick = fc.nat(1000);
export const commands = [
  fc
    .record({
      title: fc.constantFrom('Alpha', 'Beta', 'Über uns', 'Ça marche', '東京の夏', 'Ελληνικά'),
      lang: fc.constantFrom<Lang>('en', 'fr'),
      slug: fc.constantFrom<SlugKind>('ascii', 'ascii', 'latin', 'cjk'),
      status: fc.constantFrom<Status>('published', 'published', 'published', ...STATUSES),
      long: fc.boolean(),
    })
    .map((p) => new Publish(p.title, p.lang, p.slug, p.status, p.long)),
  fc.constant(new Bulk()),
  pick.map((p) => new AddLanguage(p)),
  fc.tuple(pick, fc.constantFrom('body' as const, 'title' as const)).map(([p, w]) => new Edit(p, w)),
  fc.tuple(pick, fc.constantFrom(...STATUSES)).map(([p, s]) => new SetStatus(p, s)),
  pick.map((p) => new Unpublish(p)),
  pick.map((p) => new Republish(p)),
  pick.map((p) => new Rename(p)),
  faultArb.map((f) => new Fault(f)),
  fc.integer({ min: 2, max: 12 }).map((times) => new Storm(times)),
  fc.constant(new Build(null, null)),
  faultArb.map((f) => new Build(f, null)),
  faultArb.map((f) => new Build(f, null)),
  faultArb.map((f) => new Build(f, null)),
  fc.integer({ min: 1, max: 4 }).map((n) => new Build(null, n)),
];
