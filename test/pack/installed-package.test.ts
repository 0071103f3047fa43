// The package as users install it: `npm pack`, then a new Astro project in a temporary folder that installs
// the tarball with the newest Astro 7 and then the newest Astro 6 (the peer range), built against the
// simulator; the CLI from the installed package; publint and attw on the packed files. Astro's blog starter,
// installed from the same tarball and served by `astro preview`, is in test/themes/real-themes.test.ts.
// Slow by nature (two `npm install`s): the registry is used with --prefer-offline so the cache does most of it,
// and both installs start together before the first test: an install mostly waits on the disk and the cache
// (astro@7's took 22 s of CPU in 88 s on a loaded 2-core machine), so the second one waits alongside the first.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from 'astro-content-publisher/simulator';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'test/fixtures/pack-site');
const BIN = join(REPO, 'node_modules/.bin');
const BLOG = 'https://blog.example.com';
const ARTICLES = 12;

// Node 24 from the repository first: Astro refuses older versions, and npm/npx run under it.
const baseEnv = {
  ...process.env,
  PATH: `${BIN}:${process.env.PATH ?? ''}`,
  ASTRO_TELEMETRY_DISABLED: '1',
  CI: process.env.CI ?? '',
};

let work: string;
let tarball: string;
let simulator: Simulator;
let siteId: number;
let slugs: string[] = [];
/** The project of each Astro major, installing from beforeAll on. */
const projects = new Map<number, Promise<string>>();

async function sh(command: string, args: string[], cwd: string, env: Record<string, string> = {}, timeout = 300_000) {
  try {
    return await run(command, args, { cwd, env: { ...baseEnv, ...env }, timeout, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; code?: number };
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${cwd} failed (exit ${failure.code}):\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`,
    );
  }
}

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist/index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` does it).');
  }
  work = mkdtempSync(join(tmpdir(), 'acp-pack-'));
  const { stdout } = await sh('npm', ['pack', '--pack-destination', work, '--json', '--ignore-scripts'], REPO);
  const packed = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, packed[0]!.filename);
  for (const major of [7, 6]) {
    const installing = newProject(major);
    // The test of that major awaits it and reports its failure; this only keeps a failure from being unhandled
    // while an earlier test runs.
    installing.catch(() => undefined);
    projects.set(major, installing);
  }
  simulator = await startSimulator({ articles: ARTICLES });
  siteId = simulator.sites.agence[0]!;
  const list = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
    headers: { authorization: `Bearer ${simulator.tokens.agence}` },
  });
  slugs = ((await list.json()) as { results: Array<{ slug: string }> }).results.map((item) => item.slug);
}, 120_000);

afterAll(async () => {
  await simulator?.close();
  // Two node_modules trees take tens of seconds to delete on a slow disk: a detached `rm` does it after the
  // test file has finished instead of holding up the suite.
  if (work) spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
});

function serviceEnv(): Record<string, string> {
  return {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
  };
}

/** A new project with the tarball and the newest `astro@<major>`, from the fixture's files. */
async function newProject(major: number): Promise<string> {
  const dir = join(work, `astro${major}`);
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `pack-test-astro${major}`, private: true, type: 'module' }, null, 2),
  );
  await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, `astro@${major}`],
    dir,
  );
  return dir;
}

