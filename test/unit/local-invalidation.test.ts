import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FeedCache } from '../../src/integration/cache/feed-cache.js';
import { invalidateLocally, onLocalInvalidation } from '../../src/loader/process/local-invalidation.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Collects garbage after the current job (a WeakRef's target stays alive until the job that made it ends), until
 * `freed` holds or three times. A full collection of a test worker's heap (which holds Astro and Vite when a build
 * test ran in it before) costs about a second and a half: no more rounds than the check needs.
 */
async function collect(freed: () => boolean = () => true): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    if (freed()) return;
  }
}

describe('local invalidation listeners', () => {
  it('a listener hears every later invalidation while its owner lives, garbage collections or not', async () => {
    const owner = { heard: [] as string[][] };
    onLocalInvalidation(owner, (tags) => owner.heard.push([...tags]));
    invalidateLocally(['publisher:site-1:a']);
    await collect();
    invalidateLocally(['publisher:site-1:b', 'publisher:site-1/articles']);
    invalidateLocally([]);
    expect(owner.heard).toEqual([['publisher:site-1:a'], ['publisher:site-1:b', 'publisher:site-1/articles']]);
  });

  it('a listener that refers to its owner does not keep it alive: each build or reload in one process is freed', async () => {
    // As the routes of one build: the feed caches and the listeners that expire them, in one module's scope.
    const build = (): WeakRef<object> => {
      const scope = { caches: new Map<string, string>([['sitemap', 'x'.repeat(1_000_000)]]) };
      onLocalInvalidation(scope, () => scope.caches.clear());
      return new WeakRef(scope);
    };
    const builds = [build(), build(), build()];
    await collect(() => builds.every((ref) => ref.deref() === undefined));
    expect(builds.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
    expect(() => invalidateLocally(['publisher:site-1'])).not.toThrow();
  });

  it("a feed cache's copy expires on an invalidation of its tags, and the cache is freed with its route", async () => {
    let fetched = 0;
    const options = {
      url: 'https://service.example/sitemap.xml',
      timeoutMs: 1_000,
      maxBytes: 1_000,
      transform: (body: string) => body,
      tags: ['publisher:site-1/sitemap'],
      fetch: (async () => new Response(`body ${++fetched}`)) as typeof fetch,
    };
    const cache = new FeedCache(options);
    expect((await cache.get()).value).toBe('body 1');
    invalidateLocally(['publisher:site-2/sitemap']);
    expect((await cache.get()).value).toBe('body 1');
    invalidateLocally(['publisher:site-1/sitemap']);
    expect((await cache.get()).value).toBe('body 2');

    const dropped = ((): WeakRef<FeedCache<string>> => new WeakRef(new FeedCache(options)))();
    await collect(() => dropped.deref() === undefined);
    expect(dropped.deref()).toBeUndefined();
  });
});
