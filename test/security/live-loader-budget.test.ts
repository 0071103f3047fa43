/**
 * Issue 15, item 5: anonymous visitors of an on-demand blog choose the slugs `getLiveEntry` asks for. Before:
 * every call was one authenticated request (70 random slugs made 70 calls, and then every build, CLI call and
 * real article of the account got 429 for an hour), and a 429 made the visitor wait for Retry-After. Now
 * unknown slugs are answered from a short-lived list of known slugs without a call, answers are cached,
 * calls stop at the reserve and after a 429, and nobody waits.
 */
import { describe, expect, it } from 'vitest';
import { createClient, RateLimitError } from '../../src/client/index.js';
import { liveArticlesLoader } from '../../src/loader/live/live-loader.js';
import { addFault, hits, ROUTES, useFaultSimulator } from '../faults/helpers.js';

const sim = useFaultSimulator({ articles: 8 });
/** Far below the shortest wait the tests' faults ask for (an hour), far above a few local calls on a loaded machine. */
const NO_WAIT_MS = 20_000;

type Loader = ReturnType<typeof liveArticlesLoader>;
const entry = (loader: Loader, slug: string) => loader.loadEntry({ filter: { id: slug } } as never) as Promise<unknown>;
const loader = (extra: Record<string, unknown> = {}) =>
  liveArticlesLoader({ siteId: 12, baseUrl: sim().url, apiKey: sim().tokens.pro, ...extra });

async function realSlugs(): Promise<string[]> {
  const items = await createClient({ baseUrl: sim().url, apiKey: sim().tokens.agence })
    .articles(12)
    .catch(() => []);
  const slugs = items.map((i) => i.slug);
  if (slugs.length === 0) {
    const pro = await createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro }).articles(12);
    slugs.push(...pro.map((i) => i.slug));
  }
  sim().resetStats();
  return slugs;
}

describe('liveArticlesLoader under hostile visitors', () => {
  it('70 random slugs: one list call, no detail call, all "not found", at once', async () => {
    sim().resetStats();
    const live = loader();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) => entry(live, `no-such-article-${i}-${Math.random().toString(36).slice(2)}`)),
    );
    expect(answers.every((a) => a === undefined)).toBe(true);
    const stats = sim().stats();
    expect(hits(stats, ROUTES.list)).toBe(1);
    expect(hits(stats, ROUTES.detail)).toBe(0);
    // Nobody waited: the old loader made 70 calls and waited out each 429's Retry-After (an hour). The bound is not
    // a measure of speed (two local calls), only far below any wait the service can ask for.
    expect(performance.now() - started).toBeLessThan(NO_WAIT_MS);
  });

  it('a real article asked for 20 times: one detail call (answers are cached)', async () => {
    const [slug] = await realSlugs();
    const live = loader();
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await entry(live, slug!));
    expect((answers[0] as { id: string }).id).toBe(slug);
    expect(answers.every((a) => (a as { id?: string }).id === slug)).toBe(true);
    expect(hits(sim().stats(), ROUTES.detail)).toBe(1);
  });

  it('a listed slug whose detail is 404: the "not found" is cached too', async () => {
    const [, slug] = await realSlugs();
    await addFault(sim(), { route: ROUTES.detail, status: 404, times: 1 });
    const live = loader();
    expect(await entry(live, slug!)).toBeUndefined();
    expect(await entry(live, slug!)).toBeUndefined();
    expect(hits(sim().stats(), ROUTES.detail)).toBe(1);
  });

  it('no call at or below the reserve: the visitor gets an error at once, the reserve stays untouched', async () => {
    const [slug] = await realSlugs();
    // A first loader records the window's remaining count (a list call); the next one keeps a reserve above it.
    await entry(loader(), 'warm-up');
    sim().resetStats();
    const answer = (await entry(loader({ reserve: 100_000 }), slug!)) as { error?: Error };
    expect(answer.error).toBeInstanceOf(RateLimitError);
    expect(answer.error!.message).toMatch(
      /liveArticlesLoader sent no request for .*at or below the reserve \(100000\)/,
    );
    expect(sim().stats().authenticated).toBe(0);
  });

  it('a 429 with Retry-After 3600: answered at once, and no further call until then', async () => {
    const slugs = await realSlugs();
    const live = loader();
    await entry(live, 'list-first'); // the known list
    sim().resetStats();
    await addFault(sim(), { route: ROUTES.detail, status: 429, retryAfter: 3600 });
    const started = performance.now();
    const first = (await entry(live, slugs[2]!)) as { error?: Error };
    const second = (await entry(live, slugs[3]!)) as { error?: Error };
    // Waiting out the Retry-After would take 3,600 s.
    expect(performance.now() - started).toBeLessThan(NO_WAIT_MS);
    expect(first.error).toBeInstanceOf(RateLimitError);
    expect(second.error!.message).toMatch(/answered 429 and asked to wait \d+ s more/);
    expect(hits(sim().stats(), ROUTES.detail)).toBe(1);
  });
});
