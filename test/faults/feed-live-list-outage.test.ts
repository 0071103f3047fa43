/**
 * On demand, the feed routes make their copy of the service's feed for the articles the blog has (the live
 * loader's last list): a new list makes the copy again. That new copy was made from a fresh download only, so
 * an outage right after a list change answered visitors 502, where the same outage a minute earlier served the
 * kept copy. Now the copy is made again from the body it was made from (FeedCache.remake).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveOptions } from '../../src/integration/options/resolve-options.js';
import { handleRss } from '../../src/integration/routes/route-handlers.js';
import { noteLiveArticles } from '../../src/loader/process/live-articles-seen.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, RSS_ROUTE } from '../fixtures/integration-helpers/index.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ articles: 4 });
});
afterAll(async () => {
  await sim.close();
});

it('a new live list during an outage: the feed is made again from the kept body (200, stale), for the new list', async () => {
  const { route } = resolveOptions(
    { siteId: 12, baseUrl: sim.url },
    { site: 'https://blog.example.com', base: '/', output: 'server', trailingSlash: 'ignore' },
    {},
  );
  const visitor = { params: {}, isPrerendered: false, url: new URL('https://blog.example.com/rss.xml') } as never;
  const listed = (
    (await (
      await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } })
    ).json()) as { results: Array<{ slug: string; status: string; language: string }> }
  ).results;
  const [gone, kept] = [listed[0]!.slug, listed[1]!.slug];

  noteLiveArticles(12, listed);
  const first = await handleRss(route, visitor);
  expect(first.status).toBe(200);
  const before = await first.text();
  expect(before).toContain(`https://blog.example.com/blog/${gone}/`);

  // The service stops publishing one article (the live loader's next list lacks it), and its feed goes down.
  noteLiveArticles(
    12,
    listed.filter((article) => article.slug !== gone),
  );
  await admin(sim.url, 'POST', 'faults', { route: RSS_ROUTE, status: 503 });
  const during = await handleRss(route, visitor);
  expect(during.status).toBe(200);
  expect(during.headers.get('cache-control')).toBe('public, max-age=60');
  const stale = await during.text();
  // The article the blog no longer serves keeps the service's address, as the pages link it (no blog 404).
  expect(stale).not.toContain(`https://blog.example.com/blog/${gone}/`);
  expect(stale).toContain(`https://blog.example.com/blog/${kept}/`);
});