describe('the packed package, installed in a new Astro project', () => {
  for (const major of [7, 6]) {
    it(`astro@${major}: the loader and the sitemap/RSS routes work from the installed package`, async () => {
      const dir = await projects.get(major)!;
      const astroVersion = (
        JSON.parse(readFileSync(join(dir, 'node_modules/astro/package.json'), 'utf8')) as { version: string }
      ).version;
      expect(astroVersion.split('.')[0]).toBe(String(major));
      // The installed copy, not this repository, is what the project resolves.
      expect(existsSync(join(dir, 'node_modules/astro-content-publisher/dist/loader/index.js'))).toBe(true);

      // DEBUG=vite:transform: Vite logs each module it transforms while Astro loads content.config.ts (the
      // bundling of the build proper is not logged that way).
      const { stdout, stderr } = await sh(join(dir, 'node_modules/.bin/astro'), ['build'], dir, {
        ...serviceEnv(),
        DEBUG: 'vite:transform',
      });
      const log = stdout + stderr;
      expect(log).not.toContain(simulator.tokens.agence);
      // The content config's import of the loaders is left to Node (no-external-plugin.ts): Vite transforming
      // the ~70 modules behind it cost about a second of every build. The project's own file is transformed.
      const transformed = log.split('\n').filter((line) => line.includes('vite:transform'));
      expect(transformed.filter((line) => line.includes('src/content.config.ts'))).toHaveLength(1);
      expect(transformed.filter((line) => line.includes('astro-content-publisher/dist/'))).toEqual([]);
      // The package ships no source maps (they named ../../src/*.ts, which is not published): Vite's
      // "Sourcemap for ... points to missing source files" warning must not appear in a user's build.
      expect(log).not.toMatch(/sourcemap/i);
      expect(
        readdirSync(join(dir, 'node_modules/astro-content-publisher/dist'), { recursive: true }).filter((f) =>
          String(f).endsWith('.map'),
        ),
      ).toEqual([]);
      expect(readFileSync(join(dir, 'dist/index.html'), 'utf8')).toContain(`${ARTICLES} articles`);
      for (const slug of slugs) {
        const html = readFileSync(join(dir, `dist/blog/${slug}/index.html`), 'utf8');
        expect(html).toContain('<h2');
      }
      const sitemap = readFileSync(join(dir, 'dist/sitemap.xml'), 'utf8');
      for (const slug of slugs) expect(sitemap).toContain(`<loc>${BLOG}/blog/${slug}/</loc>`);
      const rss = readFileSync(join(dir, 'dist/rss.xml'), 'utf8');
      expect(rss).toContain(`<link>${BLOG}/blog/${slugs[0]}/</link>`);
    }, 600_000);
  }

  it('the CLI runs from the installed package: --help and `sites --json`', async () => {
    const dir = join(work, 'astro7');
    expect(existsSync(dir), 'the astro@7 project of the first test').toBe(true);
    const help = await sh('npx', ['--no-install', 'content-publisher', '--help'], dir);
    expect(help.stdout).toMatch(/sites/);
    const sites = await sh('npx', ['--no-install', 'content-publisher', 'sites', '--json'], dir, serviceEnv());
    expect(sites.stdout + sites.stderr).not.toContain(simulator.tokens.agence);
    const parsed = JSON.parse(sites.stdout) as unknown;
    const ids = (Array.isArray(parsed) ? parsed : (parsed as { results: unknown[] }).results).map(
      (site) => (site as { id: number }).id,
    );
    expect(ids).toEqual(expect.arrayContaining(simulator.sites.agence));
  }, 120_000);

  it('publint and attw (ESM-only profile) report no problem', async () => {
    const publint = await sh('publint', ['--strict'], REPO);
    expect(publint.stdout).toMatch(/All good/);
    // attw exits non-zero on any problem its profile counts (sh() would throw). The JSON lists every
    // resolution kind; the ESM-only profile leaves out node10 and require() from CJS by design.
    // The shipped Astro component is compiled by the blog's build (Astro's tooling types it), not a module attw reads.
    const attw = await sh(
      'attw',
      [tarball, '--profile', 'esm-only', '--format', 'json', '--exclude-entrypoints', './components/ArticleHead.astro'],
      REPO,
    );
    const report = JSON.parse(attw.stdout) as {
      problems: Record<string, Array<{ kind: string; entrypoint: string; resolutionKind?: string }>>;
    };
    const counted = Object.values(report.problems)
      .flat()
      .filter((problem) => problem.resolutionKind !== 'node10' && problem.resolutionKind !== 'node16-cjs');
    expect(counted).toEqual([]);
  }, 120_000);
});
