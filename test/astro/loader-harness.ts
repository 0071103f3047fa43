/**
 * Shared by the loader's build tests: one Astro build of a fixture with its own outDir/cacheDir, the
 * environment it needs, and everything it printed captured (for the log line and the leak checks).
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type AstroInlineConfig } from 'astro';
import { afterEach } from 'vitest';

export const fixtureRoot = (name: string) => fileURLToPath(new URL(`../fixtures/${name}/`, import.meta.url));

export interface BuildResult {
  logs: string;
  error?: Error;
}

/**
 * A cacheDir of its own (in the OS temp dir) and an outDir of its own under `<root>/dist/` (gitignored). The
 * outDir must stay inside the working directory: for an outDir outside it, Astro puts its prerender chunks in
 * `<cwd>/.astro/`, shared by every concurrent build of the test run.
 */
export async function tempDirs(prefix: string, root: string) {
  const base = await mkdtemp(join(tmpdir(), `${prefix}-`));
  await mkdir(join(root, 'dist'), { recursive: true });
  const outDir = await mkdtemp(join(root, 'dist', `${prefix}-`));
  return {
    base,
    outDir,
    cacheDir: join(base, 'cache'),
    cleanup: async () => {
      await lateWritesDone(base);
      await rm(base, { recursive: true, force: true });
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * A copy of a fixture site of its own (under `<fixture>/dist/`, gitignored), with its own outDir and cacheDir:
 * Astro keeps `<root>/.astro/` (the content layer's image imports, written only when they change) and Vite
 * its dependency cache per root, so builds of one fixture root read what another test's build left there.
 * A test that builds its own copy depends on no other test's state, in any order.
 */
/**
 * Cache directories of builds that failed: Astro's store debounces its writes (500 ms) and a build that
 * failed in a loader still writes what it had set, after the build returned. Such a directory is removed
 * only after a generous pause since the failed build returned, so the late write finds it (a write into a
 * removed directory is an unhandled rejection of the test run). What the late write holds is a consistent
 * state either way. Directory -> when its last failed build returned.
 */
const failedCacheDirs = new Map<string, number>();
const LATE_WRITE_MARGIN_MS = 3_000;

/** Resolves once every failed build with a cache directory under `base` returned LATE_WRITE_MARGIN_MS ago. */
async function lateWritesDone(base: string): Promise<void> {
  const failedAt = Math.max(0, ...[...failedCacheDirs].filter(([dir]) => dir.startsWith(base)).map(([, at]) => at));
  const wait = failedAt + LATE_WRITE_MARGIN_MS - Date.now();
  if (failedAt > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * For a test file that starts simulators and isolated sites: the returned function takes one of each, and both
 * are closed and removed after each test.
 */
export function closedAfterEach(): (sim: { close(): Promise<void> }, site: { cleanup(): Promise<void> }) => void {
  const owned: Array<{ sim: { close(): Promise<void> }; site: { cleanup(): Promise<void> } }> = [];
  afterEach(async () => {
    for (const { sim, site } of owned.splice(0)) {
      await sim.close();
      await site.cleanup();
    }
  });
  return (sim, site) => {
    owned.push({ sim, site });
  };
}

export async function isolatedSite(fixture: string, prefix: string) {
  const source = fixtureRoot(fixture);
  await mkdir(join(source, 'dist'), { recursive: true });
  const root = await mkdtemp(join(source, 'dist', `${prefix}-`));
  const base = await mkdtemp(join(tmpdir(), `${prefix}-`));
  for (const name of await readdir(source)) {
    if (name === 'dist' || name === '.astro' || name === 'node_modules') continue;
    await cp(join(source, name), join(root, name), { recursive: true });
  }
  return {
    root,
    outDir: join(root, 'out'),
    cacheDir: join(base, 'cache'),
    cleanup: async () => {
      await rm(root, { recursive: true, force: true });
      await lateWritesDone(base);
      await rm(base, { recursive: true, force: true });
    },
  };
}

/**
 * Builds `root` with the given environment (and `inline`, config over the fixture's own); never throws (the
 * error comes back with the logs).
 */
export async function buildFixture(opts: {
  root: string;
  outDir: string;
  cacheDir: string;
  env: Record<string, string | undefined>;
  inline?: AstroInlineConfig;
}): Promise<BuildResult> {
  const result = await captured(opts.env, () =>
    // The inline config stays identical between builds of one chain: Astro clears its store when it changes.
    build({ ...opts.inline, root: opts.root, outDir: opts.outDir, cacheDir: opts.cacheDir, logLevel: 'info' }),
  );
  if (result.error) failedCacheDirs.set(opts.cacheDir, Date.now());
  return result;
}

/**
 * Runs `work` (an Astro build, sync...) in this process with `env` set over process.env, capturing everything
 * written to stdout and stderr; never throws (the error comes back with the logs). The environment is put back after.
 */
export async function captured(
  env: Record<string, string | undefined>,
  work: () => Promise<unknown>,
): Promise<BuildResult> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const chunks: string[] = [];
  const outWrite = process.stdout.write.bind(process.stdout);
  const errWrite = process.stderr.write.bind(process.stderr);
  const capture = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  let error: Error | undefined;
  try {
    await work();
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e));
  } finally {
    process.stdout.write = outWrite;
    process.stderr.write = errWrite;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  // eslint-disable-next-line no-control-regex
  const logs = chunks.join('').replace(/\x1b\[[0-9;]*m/g, '');
  return error ? { logs, error } : { logs };
}

/**
 * A build of an isolated copy of the model-site fixture (test/fixtures/model-site: every feature on) against a
 * simulator's site 12 with the Pro key and a budget of `budget` requests per loader (and `inline` config).
 */
export function modelSiteBuild(
  site: { root: string; outDir: string; cacheDir: string },
  simulator: { url: string; tokens: { pro: string } },
  budget = 10,
  inline?: AstroInlineConfig,
): () => Promise<BuildResult> {
  return () =>
    buildFixture({
      root: site.root,
      outDir: site.outDir,
      cacheDir: site.cacheDir,
      ...(inline ? { inline } : {}),
      env: {
        PUBLISHER_SITE_ID: '12',
        PUBLISHER_BASE_URL: simulator.url,
        PUBLISHER_API_KEY: simulator.tokens.pro,
        MODEL_SITE_BUDGET: String(budget),
      },
    });
}

/**
 * The environment of test/fixtures/loader-site against a simulator's site 12: the Pro key, up to 100 requests a
 * build, no reserve, not strict (`extra` over that).
 */
export function loaderSiteEnv(
  simulator: { url: string; tokens: { pro: string } },
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.pro,
    PUBLISHER_SITE_ID: '12',
    LOADER_TEST_MAX_REQUESTS: '100',
    LOADER_TEST_RESERVE: '0',
    LOADER_TEST_STRICT: undefined,
    ...extra,
  };
}

/**
 * Publishes an article on site 12 as the model-site tests write them: titled `<slug> <language>`, its body
 * marked `mark-<language>-<slug>-v1-end` (then `after`), published 2026-03-10, with `fields` over that.
 */
export function publishModelArticle(
  url: string,
  slug: string,
  language: string,
  { after = '', ...fields }: { after?: string } & Record<string, unknown> = {},
): Promise<unknown> {
  return admin(url, 'POST', 'articles', {
    site: 12,
    title: `${slug} ${language}`,
    slug,
    language,
    content: `<p>mark-${language}-${slug}-v1-end</p>${after}`,
    published_at: '2026-03-10',
    ...fields,
  });
}

/** Every file under `dir`, as text, keyed by relative path. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (current: string, rel: string) => {
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(current, name);
      const relPath = rel ? `${rel}/${name}` : name;
      try {
        out.set(relPath, await readFile(path, 'utf8'));
      } catch {
        await walk(path, relPath);
      }
    }
  };
  await walk(dir, '');
  return out;
}

/** The loader's summary line of a build. */
export function summaryOf(logs: string): string | undefined {
  return /\d+ articles?: \d+ new, .* (left this hour|rate limit unknown)/.exec(logs)?.[0];
}

/** The simulator's admin API (loopback, no auth). */
export async function admin(url: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}/__simulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}
