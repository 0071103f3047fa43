/**
 * The Netlify recipe of route caching: @astrojs/netlify's adapter and its own provider (`cacheNetlify()`),
 * built with Astro's real build(). The test runs the function the adapter writes
 * (`.netlify/v1/functions/ssr/ssr.mjs`, called as Netlify's runtime calls it: `handler(request, context)`)
 * behind a local HTTP server, and stands a local HTTP server in for Netlify's purge API
 * (`https://api.netlify.com/api/v1/purge`, the address @netlify/functions' purgeCache posts to; the test
 * points fetch there, as Netlify's runtime wraps fetch too). What only Netlify can show (its CDN storing the
 * page, the purge taking effect at the edge) is not run here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import netlify from '@astrojs/netlify';
import { cacheNetlify } from '@astrojs/netlify/cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { createClient } from '../../src/client/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { runCli } from '../cli/run-cli.js';
import { admin, buildSite, fixtureRoot, removeBuilds } from '../fixtures/integration-helpers/index.js';
import { serveFetchHandler, startRecordingApi, type LocalServer, type RecordingApi } from '../support/fetch-server.js';
import { linkedArticleTags } from '../support/linked-tags.js';

const TOKEN = 'netlify-invalidate-token-0123456789';
// What Netlify's runtime gives every function invocation: the site's id and a token for its purge API.
const SITE_ID = 'site-id-from-netlify';
const PURGE_TOKEN = 'purge-token-from-netlify-runtime';
const NETLIFY_API = 'https://api.netlify.com';
const ROOT = fixtureRoot('cache-netlify');

type NetlifyFunction = {
  default: (request: Request, context: { ip: string }) => Promise<Response>;
  config: { path: string; preferStatic: boolean };
};

let sim: Simulator;
let fn: NetlifyFunction;
let blog: LocalServer;
let purgeApi: RecordingApi;
let slugs: string[];
const realFetch = globalThis.fetch;
const saved = { ...process.env };
let stateDir: string;

const watchOnce = (token: string) =>
  runCli(
    ['watch', '--site', '12', '--once', '--state', join(stateDir, 'watch.json')].concat([
      '--invalidate',
      `${blog.url}/_publisher/invalidate`,
    ]),
    { env: { PUBLISHER_BASE_URL: sim.url, PUBLISHER_INVALIDATE_TOKEN: token } },
  );
const purges = () =>
  purgeApi.requests.map((r) => ({
    method: r.method,
    path: r.path,
    authorization: r.headers.authorization,
    body: JSON.parse(r.body) as { cache_tags: string[]; site_id: string },
  }));

beforeAll(async () => {
  sim = await startSimulator({ articles: 4 });
  stateDir = await mkdtemp(join(tmpdir(), 'route-cache-netlify-'));
  // The function runs in this process and reads these at request time, as on Netlify (process.env).
  process.env.PUBLISHER_API_KEY = sim.tokens.pro;
  process.env.PUBLISHER_BASE_URL = sim.url;
  process.env.PUBLISHER_INVALIDATE_TOKEN = TOKEN;
  process.env.SITE_ID = SITE_ID;
  process.env.NETLIFY_PURGE_API_TOKEN = PURGE_TOKEN;
  await buildSite('cache-netlify', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: netlify(),
    cache: { provider: cacheNetlify() },
    routeRules: { '/': { maxAge: 3_600 }, '/blog/[slug]': { maxAge: 86_400, swr: 600 } },
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, sitemap: false, rss: false, invalidate: true })],
  });
  fn = (await import(pathToFileURL(join(ROOT, '.netlify/v1/functions/ssr/ssr.mjs')).href)) as NetlifyFunction;
  purgeApi = await startRecordingApi();
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin !== NETLIFY_API) return realFetch(input, init);
    const local = `${purgeApi.url}${url.pathname}${url.search}`;
    return realFetch(input instanceof Request ? new Request(local, input) : local, init);
  };
  blog = await serveFetchHandler((request) => fn.default(request, { ip: '127.0.0.1' }), 'https://blog.example.com');
  slugs = (await createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro }).articles(12)).map((a) => a.slug);
}, 240_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await blog?.close();
  await purgeApi?.close();
  await sim?.close();
  for (const key of [
    'PUBLISHER_API_KEY',
    'PUBLISHER_BASE_URL',
    'PUBLISHER_INVALIDATE_TOKEN',
    'SITE_ID',
    'NETLIFY_PURGE_API_TOKEN',
  ])
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  await removeBuilds();
  await rm(join(ROOT, '.netlify'), { recursive: true, force: true });
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

describe('route caching on @astrojs/netlify (cacheNetlify, the built function)', () => {
  it('the build writes one function for every path (the invalidation endpoint too), ahead of static files', async () => {
    expect(fn.config).toMatchObject({ path: '/*', preferStatic: true });
    const response = await fetch(`${blog.url}/_publisher/invalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tags: ['publisher:site-12'] }),
    });
    // The endpoint answers (no token sent: 401), and nothing reached the purge API.
    expect(response.status).toBe(401);
    expect(purgeApi.requests).toEqual([]);
  });

  it("an article page carries the live loader's tags in Netlify-Cache-Tag and its route rule in Netlify-CDN-Cache-Control", async () => {
    const [slug] = slugs;
    const response = await fetch(`${blog.url}/blog/${slug}/`);
    expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(200);
    // Then the tags of the articles it links to: on the blog, or at the service (another language's, here).
    const linked = linkedArticleTags(await response.clone().text(), slug!);
    expect(linked.length, 'the article links to others').toBeGreaterThan(0);
    expect((response.headers.get('netlify-cache-tag') ?? '').split(',')).toEqual([
      'publisher:site-12',
      `publisher:site-12:${slug}`,
      ...linked,
      `astro-path:/blog/${slug}/`,
    ]);
    expect(response.headers.get('netlify-cdn-cache-control')).toBe(
      'public, durable, max-age=86400, stale-while-revalidate=600',
    );
    const list = await fetch(`${blog.url}/`);
    expect(list.headers.get('netlify-cache-tag')).toBe('publisher:site-12,publisher:site-12/articles,astro-path:/');
    expect(list.headers.get('netlify-cdn-cache-control')).toBe('public, durable, max-age=3600');
  });

  it('a page that was not found carries no cache header: Netlify does not keep it', async () => {
    const response = await fetch(`${blog.url}/blog/no-such-article/`);
    expect(response.status).toBe(404);
    expect(response.headers.get('netlify-cdn-cache-control')).toBeNull();
    expect(response.headers.get('netlify-cache-tag')).toBeNull();
  });

  it("watch --invalidate: the function posts the edited article's tag to Netlify's purge API, with the runtime's site id and token", async () => {
    // The watcher's baseline: the feeds as they are before the edit.
    expect((await watchOnce(TOKEN)).code).toBe(3);
    const [slug] = slugs as [string];
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Edited on the service' });
    const done = await watchOnce(TOKEN);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/invalidated 4 tag\(s\) \(answered 200\)/);
    expect(purges()).toEqual([
      {
        method: 'POST',
        path: '/api/v1/purge',
        authorization: `Bearer ${PURGE_TOKEN}`,
        body: {
          cache_tags: expect.arrayContaining([`publisher:site-12:${slug}`, 'publisher:site-12/articles']),
          site_id: SITE_ID,
        },
      },
    ]);
    expect(purges()[0]!.body.cache_tags).toHaveLength(4);
    expect(purges()[0]!.body.cache_tags).not.toContain('publisher:site-12');
    // The page the CDN fetches next is the edited one.
    expect(await (await fetch(`${blog.url}/blog/${slug}/`)).text()).toContain('Edited on the service');
  });

  it("Netlify's API refusing the purge: the endpoint answers 502, watch keeps the change and the next run purges it", async () => {
    const slug = slugs[1]!;
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Edited while the purge API is down' });
    purgeApi.requests.length = 0;
    purgeApi.answer.status = 500;
    const refused = await watchOnce(TOKEN);
    expect(refused.code).toBe(13);
    expect(refused.stderr).toMatch(/answered 502/);
    expect(purges()).toHaveLength(1);

    purgeApi.answer.status = 200;
    const retried = await watchOnce(TOKEN);
    expect(retried.code, retried.stderr).toBe(0);
    expect(purges()).toHaveLength(2);
    expect(purges()[1]!.body.cache_tags).toContain(`publisher:site-12:${slug}`);
  });
});
