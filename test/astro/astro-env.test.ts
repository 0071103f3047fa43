/**
 * astro:env: the integration declares PUBLISHER_API_KEY (server secret), PUBLISHER_BASE_URL and
 * PUBLISHER_SITE_ID, so a `.env` file feeds the build-time loader, and the live loader reads its key with
 * getSecret at request time on a server adapter (@astrojs/node here), never at import.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildSite, fixtureRoot, removeBuilds } from '../fixtures/integration-helpers/index.js';
import { readTree } from './loader-harness.js';

const KEYS = ['PUBLISHER_API_KEY', 'PUBLISHER_BASE_URL', 'PUBLISHER_SITE_ID', 'ENV_TEST_BASE_URL'] as const;

describe('astro:env (build with .env, @astrojs/node at run time)', () => {
  let sim: Simulator;
  let server: Server | undefined;
  let outDir: string;
  const envFile = join(fixtureRoot('env-site'), '.env');
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

  beforeAll(async () => {
    sim = await startSimulator({ articles: 6 });
    for (const key of KEYS) delete process.env[key];
    process.env.ENV_TEST_BASE_URL = sim.url;
    await writeFile(
      envFile,
      `PUBLISHER_API_KEY=${sim.tokens.pro}\nPUBLISHER_BASE_URL=${sim.url}\nPUBLISHER_SITE_ID=12\n`,
    );
    try {
      outDir = await buildSite('env-site', {
        site: 'https://blog.example.com',
        output: 'server',
        adapter: node({ mode: 'standalone' }),
        integrations: [publisher({ siteId: 12, baseUrl: sim.url, sitemap: false, rss: false })],
      });
    } finally {
      await rm(envFile, { force: true });
      // Astro copies .env into process.env for the build: the run-time test starts from a clean environment.
      for (const key of KEYS) delete process.env[key];
      process.env.ENV_TEST_BASE_URL = sim.url;
    }
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await sim.close();
    await removeBuilds();
  });

  it('.env feeds the build-time loader: the prerendered page lists every article, and the key is in no output file', async () => {
    const files = await readTree(outDir);
    const index = files.get('client/index.html') ?? '';
    expect(index.match(/data-slug=/g)).toHaveLength(6);
    for (const [path, text] of files) expect(text.includes(sim.tokens.pro), path).toBe(false);
    // Vite resolved the live loader's `import('astro:env/server')` (getSecret is reachable): none is left for Node to refuse.
    const server = [...files].filter(([path]) => path.startsWith('server/'));
    expect(server.some(([, text]) => text.includes('getSecret'))).toBe(true);
    expect(
      server
        .filter(([, text]) => text.includes('"astro:env/server"') || text.includes("'astro:env/server'"))
        .map(([p]) => p),
    ).toEqual([]);
  });

  it('the live loader reads the service address, the key and the site at the first request, not at import: set after the server started, they are used', async () => {
    // No address when live.config.ts is evaluated (its `baseUrl` is ENV_TEST_BASE_URL, then PUBLISHER_BASE_URL).
    delete process.env.ENV_TEST_BASE_URL;
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    type Handler = (req: IncomingMessage, res: ServerResponse) => void;
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as { handler: Handler };
    delete process.env.ASTRO_NODE_AUTOSTART;
    server = createServer(entry.handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const blog = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const list = await fetch(`${sim.url}/api/v1/sites/12/articles/`, {
      headers: { authorization: `Bearer ${sim.tokens.pro}` },
    });
    const slug = ((await list.json()) as { results: Array<{ slug: string }> }).results[0]?.slug ?? '';

    sim.resetStats();

    // The page renders the error getLiveEntry returned (not a failed import of astro:content).
    const noAddress = await fetch(`${blog}/live/${slug}/`);
    expect(noAddress.status).toBe(500);
    expect(await noAddress.text()).toContain(
      '<p class="error">ConfigError: `baseUrl` is required. Set it in liveArticlesLoader({ baseUrl }) or the environment variable PUBLISHER_BASE_URL.</p>',
    );

    process.env.PUBLISHER_BASE_URL = sim.url;
    const without = await fetch(`${blog}/live/${slug}/`);
    expect(without.status).toBe(500);
    const text = await without.text();
    expect(text).toContain('`apiKey` is required');
    expect(text).toContain('PUBLISHER_API_KEY');

    process.env.PUBLISHER_API_KEY = sim.tokens.pro;
    const noSite = await fetch(`${blog}/live/${slug}/`);
    expect(noSite.status).toBe(500);
    expect(await noSite.text()).toContain(
      '<p class="error">ConfigError: `siteId` is required. Set it in liveArticlesLoader({ siteId }) or the environment variable PUBLISHER_SITE_ID.</p>',
    );
    // Nothing was sent while a setting was missing.
    expect(sim.stats().authenticated).toBe(0);

    process.env.PUBLISHER_SITE_ID = '12';
    const withKey = await fetch(`${blog}/live/${slug}/`);
    expect(withKey.status).toBe(200);
    expect(await withKey.text()).toMatch(/<h1>[^<]+<\/h1>/);
  });
});
