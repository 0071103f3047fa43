// What an invalidation by tag drops in this process besides Astro's route cache: the live loader's reuse of its
// answers and lists, and the feed routes' upstream copies. Against the simulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { parseRssFeed } from '../../src/feeds/index.js';
import { FeedCache } from '../../src/integration/cache/feed-cache.js';
import { cacheTags } from '../../src/loader/process/cache-tags.js';
import { liveArticlesLoader } from '../../src/loader/live/live-loader.js';
import { invalidateLocally } from '../../src/loader/process/local-invalidation.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, RSS_ROUTE } from '../fixtures/integration-helpers/index.js';

const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';
const LIST = 'GET /api/v1/sites/:id/articles/';

describe('local invalidation by tag', () => {
  let sim: Simulator;
  let slugs: string[];
  const count = (route: string) => Object.values(sim.stats().routes[route] ?? {}).reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    sim = await startSimulator({ articles: 4 });
    slugs = (await createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro }).articles(12)).map((a) => a.slug);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('live loader: an article tag ends the reuse of that answer only; the list tag of the lists; the site tag of all', async () => {
    const live = liveArticlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro, cacheSeconds: 3600 });
    const entry = async (slug: string) => {
      const answer = await live.loadEntry({ collection: 'live', filter: { id: slug } });
      if (!answer || 'error' in answer) throw new Error(`no entry ${slug}`);
      return answer;
    };
    const [a, b] = slugs as [string, string];
    await entry(a);
    await entry(b);
    sim.resetStats();
    await admin(sim.url, 'PATCH', `articles/12/${a}`, { title: 'Edited title' });
    expect((await entry(a)).data.title).not.toBe('Edited title'); // reused for cacheSeconds

    invalidateLocally([cacheTags.article(12, a), cacheTags.article(13, b)]);
    expect((await entry(a)).data.title).toBe('Edited title');
    await entry(b);
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 1, list: 0 });
    const tags = (await entry(a)).cacheHint?.tags ?? [];
    expect(tags.slice(0, 2)).toEqual(['publisher:site-12', `publisher:site-12:${a}`]);
    // Then the articles it links to, each once.
    for (const tag of tags.slice(2)) expect(tag).toMatch(/^publisher:site-12:[^/]+$/);
    expect(new Set(tags).size).toBe(tags.length);

    invalidateLocally([cacheTags.list(12)]);
    const collection = await live.loadCollection({ collection: 'live', filter: undefined });
    if ('error' in collection) throw collection.error;
    expect(collection.cacheHint?.tags).toEqual(['publisher:site-12', 'publisher:site-12/articles']);
    expect(collection.entries.every((e) => e.cacheHint === undefined)).toBe(true);
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 1, list: 1 });

    invalidateLocally([cacheTags.site(12)]);
    await entry(a);
    await entry(b);
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 3, list: 2 });
  });

  it('live loader: the tag of an article published since the known slugs were listed makes it known', async () => {
    const live = liveArticlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro, cacheSeconds: 3600 });
    const entry = (slug: string) => live.loadEntry({ collection: 'live', filter: { id: slug } });
    expect(await entry(slugs[0]!)).toBeDefined();
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Brand new', slug: 'brand-new' });
    sim.resetStats();
    expect(await entry('brand-new')).toBeUndefined(); // not among the known slugs: no call
    expect(count(DETAIL) + count(LIST)).toBe(0);
    invalidateLocally([cacheTags.article(12, 'brand-new')]);
    const found = await entry('brand-new');
    expect(found && !('error' in found) && found.data.title).toBe('Brand new');
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 1, list: 1 });
    // A known article's tag does not cost a list call.
    invalidateLocally([cacheTags.article(12, slugs[0]!)]);
    await entry(slugs[0]!);
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 2, list: 1 });
  });

  it('live loader: a long non-Latin slug is tagged by its digest; that tag ends its reuse and makes it known', async () => {
    const live = liveArticlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro, cacheSeconds: 3600 });
    const entry = (slug: string) => live.loadEntry({ collection: 'live', filter: { id: slug } });
    const slug = 'как-выбрать-правильный-тариф-для-небольшого-блога';
    expect(await entry(slugs[0]!)).toBeDefined(); // lists: the new slug is not known yet
    await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Длинный', slug });
    expect(await entry(slug)).toBeUndefined();
    invalidateLocally([cacheTags.article(12, slug)]);
    const found = await entry(slug);
    if (!found || 'error' in found) throw new Error('the article did not become known');
    const tag = found.cacheHint?.tags?.[1];
    expect(tag).toMatch(/^publisher:site-12\/slug-[0-9a-f]{32}$/);
    expect(tag).toBe(cacheTags.article(12, slug));
    await admin(sim.url, 'PATCH', `articles/12/${encodeURIComponent(slug)}`, { title: 'Изменено' });
    sim.resetStats();
    invalidateLocally([tag!]);
    const edited = await entry(slug);
    expect(edited && !('error' in edited) && edited.data.title).toBe('Изменено');
    expect({ detail: count(DETAIL), list: count(LIST) }).toEqual({ detail: 1, list: 0 });
  });

  it('feed cache: one of its tags makes the copy expire (revalidated upstream); other tags do not', async () => {
    const url = `${sim.url}/api/sites/12/rss.xml`;
    const feed = new FeedCache<string>({
      url,
      timeoutMs: 5000,
      maxBytes: 10_000_000,
      transform: (body) => (parseRssFeed(body, { url }), body),
      tags: [cacheTags.site(12), cacheTags.rss(12)],
    });
    expect((await feed.get()).outcome).toBe('fetched');
    invalidateLocally([cacheTags.sitemap(12), cacheTags.rss(13)]);
    expect((await feed.get()).outcome).toBe('fresh');
    await admin(sim.url, 'PATCH', `articles/12/${slugs[1]}`, { title: 'Edited in the feed' });
    sim.resetStats();
    invalidateLocally([cacheTags.rss(12)]);
    const after = await feed.get();
    expect(after.outcome).toBe('fetched');
    expect(after.value).toContain('Edited in the feed');
    expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 200: 1 });
  });
});
