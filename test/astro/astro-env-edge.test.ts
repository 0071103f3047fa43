/**
 * astro:env on an edge adapter: a site built with @astrojs/cloudflare runs in workerd (wrangler's
 * unstable_startWorker, on 127.0.0.1), and the live loader reads PUBLISHER_API_KEY from a Cloudflare
 * secret binding and PUBLISHER_SITE_ID from a plain variable through getSecret at request time (the worker has
 * no environment at import). process.env does not carry the key to the worker.
 */
import cloudflare from '@astrojs/cloudflare';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildSite, removeBuilds } from '../fixtures/integration-helpers/index.js';
import { readTree } from './loader-harness.js';

type Worker = Awaited<ReturnType<typeof unstable_startWorker>>;

let sim: Simulator;
let outDir: string;
const workers: Worker[] = [];
const saved = process.env.PUBLISHER_API_KEY;

/** The built worker in workerd, with the key as a secret binding and the site as a plain variable (or not). */
async function start({ key, siteId }: { key?: string; siteId?: string }): Promise<string> {
  const bindings = {
    ...(key === undefined ? {} : { PUBLISHER_API_KEY: { type: 'secret_text' as const, value: key } }),
    ...(siteId === undefined ? {} : { PUBLISHER_SITE_ID: { type: 'plain_text' as const, value: siteId } }),
  };
  const worker = await unstable_startWorker({
    config: join(outDir, 'server', 'wrangler.json'),
    bindings,
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      persist: false,
      watch: false,
      logLevel: 'none',
    },
  });
  workers.push(worker);
  await worker.ready;
  return (await worker.url).href;
}

beforeAll(async () => {
  delete process.env.PUBLISHER_API_KEY;
  process.env.WRANGLER_SEND_METRICS = 'false';
  sim = await startSimulator({ articles: 4 });
  outDir = await buildSite('edge-site', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: cloudflare(),
    vite: { define: { __EDGE_TEST_BASE_URL__: JSON.stringify(sim.url) } },
    integrations: [publisher({ siteId: 12, baseUrl: sim.url, sitemap: false, rss: false })],
  });
}, 120_000);
afterAll(async () => {
  await Promise.all(workers.map((w) => w.dispose()));
  if (saved === undefined) delete process.env.PUBLISHER_API_KEY;
  else process.env.PUBLISHER_API_KEY = saved;
  await sim?.close();
  await removeBuilds();
});

describe('astro:env on @astrojs/cloudflare (workerd)', () => {
  it("the key from a Cloudflare secret binding and the site from a variable reach the live loader: the page lists the simulator's articles", async () => {
    const blog = await start({ key: sim.tokens.pro, siteId: '12' });
    sim.resetStats();
    const response = await fetch(blog);
    const html = await response.text();
    expect(response.status, html.slice(0, 300)).toBe(200);
    // One authenticated list request, from the worker.
    expect(sim.stats().routes['GET /api/v1/sites/:id/articles/']?.['200']).toBe(1);
    const list = await fetch(`${sim.url}/api/v1/sites/12/articles/`, {
      headers: { authorization: `Bearer ${sim.tokens.pro}` },
    });
    const slugs = ((await list.json()) as { results: Array<{ slug: string }> }).results.map((a) => a.slug);
    expect(slugs).toHaveLength(4);
    expect([...html.matchAll(/data-slug="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual([...slugs].sort());
  }, 60_000);

  it('without the binding the worker has no key (process.env is not read there): a clear error naming PUBLISHER_API_KEY', async () => {
    const blog = await start({ siteId: '12' });
    const response = await fetch(blog);
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(html).toContain('`apiKey` is required');
    expect(html).toContain('PUBLISHER_API_KEY');
  }, 60_000);

  it('without the site variable: the page shows the error naming PUBLISHER_SITE_ID, and no request is sent', async () => {
    const blog = await start({ key: sim.tokens.pro });
    sim.resetStats();
    const response = await fetch(blog);
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(html).toContain('`siteId` is required');
    expect(html).toContain('PUBLISHER_SITE_ID');
    expect(sim.stats().authenticated).toBe(0);
  }, 60_000);

  it('the build resolves astro:env/server through the adapter, and the key is in no built file', async () => {
    const files = await readTree(outDir);
    const server = [...files].filter(([path]) => path.startsWith('server/') && path.endsWith('.mjs'));
    expect(server.some(([, text]) => text.includes('getSecret'))).toBe(true);
    expect(server.filter(([, text]) => /["']astro:env\/server["']/.test(text)).map(([p]) => p)).toEqual([]);
    for (const [path, text] of files) expect(text.includes(sim.tokens.pro), path).toBe(false);
  });
});
