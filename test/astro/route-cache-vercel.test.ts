/**
 * The Vercel recipe of route caching: @astrojs/vercel's adapter and its own provider (`cacheVercel()`), built
 * with Astro's real build() into the Build Output API (`.vercel/output/`). The test reads the routes Vercel
 * would apply (`config.json`), runs the function (`functions/_render.func`, its `.vc-config.json` handler, a
 * `{ fetch(request) }` module) behind a local HTTP server, and checks the headers Vercel's CDN reads.
 *
 * Purging on Vercel is not an HTTP call the function makes: @vercel/functions' invalidateByTag hands the tag
 * to a purge API that Vercel's runtime puts in the request context (globalThis[Symbol.for(
 * '@vercel/request-context')]). That runtime is Vercel's own and is not installable, so the test stands in
 * for the context with one that records the tags. What only Vercel can show (its CDN storing the page, the
 * purge taking effect) is not run here.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vercel from '@astrojs/vercel';
import { cacheVercel } from '@astrojs/vercel/cache';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { createClient } from '../../src/client/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { runCli } from '../cli/run-cli.js';
import { admin, buildSite, fixtureRoot, removeBuilds } from '../fixtures/integration-helpers/index.js';
import { serveFetchHandler, type LocalServer } from '../support/fetch-server.js';
import { linkedArticleTags } from '../support/linked-tags.js';

const TOKEN = 'vercel-invalidate-token-0123456789';
const ROOT = fixtureRoot('cache-vercel');
const OUTPUT = join(ROOT, '.vercel/output');
const REQUEST_CONTEXT = Symbol.for('@vercel/request-context');

interface VercelRoute {
  src?: string;
  dest?: string;
  handle?: string;
}

let sim: Simulator;
let blog: LocalServer;
let stateDir: string;
let slugs: string[];
const saved = { ...process.env };
/** The tags handed to the runtime's purge API; a failure to simulate when set. */
const purged: string[] = [];
let purgeFailure: Error | undefined;

/** What Vercel's runtime provides a function for each request (here: its purge API only). */
function installRuntimeContext(): void {
  const purge = {
    invalidateByTag: async (tag: string | string[]) => {
      if (purgeFailure) throw purgeFailure;
      purged.push(...[tag].flat());
    },
  };
  Object.assign(globalThis, { [REQUEST_CONTEXT]: { get: () => ({ purge }) } });
}

const watchOnce = () =>
  runCli(
    ['watch', '--site', '12', '--once', '--state', join(stateDir, 'watch.json')].concat([
      '--invalidate',
      `${blog.url}/_publisher/invalidate`,
    ]),
    { env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_INVALIDATE_TOKEN: TOKEN } },
  );

beforeAll(async () => {
  sim = await startSimulator({ articles: 4 });
  stateDir = await mkdtemp(join(tmpdir(), 'route-cache-vercel-'));
  // The function runs in this process and reads these at request time, as on Vercel (process.env).
  process.env.PUBLISHER_API_KEY = sim.tokens.pro;
  process.env.PUBLISHER_BASE_URL = sim.url;
  process.env.PUBLISHER_INVALIDATE_TOKEN = TOKEN;
  await buildSite('cache-vercel', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: vercel(),
    cache: { provider: cacheVercel() },
    routeRules: { '/': { maxAge: 3_600 }, '/blog/[slug]': { maxAge: 86_400, swr: 600 } },
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, sitemap: false, rss: false, invalidate: true })],
  });
  const funcDir = join(OUTPUT, 'functions/_render.func');
  const vc = JSON.parse(await readFile(join(funcDir, '.vc-config.json'), 'utf8')) as { handler: string };
  const fn = (await import(pathToFileURL(join(funcDir, vc.handler)).href)) as {
    default: { fetch(request: Request): Promise<Response> };
  };
  blog = await serveFetchHandler((request) => fn.default.fetch(request), 'https://blog.example.com');
  slugs = (await createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro }).articles(12)).map((a) => a.slug);
}, 240_000);

