/**
 * The Cloudflare recipe of route caching: @astrojs/cloudflare's own provider (`cacheCloudflare()`), the built
 * worker run in workerd (wrangler's unstable_startWorker on 127.0.0.1). The provider hands caching to
 * Cloudflare's CDN through headers, so what the worker itself can show is the headers the CDN reads (the live
 * loader's tags in `Cache-Tag`, the route rule in `Cloudflare-CDN-Cache-Control`) and the endpoint reading its
 * token from a Cloudflare secret binding.
 */
import cloudflare from '@astrojs/cloudflare';
import { cacheCloudflare } from '@astrojs/cloudflare/cache';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import publisher from 'astro-content-publisher';
import { createClient } from '../../src/client/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildSite, removeBuilds } from '../fixtures/integration-helpers/index.js';

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

const TOKEN = 'cloudflare-invalidate-token-0123456789';
let sim: Simulator;
let worker: Worker | undefined;
let blog: string;
const saved = { key: process.env.PUBLISHER_API_KEY, token: process.env.PUBLISHER_INVALIDATE_TOKEN };

beforeAll(async () => {
  delete process.env.PUBLISHER_API_KEY;
  delete process.env.PUBLISHER_INVALIDATE_TOKEN;
  process.env.WRANGLER_SEND_METRICS = 'false';
  sim = await startSimulator({ articles: 3 });
  const outDir = await buildSite('cache-edge', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: cloudflare(),
    cache: { provider: cacheCloudflare() },
    routeRules: { '/blog/[slug]': { maxAge: 86_400 } },
    vite: { define: { __EDGE_TEST_BASE_URL__: JSON.stringify(sim.url) } },
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, sitemap: false, rss: false, invalidate: true })],
  });
  worker = await unstable_startWorker({
    config: join(outDir, 'server', 'wrangler.json'),
    bindings: {
      PUBLISHER_API_KEY: { type: 'secret_text', value: sim.tokens.pro },
      PUBLISHER_INVALIDATE_TOKEN: { type: 'secret_text', value: TOKEN },
    },
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      persist: false,
      watch: false,
      logLevel: 'none',
    },
  });
  await worker.ready;
  blog = (await worker.url).href.replace(/\/$/, '');
}, 180_000);
afterAll(async () => {
  await worker?.dispose();
  if (saved.key === undefined) delete process.env.PUBLISHER_API_KEY;
  else process.env.PUBLISHER_API_KEY = saved.key;
  if (saved.token !== undefined) process.env.PUBLISHER_INVALIDATE_TOKEN = saved.token;
  await sim?.close();
  await removeBuilds();
});

describe('route caching on @astrojs/cloudflare (cacheCloudflare, workerd)', () => {
  it("an article page carries the live loader's tags and the route rule for Cloudflare's CDN", async () => {
    const [article] = await createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro }).articles(12);
    const response = await fetch(`${blog}/blog/${article!.slug}/`);
    const html = await response.text();
    expect(response.status, html.slice(0, 300)).toBe(200);
    expect(html).toContain(`<h1>${article!.title.replaceAll('&', '&amp;')}</h1>`);
    const tags = (response.headers.get('cache-tag') ?? '').split(',');
    expect(tags).toEqual(expect.arrayContaining(['publisher:site-12', `publisher:site-12:${article!.slug}`]));
    expect(response.headers.get('cloudflare-cdn-cache-control')).toMatch(/max-age=86400/);
  }, 60_000);

  it('the endpoint reads its token from the secret binding: another token 403; the right one reaches the provider (502 where purging is unavailable)', async () => {
    // Miniflare's entry worker answers 500 "Error: Network connection lost." when its connection to the
    // worker drops; in two runs of the whole suite on a loaded machine it did so for this request, never alone (a
    // runtime event of the local workerd, whose cause was not found). The endpoint never writes that text, so
    // such an answer is sent again, at most twice, and said in the log; any answer of the endpoint is judged.
    const post = async (token: string): Promise<{ status: number; text: string }> => {
      for (let attempt = 1; ; attempt += 1) {
        const response = await fetch(`${blog}/_publisher/invalidate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ tags: ['publisher:site-12:x'] }),
        });
        const text = await response.text();
        if (attempt === 3 || response.status !== 500 || !text.startsWith('Error: Network connection lost')) {
          return { status: response.status, text };
        }
        console.log(
          `[route-cache-cloudflare] workerd lost the connection to the worker (attempt ${attempt}); sent again`,
        );
      }
    };
    expect((await post(`${TOKEN}-not`)).status).toBe(403);
    const { status, text } = await post(TOKEN);
    // Past the token: the provider was called. Cloudflare's purge from a worker (`cache.purge` of
    // cloudflare:workers) is in private beta and not in workerd, so the provider throws here, and the endpoint
    // says so with a 502 (watch keeps the change and retries) rather than a false 200.
    expect(status, text).toBe(502);
    expect((JSON.parse(text) as { error?: string }).error).toMatch(/cache provider failed to invalidate/);
  }, 60_000);
});
