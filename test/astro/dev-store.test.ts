/**
 * Issue 18, "Dev and preview": `astro dev` keeps its own data store (`.astro/data-store.json`) while builds keep
 * theirs in cacheDir, so a dev start after a build fetched everything again, and with 4 requests left it showed
 * 0 articles; `/_publisher/refresh` kept answering 429 after the service's window was cleared. Real `astro
 * build` and `astro dev` of a fresh copy of test/fixtures/dev-store, against the simulator.
 * The project after one cold build, and the project after one dev session, are made once for the file
 * (builtProject, devProject); each test that starts from one works on its own copy of it, against the same
 * simulator brought back to its seed, so no test sees what another did.
 */
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { fixtureRoot } from '../fixtures/integration-helpers/index.js';
import { buildFixture } from './loader-harness.js';

type DevServer = Awaited<ReturnType<typeof import('astro').dev>>;

const ENV_NAMES = ['PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID', 'PUBLISHER_BASE_URL'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
type Cleanups = Array<() => Promise<unknown>>;
/** What a test started (servers, simulators, copies), undone after it. */
const cleanups: Cleanups = [];
/** The projects and simulators the file's tests share (builtProject, devProject), undone after the file. */
const shared: Cleanups = [];

afterAll(async () => {
  for (const cleanup of shared.splice(0).reverse()) await cleanup();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** A copy of the fixture in its own directory: its own `.astro/` (dev's store) and `node_modules/.astro/` (the build's). */
async function freshSite(owner: Cleanups = cleanups): Promise<string> {
  const fixture = fixtureRoot('dev-store');
  await mkdir(join(fixture, 'dist'), { recursive: true });
  const root = await mkdtemp(join(fixture, 'dist', 'site-'));
  await cp(join(fixture, 'src'), join(root, 'src'), { recursive: true });
  owner.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

/** A copy of the project at `root` with its stores (dev's `.astro/`, the build's `node_modules/.astro/`) and output. */
async function copyOf(root: string): Promise<string> {
  const copy = await freshSite();
  for (const name of ['.astro', 'node_modules', 'dist'])
    if (existsSync(join(root, name))) await cp(join(root, name), join(copy, name), { recursive: true });
  return copy;
}

/** Points the PUBLISHER_* variables at `sim` for the current test (afterEach puts them back). */
function pointAt(sim: Simulator): Simulator {
  Object.assign(process.env, {
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: '12',
    PUBLISHER_BASE_URL: sim.url,
  });
  return sim;
}

async function simulator(options: Parameters<typeof startSimulator>[0], owner: Cleanups = cleanups) {
  const sim = await startSimulator(options);
  owner.push(() => sim.close());
  return pointAt(sim);
}

/**
 * Made once, on first use, with `make` (the describe blocks that use one ask for it in beforeAll, whose timeout
 * allows a build); every later caller gets the same project and its simulator, reset to its seed (stats, window
 * and content) and pointed at.
 */
function sharedProject<T extends { sim: Simulator }>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return async () => {
    made ??= make();
    const project = await made;
    project.sim.reset();
    pointAt(project.sim);
    return project;
  };
}

/** A project after one cold build of 5 articles, and how many requests that build sent. */
const builtProject = sharedProject(async () => {
  const sim = await simulator({ articles: 5 }, shared);
  const root = await freshSite(shared);
  await buildSite(root);
  return { sim, root, coldRequests: sim.stats().authenticated };
});

/** A project after one dev session (4 articles), the server stopped as a developer would stop it. */
const devProject = sharedProject(async () => {
  const sim = await simulator({ articles: 4 }, shared);
  const root = await freshSite(shared);
  const blog = await startDev(root);
  expect(await articleCount(blog)).toBe('4');
  // Dev writes its store (debounced) once the sync is done; stop it as a developer would.
  await cleanups.pop()!();
  return { sim, root };
});

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
  beforeAll(builtProject);
  it('a dev start after a build costs one request (the list call), and shows every stored article', async () => {
    const built = await builtProject();
    expect(built.coldRequests).toBeGreaterThanOrEqual(6); // the list call and 5 details
    const { sim } = built;
    const root = await copyOf(built.root);

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
    const built = await builtProject();
    const { sim } = built;
    const root = await copyOf(built.root);
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
  beforeAll(builtProject);
  it('serves a static build with no PUBLISHER_* variable and no service settings (it never calls the service)', async () => {
    const built = await builtProject();
    const { sim } = built;
    const root = await copyOf(built.root);
    for (const name of ENV_NAMES) delete process.env[name];

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
    expect(await home.text()).toContain('<h1>5 articles</h1>');
    expect((await fetch(`http://127.0.0.1:${server.port}/sitemap.xml`)).status).toBe(200);
    expect(sim.stats().authenticated).toBe(0);
  });
});

describe('astro build after astro dev', () => {
  beforeAll(devProject);
  it('the first build after a dev session starts from what dev stored: one request', async () => {
    const developed = await devProject();
    const { sim } = developed;
    const root = await copyOf(developed.root);

    await buildSite(root);
    expect(sim.stats().authenticated).toBe(1);
    expect(await readFile(join(root, 'dist', 'index.html'), 'utf8')).toContain('<h1>4 articles</h1>');
  });

  it("a schema changed after the dev session applies to the entries copied from dev's store (no request more)", async () => {
    // The project as dev left it, in a folder no dev watcher follows (a stopped server's watcher may still see the
    // edit below and sync again), with its image copies (cacheDir, shared by both commands): no entry is written
    // again for its images.
    const moved = await copyOf((await devProject()).root);
    const { writeFile } = await import('node:fs/promises');
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
  beforeAll(devProject);
  it('dev against one service (the simulator), then a build against another: the build starts empty', async () => {
    const developed = await devProject();
    const devSim = developed.sim;
    const root = await copyOf(developed.root);

    // Another service (another address, other articles): nothing of the dev store may reach this build. Had
    // it started from the dev store, the mass-removal guard would keep the 4 articles the list does not name.
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
    expect(await readFile(join(root, 'dist', 'index.html'), 'utf8')).toContain('<h1>5 articles</h1>');
  });
});
