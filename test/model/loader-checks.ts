/**
 * What every build of the loader model must keep, judged from the service's truth the model holds
 * (loader-truth.ts): each entry holds one whole published version of its own article and language, never older
 * than what it held; nothing the loader should hold is lost; a failure only as a fault that reached the build
 * causes it.
 */
import { expect } from 'vitest';
import type { FakeContext } from '../astro/loader-context.js';
import { causes, type FaultKind } from './loader-faults.js';
import { expectedOf, keyOf, type Lang, type Model } from './loader-truth.js';

type Entries = FakeContext['entries'];

/** The marks of a stored body: `lang:slug` and version of each first and last paragraph. */
function marks(html: string, which: 'mark' | 'tail'): Array<{ key: string; version: number }> {
  return [...html.matchAll(new RegExp(`${which}-(\\w+)-(.+?)-v(\\d+)-end`, 'g'))].map((m) => ({
    key: `${m[1]}:${m[2]}`,
    version: Number(m[3]),
  }));
}

/** The version an entry holds (its first mark), for the never-older check. */
export function versionOf(entry: Entries extends Map<string, infer E> ? E : never): number | undefined {
  return marks(entry.rendered?.html ?? '', 'mark')[0]?.version;
}

export function checkEntries(model: Model, lang: Lang, ctx: FakeContext, before: Entries): void {
  for (const [id, entry] of ctx.entries) {
    const key = keyOf(lang, id);
    const html = entry.rendered?.html ?? '';
    const head = marks(html, 'mark');
    // Its own article and language only: a copy of another language's article of the slug, or of another slug,
    // shows other marks.
    expect(
      head.map((m) => m.key),
      `${key}: whose body`,
    ).toEqual([key]);
    const version = head[0]!.version;
    // Whole: a body cut by the feed lacks its tail.
    expect(marks(html, 'tail'), `${key}: whole body of v${version}`).toEqual([{ key, version }]);
    const article = model.articles.get(key) ?? model.removed.get(key);
    // Only what the service published: a draft's body (or a draft never published) is not content.
    expect(
      article?.publishedVersions.has(version),
      `${key}: v${version} was published (status now ${article?.status ?? 'removed'})`,
    ).toBe(true);
    // Never older than what it held: a stale copy is not news.
    const held = before.get(id);
    const heldVersion = held ? versionOf(held) : undefined;
    if (heldVersion !== undefined)
      expect(version, `${key}: v${version} after v${heldVersion}`).toBeGreaterThanOrEqual(heldVersion);
    if (model.shared) expect(String(entry.data.url), `${key}: url`).toContain(`/${lang}/`);
  }
  const expected = new Set(expectedOf(model, lang).map((a) => a.slug));
  for (const id of before.keys()) {
    // Gone only when the loader should not hold it (removed, not published, past its `limit`).
    if (!ctx.entries.has(id)) expect(expected.has(id), `${keyOf(lang, id)} lost while published`).toBe(false);
  }
}

/**
 * A failed build is accepted only when a fault that reached it (or the service's own window) causes that error,
 * and it loses nothing.
 */
export function checkFailure(
  error: unknown,
  reachedKinds: Array<FaultKind | 'limiter-429' | 'kill'>,
  ctx: FakeContext,
  before: Entries,
): void {
  const excused = reachedKinds.filter((kind) => causes(kind, error));
  expect(
    excused.length > 0,
    `build failed with ${String(error)} (${(error as Error)?.constructor?.name}); faults that reached it: ${reachedKinds.join(', ') || 'none'}`,
  ).toBe(true);
  expect(new Set(ctx.entries.keys()), 'entries after a failed build').toEqual(new Set(before.keys()));
}
