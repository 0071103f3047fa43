/**
 * Slugs come from the service's list and feeds, and become entry ids, page paths and request paths. A
 * hostile or broken upstream slug (path traversal, "/", ".", a query) is never stored and never turns a
 * detail call into a request for another endpoint: the article is reported as not fetched, with a warning.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { articlesLoader } from '../../src/loader/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fakeContext } from '../astro/loader-context.js';
import { addFault, ROUTES } from '../faults/helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ articles: 9 });
});
afterAll(async () => {
  await sim?.close();
});

it('hostile slugs in the list and the RSS feed: not stored, not requested elsewhere, warned about', async () => {
  const headers = { authorization: `Bearer ${sim.tokens.pro}` };
  const list = (
    (await (await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers })).json()) as {
      results: Array<{ slug: string }>;
    }
  ).results;
  const hostile = ['../../../etc/passwd', 'a/b', '.', '..', 'x?limit=1', '..\\13', '%2e%2e'];
  const rss = hostile.reduce(
    (xml, slug, i) => xml.replaceAll(`/blog/${list[i]!.slug}/`, `/blog/${encodeURIComponent(slug)}/`),
    await (await fetch(`${sim.url}/api/sites/12/rss.xml`)).text(),
  );
  await addFault(sim, {
    route: ROUTES.list,
    json: { results: list.map((item, i) => (i < hostile.length ? { ...item, slug: hostile[i] } : item)) },
  });
  await addFault(sim, { route: ROUTES.rss, body: rss });
  sim.resetStats();

  const loader = articlesLoader({ siteId: 12, baseUrl: sim.url, apiKey: sim.tokens.pro });
  const ctx = fakeContext(loader.schema);
  await loader.load(ctx.context);

  for (const id of ctx.entries.keys()) {
    expect(id).toMatch(/^[^/\\?#]+$/);
    expect(['.', '..']).not.toContain(id);
  }
  expect(ctx.logs.find((l) => l.startsWith('warn '))).toMatch(
    /6 article slug\(s\) that cannot be an entry id \(first: "\.\.\/\.\.\/\.\.\/etc\/passwd" contains "\/"\); they were skipped: not stored, not requested/,
  );
  for (const request of sim.stats().requests) {
    expect(request.route, request.path).not.toBe('GET (unmatched)');
    if (request.route === ROUTES.detail) expect(request.path).toMatch(/^\/api\/v1\/sites\/12\/articles\/[^/]+\/$/);
  }
  // Only the list call went to the list endpoint: "." did not become /articles/./ (= the list).
  expect(sim.stats().routes[ROUTES.list]).toEqual({ 200: 1 });
});
