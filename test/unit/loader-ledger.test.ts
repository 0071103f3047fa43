// The loaders of one build take turns on one key (ledger.ts). A loader joins the line when takeTurn is called,
// before its own preparation (seeding its store) settles: found by CI, where the fr loader of a two-language
// site was still seeding when the en loader's whole turn ended, started a round of its own, and asked the
// service again for a detail the en loader had just been answered in en (3 detail calls instead of 2).
import { describe, expect, it } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
import { articlesLoader } from '../../src/loader/articles/articles-loader.js';
import { digestLoader, keywordsLoader } from '../../src/loader/data/data-loaders.js';
import { roundStartedAt, takeTurn, waitingBehind } from '../../src/loader/budget/ledger.js';

const BASE = 'https://ledger.example.com';
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('takeTurn', () => {
  it('a loader still preparing belongs to the round of the turn ahead of it, and is counted behind it', async () => {
    const key = `key-${Math.random()}`;
    const seen: { round?: number; behind?: ReturnType<typeof waitingBehind> } = {};
    const first = takeTurn(BASE, key, async () => {
      seen.round = roundStartedAt(BASE, key);
      seen.behind = waitingBehind(BASE, key);
    });
    const slowSeed = later(60);
    const second = takeTurn(BASE, key, async () => roundStartedAt(BASE, key), 'one', slowSeed);
    await first;
    expect(seen.behind).toEqual({ shares: 0, singles: 1 });
    expect(await second).toBe(seen.round);
    // Once every turn ended, the next loader starts a new round.
    await later(5);
    expect(roundStartedAt(BASE, key)).toBeUndefined();
    expect(await takeTurn(BASE, key, async () => roundStartedAt(BASE, key))).toBeGreaterThan(seen.round ?? 0);
  });

  it('a preparation that fails does not fail the turns behind it, and its own turn still runs', async () => {
    const key = `key-${Math.random()}`;
    const failed = Promise.reject(new Error('seed failed'));
    const mine = takeTurn(BASE, key, async () => 'ran', 'share', failed);
    const next = takeTurn(BASE, key, async () => 'next ran');
    expect(await mine).toBe('ran');
    expect(await next).toBe('next ran');
  });
});

describe('the loaders', () => {
  it('join the line when Astro calls load(), before their store is seeded', async () => {
    const loaders = [articlesLoader, keywordsLoader, digestLoader];
    for (const [index, make] of loaders.entries()) {
      const options = { baseUrl: 'http://127.0.0.1:9', apiKey: `btb_sim_pro_joining${index}`, siteId: 12 };
      // A context whose store cannot be seeded: the turn ends with that error, before any request.
      const logger = { info() {}, warn() {}, error() {}, debug() {}, fork: () => logger };
      const context = { collection: 'blog', logger, store: { keys: () => [] }, meta: new Map() };
      const loading = make(options).load(context as unknown as LoaderContext);
      expect(roundStartedAt(options.baseUrl, options.apiKey), make.name).toBeTypeOf('number');
      await loading.catch(() => undefined);
    }
  });
});