afterEach(() => {
  Reflect.deleteProperty(globalThis, REQUEST_CONTEXT);
  purged.length = 0;
  purgeFailure = undefined;
});

afterAll(async () => {
  await blog?.close();
  await sim?.close();
  for (const key of ['PUBLISHER_API_KEY', 'PUBLISHER_BASE_URL', 'PUBLISHER_INVALIDATE_TOKEN'])
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  await removeBuilds();
  await rm(join(ROOT, '.vercel'), { recursive: true, force: true });
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('route caching on @astrojs/vercel (cacheVercel, the Build Output API)', () => {
  it("the output's routes send the invalidation endpoint and the article pages to the function", async () => {
    const config = JSON.parse(await readFile(join(OUTPUT, 'config.json'), 'utf8')) as { routes: VercelRoute[] };
    const toFunction = config.routes.filter((route) => route.dest === '_render').map((route) => route.src);
    expect(toFunction).toEqual(expect.arrayContaining(['^/_publisher/invalidate/?$', '^/blog/([^/]+?)/?$', '^/$']));
    const response = await fetch(`${blog.url}/_publisher/invalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['publisher:site-12'] }),
    });
    expect(response.status).toBe(401);
  });

  it("an article page carries the live loader's tags in Vercel-Cache-Tag and its route rule in Vercel-CDN-Cache-Control", async () => {
    const [slug] = slugs;
    const response = await fetch(`${blog.url}/blog/${slug}/`);
    expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(200);
    // Then the tags of the articles it links to: on the blog, or at the service (another language's, here).
    const linked = linkedArticleTags(await response.clone().text(), slug!);
    expect(linked.length, 'the article links to others').toBeGreaterThan(0);
    expect((response.headers.get('vercel-cache-tag') ?? '').split(',')).toEqual([
      'publisher:site-12',
      `publisher:site-12:${slug}`,
      ...linked,
      `astro-path:/blog/${slug}/`,
    ]);
    expect(response.headers.get('vercel-cdn-cache-control')).toBe('public, max-age=86400, stale-while-revalidate=600');
    const list = await fetch(`${blog.url}/`);
    expect(list.headers.get('vercel-cache-tag')).toBe('publisher:site-12,publisher:site-12/articles,astro-path:/');
    const missing = await fetch(`${blog.url}/blog/no-such-article/`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('vercel-cdn-cache-control')).toBeNull();
  });

  it("watch --invalidate: the function hands the edited article's tag to Vercel's purge API", async () => {
    installRuntimeContext();
    expect((await watchOnce()).code).toBe(3);
    const [slug] = slugs as [string];
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Edited on the service' });
    const done = await watchOnce();
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/invalidated 4 tag\(s\) \(answered 200\)/);
    expect(purged).toHaveLength(4);
    expect(purged).toEqual(expect.arrayContaining([`publisher:site-12:${slug}`, 'publisher:site-12/articles']));
    expect(purged).not.toContain('publisher:site-12');
    expect(await (await fetch(`${blog.url}/blog/${slug}/`)).text()).toContain('Edited on the service');
  });

  it('the purge API failing: the endpoint answers 502 and watch keeps the change for its next run', async () => {
    installRuntimeContext();
    const slug = slugs[1]!;
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Edited while purging fails' });
    purgeFailure = new Error('purge unavailable');
    const refused = await watchOnce();
    expect(refused.code).toBe(13);
    expect(refused.stderr).toMatch(/answered 502/);
    purgeFailure = undefined;
    const retried = await watchOnce();
    expect(retried.code, retried.stderr).toBe(0);
    expect(purged).toContain(`publisher:site-12:${slug}`);
  });

  it("outside Vercel's runtime (no request context) invalidateByTag does nothing, and the endpoint still answers 200", async () => {
    const response = await fetch(`${blog.url}/_publisher/invalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ tags: ['publisher:site-12'] }),
    });
    expect(response.status).toBe(200);
    // The guide says so: a 200 from the endpoint is only a purge where Vercel's runtime runs the function.
    expect(await response.json()).toEqual({ invalidated: ['publisher:site-12'], routeCache: true });
  });
});
