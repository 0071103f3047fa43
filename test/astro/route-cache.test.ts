import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import { memoryCache } from 'astro/config';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import publisher from 'astro-content-publisher';
import { createClient } from '../../src/client/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { runCli } from '../cli/run-cli.js';
import { admin, buildSite, removeBuilds } from '../fixtures/integration-helpers/index.js';

type Handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;

const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';
const LIST = 'GET /api/v1/sites/:id/articles/';
const TOKEN = 'test-invalidate-token-0123456789';
const DAY = 86_400;

// Article pages rendered on demand through liveArticlesLoader and cached by Astro's route cache (memoryCache()
// on @astrojs/node, in this process), invalidated by tag through the injected endpoint by `watch --invalidate`.
// The tests run in order: each starts from the cache state the previous one left.
describe('route caching: on-demand article pages, invalidated by tag (@astrojs/node, memoryCache)', () => {
  let sim: Simulator;
  let server: Server;
  let blog: string;
  let stateDir: string;
  let slugs: string[];
  const saved = { ...process.env };
  const calls = () => {
    const { routes } = sim.stats();
    const count = (route: string) => Object.values(routes[route] ?? {}).reduce((a, b) => a + b, 0);
    return { detail: count(DETAIL), list: count(LIST), authenticated: sim.stats().authenticated };
  };
  const get = async (path: string) => {
    const response = await fetch(`${blog}${path}`);
    return {
      status: response.status,
      cache: response.headers.get('x-astro-cache'),
      cacheControl: response.headers.get('cache-control'),
      text: await response.text(),
    };
  };
  const watchOnce = (token: string) =>
    runCli(
      [
        'watch',
        '--site',
        '12',
        '--once',
        '--state',
        join(stateDir, 'watch.json'),
        '--invalidate',
        `${blog}/_publisher/invalidate`,
      ],
      { env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_INVALIDATE_TOKEN: token } },
    );

  beforeAll(async () => {
    sim = await startSimulator({ articles: 6 });
    // The server runs in this process and reads these at request time (astro:env's getSecret, then process.env).
    process.env.PUBLISHER_API_KEY = sim.tokens.pro;
    process.env.PUBLISHER_BASE_URL = sim.url;
    process.env.PUBLISHER_INVALIDATE_TOKEN = TOKEN;
    const outDir = await buildSite('cache-site', {
      site: 'https://blog.example.com',
      output: 'server',
      adapter: node({ mode: 'standalone' }),
      cache: { provider: memoryCache() },
      routeRules: {
        '/': { maxAge: DAY },
        '/blog/[slug]': { maxAge: DAY },
        '/sitemap.xml': { maxAge: DAY },
        '/rss.xml': { maxAge: DAY },
      },
      integrations: [publisher({ siteId: 12, baseUrl: sim.url, invalidate: true })],
    });
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as { handler: Handler };
    delete process.env.ASTRO_NODE_AUTOSTART;
    server = createServer(entry.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    blog = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro });
    slugs = (await client.articles(12, { status: 'published' })).map((a) => a.slug);
    stateDir = await mkdtemp(join(tmpdir(), 'route-cache-'));
    // The watcher's baseline: the feeds as they are before any edit.
    expect((await watchOnce(TOKEN)).code).toBe(3);
    sim.resetStats();
  }, 240_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await sim?.close();
    await removeBuilds();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
    for (const key of ['PUBLISHER_API_KEY', 'PUBLISHER_BASE_URL', 'PUBLISHER_INVALIDATE_TOKEN'])
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
  });

  it('the first request renders (one detail call) and is cached; the second is served from the cache (no call)', async () => {
    const [a] = slugs;
    const first = await get(`/blog/${a}/`);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('MISS');
    expect(calls().detail).toBe(1);
    const before = calls();
    const second = await get(`/blog/${a}/`);
    expect(second.cache).toBe('HIT');
    expect(second.text).toBe(first.text);
    expect(calls()).toEqual(before);
  });

  it('the list, the other article, the sitemap and the feed are cached as well', async () => {
    for (const path of ['/', `/blog/${slugs[1]}/`, '/sitemap.xml', '/rss.xml']) {
      expect((await get(path)).cache, path).toBe('MISS');
      expect((await get(path)).cache, path).toBe('HIT');
    }
  });

  it('the endpoint refuses a missing token (401), another token (403) and GET (405); nothing is invalidated', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${blog}/_publisher/invalidate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ tags: ['publisher:site-12'] }),
      });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await post({ authorization: `Bearer ${TOKEN.replace(/.$/, 'x')}` });
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain(TOKEN);
    expect((await fetch(`${blog}/_publisher/invalidate`)).status).toBe(405);
    const before = calls();
    for (const path of ['/', `/blog/${slugs[0]}/`, `/blog/${slugs[1]}/`, '/sitemap.xml', '/rss.xml'])
      expect((await get(path)).cache, path).toBe('HIT');
    expect(calls()).toEqual(before);
  });

  it('without a configured token the endpoint refuses everything (503)', async () => {
    delete process.env.PUBLISHER_INVALIDATE_TOKEN;
    try {
      const response = await fetch(`${blog}/_publisher/invalidate`, {
        method: 'POST',
        headers: { authorization: 'Bearer ', 'content-type': 'application/json' },
        body: JSON.stringify({ tags: ['publisher:site-12'] }),
      });
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('PUBLISHER_INVALIDATE_TOKEN');
    } finally {
      process.env.PUBLISHER_INVALIDATE_TOKEN = TOKEN;
    }
    expect((await get(`/blog/${slugs[0]}/`)).cache).toBe('HIT');
  });

  it('an edit upstream, then watch --once --invalidate: only the edited article (and the list, sitemap, feed) is rendered again', async () => {
    const [a, b] = slugs as [string, string];
    await admin(sim.url, 'PATCH', `articles/12/${a}`, {
      title: 'Edited upstream',
      content: '<p>The edited body.</p>',
    });
    // With the wrong token the watcher fails (exit 13) and records nothing: the next run sees the same change.
    const refused = await watchOnce(TOKEN.replace(/.$/, 'x'));
    expect(refused.code).toBe(13);
    expect(refused.stderr).toMatch(/answered 403/);
    expect(refused.stderr + refused.stdout).not.toContain(TOKEN.slice(0, -1));
    expect((await get(`/blog/${a}/`)).cache).toBe('HIT');

    sim.resetStats();
    const done = await watchOnce(TOKEN);
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(/invalidated 4 tag\(s\) \(answered 200\)/);
    expect(done.stderr + done.stdout).not.toContain(TOKEN);
    const state = await readFile(join(stateDir, 'watch.json'), 'utf8');
    expect(state).not.toContain(TOKEN);

    // The endpoint had the live loader list the articles again before it answered (the call the page would send).
    expect(calls()).toEqual({ detail: 0, list: 1, authenticated: 1 });
    const edited = await get(`/blog/${a}/`);
    expect(edited.cache).toBe('MISS');
    expect(edited.text).toContain('Edited upstream');
    expect(edited.text).toContain('The edited body.');
    // One detail call for the edited article, one list call (the known slugs; the list page reuses it).
    expect(calls()).toEqual({ detail: 1, list: 1, authenticated: 2 });

    const other = await get(`/blog/${b}/`);
    expect(other.cache).toBe('HIT');
    const list = await get('/');
    expect(list.cache).toBe('MISS');
    expect(list.text).toContain('Edited upstream');
    expect(calls()).toEqual({ detail: 1, list: 1, authenticated: 2 });
    for (const path of ['/sitemap.xml', '/rss.xml']) expect((await get(path)).cache, path).toBe('MISS');
    expect((await get('/rss.xml')).text).toContain('Edited upstream');
  });
  const invalidate = (tags: string[]) =>
    fetch(`${blog}/_publisher/invalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ tags }),
    });

  it("links to the service's articles in a page point at the blog's pages (no articles loader: the live route serves them)", async () => {
    const page = await get(`/blog/${slugs[2]}/`);
    expect(page.status).toBe(200);
    const links = [...page.text.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((href) => href?.startsWith('https://pro-blog.example.com/blog/'))).toEqual([]);
    expect(links.some((href) => href?.startsWith('https://blog.example.com/blog/'))).toBe(true);
  });

  it('a link to an article the service stopped publishing: its invalidation drops the cached pages linking to it, which link it no more', async () => {
    const blogLinks = (text: string) =>
      [...text.matchAll(/<a [^>]*href="https:\/\/blog\.example\.com\/blog\/([^/"]+)\/"/g)].map((m) => m[1]!);
    // An article of the blog whose page links to another one the blog serves (slugs 3 and 4 are the next tests').
    let from: string | undefined;
    let to: string | undefined;
    for (const slug of slugs.slice(0, 3)) {
      const page = await get(`/blog/${slug}/`);
      to = blogLinks(page.text).find((target) => target !== slug && slugs.slice(0, 3).includes(target));
      if (to !== undefined) {
        from = slug;
        break;
      }
    }
    expect(to, 'an article linking to another').toBeDefined();
    expect((await get(`/blog/${to}/`)).status).toBe(200);

    expect((await get(`/blog/${from}/`)).cache).toBe('HIT');

    await admin(sim.url, 'DELETE', `articles/12/${to}`);
    // The watcher's invalidation names the unpublished article, the list and the feed. The linking page is tagged
    // with the articles it links to: it leaves the cache with them, and is rendered again without the link to the 404.
    expect(
      (await invalidate([`publisher:site-12:${to}`, 'publisher:site-12/articles', 'publisher:site-12/rss'])).status,
    ).toBe(200);
    // The feed first, before any page has listed the articles again: the endpoint had the live loader list them
    // before it answered, so the feed (cached for the route's maxAge) does not link the blog's 404.
    const feed = (await get('/rss.xml')).text;
    expect(feed).toContain(`https://pro-blog.example.com/blog/${to}/`);
    expect(feed).not.toContain(`https://blog.example.com/blog/${to}/`);
    expect((await get(`/blog/${to}/`)).status).toBe(404);
    const page = await get(`/blog/${from}/`);
    expect(page.status).toBe(200);
    expect(page.cache).toBe('MISS');
    expect(blogLinks(page.text)).not.toContain(to);
    expect(page.text).toContain(`href="https://pro-blog.example.com/blog/${to}/"`);
  });

  it('readers of an uncached page share one detail call', async () => {
    const slug = slugs[3]!;
    expect((await invalidate([`publisher:site-12:${slug}`])).status).toBe(200);
    sim.resetStats();
    const pages = await Promise.all(Array.from({ length: 8 }, () => get(`/blog/${slug}/`)));
    expect(pages.every((page) => page.status === 200)).toBe(true);
    expect(calls().detail).toBe(1);
  });

  it("the feed's invalidation during an outage: its kept copy is cached for a minute at most, by the route cache and browsers; then the new feed", async () => {
    const [a] = slugs as [string];
    expect((await get('/rss.xml')).status).toBe(200);
    // Fresh under the route cache: browsers revalidate rather than keep the feed for the service's hour.
    expect((await get('/rss.xml')).cacheControl).toBe('no-cache');
    await admin(sim.url, 'PATCH', `articles/12/${a}`, { title: 'Edited during the outage' });
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/rss.xml', status: 503 });
    const warn = console.warn;
    console.warn = () => undefined;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect((await invalidate(['publisher:site-12/rss'])).status).toBe(200);
      const stale = await get('/rss.xml');
      expect(stale.status).toBe(200);
      expect(stale.cache).toBe('MISS');
      expect(stale.text).not.toContain('Edited during the outage');
      expect(stale.cacheControl).toBe('public, max-age=60');
      expect((await get('/rss.xml')).cache).toBe('HIT');

      // The service is back: a minute later the kept copy has left the route cache, and the feed is the new one.
      await admin(sim.url, 'DELETE', 'faults');
      vi.setSystemTime(Date.now() + 61_000);
      const fresh = await get('/rss.xml');
      expect(fresh.cache).toBe('MISS');
      expect(fresh.text).toContain('Edited during the outage');
    } finally {
      vi.useRealTimers();
      console.warn = warn;
      await admin(sim.url, 'DELETE', 'faults');
    }
  });

  it('an invalidation during an outage: the kept copy is served but cached for a minute at most; then the page answers as the service does', async () => {
    const slug = slugs[4]!;
    expect((await get(`/blog/${slug}/`)).cache).toMatch(/MISS|HIT/);
    // Unpublished while the API fails: the page's invalidation arrives, the next render gets no answer.
    await admin(sim.url, 'DELETE', `articles/12/${slug}`);
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/v1/*', status: 503 });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => void warnings.push(String(message));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect((await invalidate([`publisher:site-12:${slug}`, 'publisher:site-12/articles'])).status).toBe(200);
      sim.resetStats();
      const stale = await get(`/blog/${slug}/`);
      expect(stale.status).toBe(200);
      expect(stale.cache).toBe('MISS');
      expect((await get(`/blog/${slug}/`)).cache).toBe('HIT');
      // A page published meanwhile is not known to the kept list: an error (503), not "not found" (404).
      await admin(sim.url, 'POST', 'articles', { site: 12, title: 'Outage day', slug: 'outage-day' });
      expect((await get('/blog/outage-day/')).status).toBe(503);
      expect((await get('/blog/outage-day/')).status).toBe(503);
      // Failed calls are not sent again at once (each one the client retries once).
      expect(calls().list).toBeLessThanOrEqual(2);
      expect(warnings.join('\n')).toMatch(/liveArticlesLoader \(site 12\).*Served the copy kept from before/);
      expect(warnings.join('\n')).not.toContain(sim.tokens.pro);

      // The service is back; a minute later the kept copy's page has left the cache and answers 404.
      await admin(sim.url, 'DELETE', 'faults');
      vi.setSystemTime(Date.now() + 61_000);
      const gone = await get(`/blog/${slug}/`);
      expect(gone.status).toBe(404);
      expect((await get('/blog/outage-day/')).status).toBe(200);
    } finally {
      vi.useRealTimers();
      console.warn = warn;
      await admin(sim.url, 'DELETE', 'faults');
    }
  });
});
