/**
 * Issue 18, "Dev and preview": `astro dev` keeps its own data store (`.astro/data-store.json`) while builds keep
 * theirs in cacheDir, so a dev start after a build fetched everything again, and with 4 requests left it showed
 * 0 articles; `/_publisher/refresh` kept answering 429 after the service's window was cleared. Real `astro
 * build` and `astro dev` of a fresh copy of test/fixtures/dev-store, against the simulator.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureRoot } from '../fixtures/integration-helpers/index.js';
import { buildFixture } from './loader-harness.js';

type DevServer = Awaited<ReturnType<typeof import('astro').dev>>;

const ENV_NAMES = ['PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID', 'PUBLISHER_BASE_URL'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** A copy of the fixture in its own directory: its own `.astro/` (dev's store) and `node_modules/.astro/` (the build's). */
async function freshSite(): Promise<string> {
  const fixture = fixtureRoot('dev-store');
  await mkdir(join(fixture, 'dist'), { recursive: true });
  const root = await mkdtemp(join(fixture, 'dist', 'site-'));
  await cp(join(fixture, 'src'), join(root, 'src'), { recursive: true });
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function simulator(options: Parameters<typeof startSimulator>[0]): Promise<Simulator> {
  const sim = await startSimulator(options);
  cleanups.push(() => sim.close());
  Object.assign(process.env, {
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
    PUBLISHER_BASE_URL: sim.url,
  });
  return sim;
}

const integration = () => publisher({ devRefresh: { minIntervalMs: 0 } });

async function buildSite(root: string): Promise<void> {
  const { build } = await import('astro');
  await build({ root, logLevel: 'silent', site: 'https://blog.example.com', integrations: [integration()] });
}

async function startDev(root: string): Promise<string> {
  const { dev } = await import('astro');
  // Astro's dev server skips its request handler when VITEST is set; the flag is hidden while it starts.
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  const server: DevServer = await dev({
    root,
    logLevel: 'silent',
    site: 'https://blog.example.com',
    server: { host: '127.0.0.1', port: 0 },
    integrations: [integration()],
  }).finally(() => {
    process.env.VITEST = vitest;
  });
  cleanups.push(() => server.stop());
  return `http://127.0.0.1:${server.address.port}`;
}

/** Spends authenticated requests until the service says `left` remain in the window. */
async function drainTo(sim: Simulator, left: number): Promise<void> {
  for (;;) {
    const response = await fetch(`${sim.url}/api/v1/me/`, { headers: { authorization: `Bearer ${sim.tokens.pro}` } });
    await response.arrayBuffer();
    const remaining = Number(response.headers.get('x-ratelimit-remaining'));
    if (!Number.isFinite(remaining) || remaining <= left) {
      expect(remaining).toBe(left);
      return;
    }
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Dev adds data-astro-source-* attributes to the elements.
const articleCount = async (blog: string) =>
  /<h1\b[^>]*>(\d+) articles<\/h1>/.exec(await (await fetch(blog)).text())?.[1];

describe('astro dev after astro build', () => {
  it('a dev start after a build costs one request (the list call), and shows every stored article', async () => {
    const sim = await simulator({ articles: 5 });
    const root = await freshSite();
    await buildSite(root);
    expect(sim.stats().authenticated).toBeGreaterThanOrEqual(6); // the list call and 5 details
    sim.resetStats();

    const blog = await startDev(root);
    expect(sim.stats().authenticated).toBe(1);
    expect(await articleCount(blog)).toBe('5');
    // The stored HTML is served as the build stored it.
    const slug = (
      (await await fetch(`${sim.url}/api/v1/sites/12/articles/`, {
        headers: { authorization: `Bearer ${sim.tokens.pro}` },
      }).then((r) => r.json())) as { results: Array<{ slug: string; title: string }> }
    ).results[0]!;
    const page = await (await fetch(`${blog}/blog/${slug.slug}/`)).text();
    expect(page).toContain(`>${escapeHtml(slug.title)}</h1>`);
  });

  it('with 4 requests left this hour, dev still shows the articles the build stored', async () => {
    const sim = await simulator({ articles: 5 });
    const root = await freshSite();
    await buildSite(root);
    await drainTo(sim, 4);
    sim.resetStats();

    const blog = await startDev(root);
    expect(await articleCount(blog)).toBe('5');
    expect(sim.stats().authenticated).toBeLessThanOrEqual(1);
  });
});

describe('POST /_publisher/refresh and the hourly window', () => {
  it('answers 429 while the loaders saw the window at the reserve, and refreshes again once the window reset', async () => {
    // A short window: the service's own reset comes within the test.
    const sim = await simulator({ articles: 3, windowMs: 15_000 });
    const root = await freshSite();
    await drainTo(sim, 4);
    const blog = await startDev(root);

    const refused = await fetch(`${blog}/_publisher/refresh`, { method: 'POST' });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // Retry-After names the window's reset (X-RateLimit-Reset), not a fixed guess.
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(16);

    await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
    sim.resetStats();
    const again = await fetch(`${blog}/_publisher/refresh`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(sim.stats().authenticated).toBeGreaterThanOrEqual(1);
    expect(await articleCount(blog)).toBe('3');
  });
});

describe('astro preview', () => {
  it('serves a static build with no PUBLISHER_* variable and no service settings (it never calls the service)', async () => {
    const sim = await simulator({ articles: 2 });
    const root = await freshSite();
    await buildSite(root);
    for (const name of ENV_NAMES) delete process.env[name];
    sim.resetStats();

    const { preview } = await import('astro');
    const server = await preview({
      root,
      logLevel: 'silent',
      site: 'https://blog.example.com',
      server: { host: '127.0.0.1', port: 0 },
      integrations: [publisher()],
    });
    cleanups.push(() => server.stop());
    const home = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>2 articles</h1>');
    expect((await fetch(`http://127.0.0.1:${server.port}/sitemap.xml`)).status).toBe(200);
    expect(sim.stats().authenticated).toBe(0);
  });
});

describe('astro build after astro dev', () => {
  it('the first build after a dev session starts from what dev stored: one request', async () => {
    const sim = await simulator({ articles: 4 });
    const root = await freshSite();
    const blog = await startDev(root);
    expect(await articleCount(blog)).toBe('4');
    // Dev writes its store (debounced) once the sync is done; stop it as a developer would.
    await cleanups.pop()!();
    sim.resetStats();

    await buildSite(root);
    expect(sim.stats().authenticated).toBe(1);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(root, 'dist', 'index.html'), 'utf8')).toContain('<h1>4 articles</h1>');
  });

  it("a schema changed after the dev session applies to the entries copied from dev's store (no request more)", async () => {
    await simulator({ articles: 4 });
    const root = await freshSite();
    const blog = await startDev(root);
    expect(await articleCount(blog)).toBe('4');
    await cleanups.pop()!();
    // The project as dev left it, in a folder no dev watcher follows (a stopped server's watcher may still see the
    // edit below and sync again).
    const { cp: copy, readFile, writeFile } = await import('node:fs/promises');
    const moved = await freshSite();
    await copy(join(root, '.astro'), join(moved, '.astro'), { recursive: true });
    // The image copies too (cacheDir, shared by both commands): no entry is written again for its images.
    await copy(join(root, 'node_modules'), join(moved, 'node_modules'), { recursive: true });
    // The developer then maps the titles in the content config: Astro clears the build's store, and the copy of
    // dev's entries was parsed by the old schema.
    const config = join(moved, 'src', 'content.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8'))
        .replace('import { articlesLoader } from', 'import { articleDataSchema, articlesLoader } from')
        .replace(
          'loader: articlesLoader() }',
          'loader: articlesLoader(), schema: articleDataSchema.transform((a) => ({ ...a, title: `MAPPED ${a.title}` })) }',
        ),
    );

    // The build's own log: the stopped dev server of this test process may still sync its own store meanwhile
    // (two processes in a real project), so the simulator's count would mix both.
    const result = await buildFixture({
      root: moved,
      outDir: join(moved, 'dist'),
      cacheDir: join(moved, 'node_modules', '.astro'),
      env: {},
      inline: { site: 'https://blog.example.com', integrations: [integration()] },
    });
    expect(result.error).toBeUndefined();
    expect(result.logs).toContain('Started from the 4 entries that astro dev stored');
    expect(result.logs).toContain('4 articles: 0 new, 0 changed, 0 removed, 4 unchanged, 0 pending; 1 request');
    const index = await readFile(join(moved, 'dist', 'index.html'), 'utf8');
    expect(index).toContain('<h1>4 articles</h1>');
    expect(index.match(/<li>MAPPED /g)).toHaveLength(4);
  });
});

describe('a store of another service is never shared', () => {
  it('dev against one service (the simulator), then a build against another: the build starts empty', async () => {
    const devSim = await simulator({ articles: 3 });
    const root = await freshSite();
    const blog = await startDev(root);
    expect(await articleCount(blog)).toBe('3');
    await cleanups.pop()!();

    // Another service (another address, other articles): nothing of the dev store may reach this build. Had
    // it started from the dev store, the mass-removal guard would keep the 3 articles the list does not name.
    const other = await simulator({ articles: 5, seed: 2 });
    const slugs = async (sim: Simulator) =>
      (
        (await (
          await fetch(`${sim.url}/api/v1/sites/12/articles/`, {
            headers: { authorization: `Bearer ${sim.tokens.pro}` },
          })
        ).json()) as { results: Array<{ slug: string }> }
      ).results.map((a) => a.slug);
    const devSlugs = await slugs(devSim);
    expect((await slugs(other)).filter((slug) => devSlugs.includes(slug))).toEqual([]);
    await buildSite(root);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(root, 'dist', 'index.html'), 'utf8')).toContain('<h1>5 articles</h1>');
  });
});
