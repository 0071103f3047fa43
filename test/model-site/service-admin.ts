/**
 * The site model's changes on the service, through the simulator's admin API: each keeps the model's truth
 * (service.ts) in step with what the service now holds.
 */
import { expect } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import {
  bodyOf,
  featuredUrl,
  keyOf,
  SITE_ID,
  type Article,
  type FeedContent,
  type Model,
  type SiteVariant,
} from './service.js';

async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${sim.url}/__simulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${what}: ${text}`).toBe(status);
}

/** Fifty articles in German (no loader of the blog's builds it), newer than any of the model's. */
export async function publishNewerElsewhere(sim: Simulator): Promise<void> {
  for (let i = 0; i < 50; i += 1)
    await expectStatus(
      await admin(sim, 'POST', 'articles', {
        site: SITE_ID,
        title: `Neuer Artikel ${i}`,
        slug: `neu-${i}`,
        language: 'de',
        content: `<p>Neuer Artikel ${i}.</p>`,
        published_at: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
        status: 'published',
      }),
      201,
      `publish de:neu-${i}`,
    );
}

export async function publishArticle(model: Model, sim: Simulator, article: Article): Promise<void> {
  await expectStatus(
    await admin(sim, 'POST', 'articles', {
      site: SITE_ID,
      title: article.title,
      slug: article.slug,
      language: article.lang,
      content: bodyOf(article),
      featured_image: article.featured === null ? null : featuredUrl(article, article.featured),
      published_at: article.publishedAt,
      status: article.status,
    }),
    201,
    `publish ${keyOf(article.lang, article.slug)} (${article.status})`,
  );
  article.seq = model.seq++;
  article.changedAt = model.builds;
  const key = keyOf(article.lang, article.slug);
  model.unpublished.delete(key);
  if (article.status === 'draft') {
    model.drafts.set(key, article);
    model.pending.add('new draft');
    return;
  }
  article.publishedVersions.push(article.version);
  model.published.set(key, article);
  model.watchDirty = true;
  model.pending.add('publish');
}

/**
 * The article's status set to `draft` (leaving the feeds; its body edited at the same time when `edit`), or back
 * to `published` (from then on its current body is published).
 */
export async function setStatus(
  model: Model,
  sim: Simulator,
  article: Article,
  status: Article['status'],
  edit: boolean,
): Promise<void> {
  if (edit) article.version += 1;
  // Set first: patchArticle counts the body as published only for a published article.
  article.status = status;
  await patchArticle(model, sim, article, { status, ...(edit ? { content: bodyOf(article) } : {}) });
  const key = keyOf(article.lang, article.slug);
  if (status === 'draft') {
    model.published.delete(key);
    // Its page may go: only a published article's page must stay.
    model.served.delete(key);
    model.drafts.set(key, article);
    model.pending.add(edit ? 'to draft, edited' : 'to draft');
  } else {
    model.drafts.delete(key);
    model.published.set(key, article);
    model.pending.add('draft published');
  }
}

export async function patchArticle(
  model: Model,
  sim: Simulator,
  article: Article,
  body: Record<string, unknown>,
): Promise<void> {
  await expectStatus(
    await admin(sim, 'PATCH', `articles/${SITE_ID}/${article.slug}?language=${article.lang}`, body),
    200,
    `patch ${keyOf(article.lang, article.slug)}`,
  );
  model.watchDirty = true;
  article.changedAt = model.builds;
  if (article.status === 'published' && !article.publishedVersions.includes(article.version))
    article.publishedVersions.push(article.version);
}

export async function unpublishArticle(model: Model, sim: Simulator, article: Article): Promise<void> {
  await expectStatus(
    await admin(sim, 'DELETE', `articles/${SITE_ID}/${article.slug}?language=${article.lang}`),
    204,
    `unpublish ${keyOf(article.lang, article.slug)}`,
  );
  model.published.delete(keyOf(article.lang, article.slug));
  model.unpublished.set(keyOf(article.lang, article.slug), article);
  model.served.delete(keyOf(article.lang, article.slug));
  model.watchDirty = true;
  model.pending.add('unpublish');
}

export async function addFault(sim: Simulator, spec: Record<string, unknown>): Promise<string> {
  const response = await admin(sim, 'POST', 'faults', spec);
  const text = await response.text();
  expect(response.status, `add a fault: ${text}`).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

/** The ids of the faults the simulator applied at least once (a fault whose `times` ran out is gone). */
export async function appliedFaults(sim: Simulator, ids: string[]): Promise<Set<string>> {
  const { faults } = (await (await admin(sim, 'GET', 'faults')).json()) as {
    faults: Array<{ id: string; applied: number }>;
  };
  const left = new Map(faults.map((f) => [f.id, f.applied]));
  return new Set(ids.filter((id) => !left.has(id) || left.get(id)! > 0));
}

export async function clearFaults(sim: Simulator): Promise<void> {
  await expectStatus(await admin(sim, 'DELETE', 'faults'), 204, 'clear the faults');
}

/** The seed's content (none), faults and windows cleared, shared slugs on, the feed as `feed` says. */
export async function resetService(sim: Simulator, feed: FeedContent): Promise<void> {
  await expectStatus(await admin(sim, 'POST', 'reset'), 200, 'reset the simulator');
  await expectStatus(
    await admin(sim, 'PUT', 'variants', { variants: { sharedSlugs: true, rssContent: feed } }),
    200,
    'set the variants',
  );
}

/** The service plays `variant` from now on, over the base (shared slugs, the sequence's feed). */
export async function setVariant(model: Model, sim: Simulator, variant: SiteVariant): Promise<void> {
  await expectStatus(
    await admin(sim, 'PUT', 'variants', {
      variants: { sharedSlugs: true, rssContent: model.feed, ...variant.service },
    }),
    200,
    `set the variant ${variant.name}`,
  );
  model.variant = variant;
}
