/**
 * The service's truth as the loader model keeps it (loader-model.test.ts): every article the simulator holds, of
 * any status, with the versions of its body that were ever published. The checks judge a build from this, never
 * from what the build said about itself.
 */
import { expect } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { patchArticle, publish } from '../faults/helpers.js';
import type { FakeContext } from '../astro/loader-context.js';
import type { FaultKind } from './loader-faults.js';
import type { ModelVariant } from './loader-variants.js';

export type Lang = 'en' | 'fr';
/** Statuses the model sets: the document's one, two common ones and a word no document names. */
export const STATUSES = ['published', 'draft', 'scheduled', 'pending_review'] as const;
export type Status = (typeof STATUSES)[number];

export interface Article {
  lang: Lang;
  slug: string;
  title: string;
  version: number;
  publishedAt: string;
  /** Publication order on the service: the list's tie-break, and the detail answers the oldest of a slug. */
  seq: number;
  status: Status;
  /** Versions of the body the service showed as published: an entry may hold no other. */
  publishedVersions: Set<number>;
  /** A body longer than the cut of `rssTruncateAt`. */
  long: boolean;
  /** The slug it had before a rename: the loader keeps that entry until the renamed one is stored. */
  renamedFrom?: string;
}

export interface Model {
  variant: ModelVariant;
  /** Several languages, one loader each (`language` set), as the README advises for a multilingual site. */
  perLanguage: boolean;
  /** Slugs shared across languages (the `sharedSlugs` variant). */
  shared: boolean;
  /** Every article on the service, whatever its status, by `lang:slug`. */
  articles: Map<string, Article>;
  /** Unpublished (DELETE) ones, by `lang:slug`, for Republish. */
  removed: Map<string, Article>;
  next: number;
  seq: number;
  /** Commands run (a generated command whose precondition fails is skipped). */
  executed: number;
  /** What happened on the service since the last build (coverage: kinds that reached a build). */
  pendingKinds: Set<string>;
  /** Injected faults by id: what each is, to judge a failed build and count what reached one. */
  faults: Map<string, { label: string; kind: FaultKind; times: number; api: boolean; retryAfter?: number }>;
  /** Until when a 429 that reached a build told the loader to wait (ms, real time: the simulator's): quiet builds start after it. */
  waitUntil: number;
}

export interface Real {
  sim: Simulator;
  /** One store per loader: `en` alone, or one per language. */
  ctx: Map<Lang, FakeContext>;
}

export const keyOf = (lang: Lang, slug: string) => `${lang}:${slug}`;
export const other = (lang: Lang): Lang => (lang === 'en' ? 'fr' : 'en');

/** Some words to make long bodies longer than the feed's cut. */
const FILLER = `<p>${'Filler words that make this body long. '.repeat(20)}</p>`;

/**
 * The body names its language, slug and version at both ends: a copy holding the first mark without the matching
 * tail was cut; marks of another article or language mean a foreign copy.
 */
export const body = (lang: Lang, slug: string, version: number, long: boolean) =>
  `<p>mark-${lang}-${slug}-v${version}-end</p><h2>Part</h2>${long ? FILLER : ''}<p>tail-${lang}-${slug}-v${version}-end</p>`;

export function published(model: Model): Article[] {
  return [...model.articles.values()].filter((a) => a.status === 'published');
}

/** The language whose article the detail endpoint answers for a slug (the oldest of it, any status it shows). */
export function detailLanguage(model: Model, slug: string): Lang | undefined {
  const shown = (a: Article) => a.status === 'published' || model.variant.service.draftDetail === 200;
  const candidates = [...model.articles.values()].filter((a) => a.slug === slug && shown(a));
  return candidates.sort((a, b) => a.seq - b.seq)[0]?.lang;
}

/** The service's list order: newest `published_at` first, then the latest published. */
export function listOrder(articles: Article[]): Article[] {
  return [...articles].sort((a, b) =>
    a.publishedAt === b.publishedAt ? b.seq - a.seq : a.publishedAt < b.publishedAt ? 1 : -1,
  );
}

/** The loader of a language holds these, once it converged: its published articles, the newest `limit` of them. */
export function expectedOf(model: Model, lang: Lang): Article[] {
  const mine = listOrder(published(model).filter((a) => a.lang === lang));
  const limit = model.variant.loader.limit;
  return limit === undefined ? mine : mine.slice(0, limit);
}

const languageQuery = (model: Model, lang: Lang) => (model.shared ? `?language=${lang}` : '');

export async function publishOnService(model: Model, real: Real, article: Article): Promise<void> {
  await publish(real.sim, {
    site: 12,
    title: article.title,
    slug: article.slug,
    language: article.lang,
    content: body(article.lang, article.slug, article.version, article.long),
    published_at: article.publishedAt,
    status: article.status,
  });
  article.seq = model.seq++;
  if (article.status === 'published') article.publishedVersions.add(article.version);
  model.removed.delete(keyOf(article.lang, article.slug));
  model.articles.set(keyOf(article.lang, article.slug), article);
}

export async function unpublishOnService(model: Model, real: Real, article: Article): Promise<void> {
  const response = await fetch(
    `${real.sim.url}/__simulator/articles/12/${encodeURIComponent(article.slug)}${languageQuery(model, article.lang)}`,
    { method: 'DELETE' },
  );
  expect(response.status, `unpublish ${keyOf(article.lang, article.slug)}`).toBe(204);
  model.articles.delete(keyOf(article.lang, article.slug));
  model.removed.set(keyOf(article.lang, article.slug), article);
}

/** An edit on the service: a new body version, a new title or a new status. */
export async function editOnService(
  model: Model,
  real: Real,
  article: Article,
  change: { body?: true; title?: string; status?: Status },
): Promise<void> {
  const patch: Record<string, unknown> = {};
  if (change.body) {
    article.version += 1;
    patch.content = body(article.lang, article.slug, article.version, article.long);
  }
  if (change.title !== undefined) patch.title = article.title = change.title;
  if (change.status !== undefined) patch.status = article.status = change.status;
  await patchArticle(real.sim, 12, `${encodeURIComponent(article.slug)}${languageQuery(model, article.lang)}`, patch);
  if (article.status === 'published') article.publishedVersions.add(article.version);
}
