/**
 * A real theme as a new user wires it: the package from `npm pack`, installed from the tarball with the
 * newest Astro 7 and the theme's own dependencies (read from the fixture's package.json) in one `npm
 * install` shared by every theme (and kept for the next run, the tarball's files unpacked afresh), then a copy of the fixture using those node_modules, built with the
 * project's own `astro build` against the simulator.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { sh } from './site-urls.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO, 'node_modules/.bin');
const PACKAGE = 'astro-content-publisher';
/**
 * A theme's build or check, two at once beside the suite's other files on two cores: 300 s stopped AstroPaper's
 * `astro check && astro build` once (load average 23); alone it takes 60-140 s.
 */
const COMMAND_TIMEOUT = 540_000;

/** Node 24 from the repository first (Astro refuses older versions): npm and the projects' `astro` (`#!/usr/bin/env node`) run under it. */
export const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${BIN}:${process.env.PATH ?? ''}`,
  ASTRO_TELEMETRY_DISABLED: '1',
  CI: process.env.CI ?? '',
};

export interface Workspace {
  dir: string;
  /** node_modules with the tarball, astro@7 and every theme's dependencies. */
  nodeModules: string;
}

/**
 * The dependencies and devDependencies a fixture's package.json names, except this package (installed from
 * the tarball): the devDependencies are those its `astro check` needs (`@astrojs/check`, TypeScript, types).
 */
function themeDependencies(fixture: string): string[] {
  const manifest = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter(([name]) => name !== PACKAGE)
    .map(([name, range]) => `${name}@${range}`);
}

/**
 * The packages besides this one, installed once for a given list of packages (the themes' dependencies, `extra`
 * and this package's own dependencies, which the key holds) and kept under the system's temporary folder: an
 * `npm install` of Astro and four themes' dependencies took about 100 s of the file's time, the same install
 * every run. Made in a folder of its own and renamed into place when complete, so that two runs at once never
 * share a half-made tree. Returns its node_modules.
 */
async function cachedDependencies(tarball: string, wanted: string[]): Promise<string> {
  const own = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const key = createHash('sha256')
    .update(JSON.stringify([process.version, [...wanted].sort(), own.dependencies, own.peerDependencies]))
    .digest('hex')
    .slice(0, 16);
  const cache = join(tmpdir(), 'acp-theme-deps', key);
  if (existsSync(join(cache, 'complete'))) return join(cache, 'node_modules');
  mkdirSync(dirname(cache), { recursive: true });
  const making = mkdtempSync(`${cache}-`);
  writeFileSync(
    join(making, 'package.json'),
    JSON.stringify({ name: 'acp-theme-deps', private: true, type: 'module' }),
  );
  await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...wanted],
    making,
    baseEnv,
    600_000,
  );
  writeFileSync(join(making, 'complete'), '');
  try {
    renameSync(making, cache);
  } catch {
    // Another run completed the same tree first: use it, and drop this one.
    rmSync(making, { recursive: true, force: true });
  }
  return join(cache, 'node_modules');
}

/**
 * Packs the repository and gives the tarball, with every fixture's dependencies and `extra` packages (for a
 * fixture without a package.json of its own), a node_modules of its own: the tarball's files unpacked as
 * `npm install` unpacks them, every other package linked from the cached install (whose dependencies are this
 * package's own: the key holds them).
 */
export async function prepareWorkspace(fixtures: string[], extra: string[] = []): Promise<Workspace> {
  if (!existsSync(join(REPO, 'dist/index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` does it).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'acp-themes-'));
  const { stdout } = await sh('npm', ['pack', '--pack-destination', dir, '--json', '--ignore-scripts'], REPO, baseEnv);
  const tarball = join(dir, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  const wanted = [...new Set([...fixtures.flatMap(themeDependencies), ...extra])];
  const cached = await cachedDependencies(tarball, wanted);
  const nodeModules = join(dir, 'deps', 'node_modules');
  const own = join(nodeModules, PACKAGE);
  mkdirSync(own, { recursive: true });
  await sh('tar', ['-xzf', tarball, '-C', own, '--strip-components=1'], dir, baseEnv);
  for (const entry of readdirSync(cached)) {
    if (entry === PACKAGE || entry === '.bin' || entry === '.package-lock.json') continue;
    symlinkSync(join(cached, entry), join(nodeModules, entry), 'dir');
  }
  // The commands, each pointing where the cached one does, except this package's, which runs the fresh copy.
  mkdirSync(join(nodeModules, '.bin'));
  for (const command of readdirSync(join(cached, '.bin'))) {
    const target = resolve(join(cached, '.bin'), readlinkSync(join(cached, '.bin', command)));
    const fresh = target.startsWith(join(cached, PACKAGE) + sep)
      ? join(own, relative(join(cached, PACKAGE), target))
      : target;
    symlinkSync(fresh, join(nodeModules, '.bin', command));
  }
  return { dir, nodeModules };
}

/**
 * A copy of the fixture's sources (no build output) using the workspace's packages: a node_modules of its
 * own whose entries link to the workspace's, so that what a build writes there (Astro's data store and
 * image cache in node_modules/.astro, Vite's node_modules/.vite) belongs to this copy alone.
 */
export function copyTheme(workspace: Workspace, fixture: string, name: string): string {
  const dir = join(workspace.dir, name);
  cpSync(fixture, dir, {
    recursive: true,
    filter: (source) => !/[\\/](?:node_modules|dist|\.astro)$/.test(source),
  });
  const nodeModules = join(dir, 'node_modules');
  mkdirSync(nodeModules);
  for (const entry of readdirSync(workspace.nodeModules)) {
    if (entry === '.package-lock.json' || entry === '.astro' || entry === '.vite') continue;
    symlinkSync(join(workspace.nodeModules, entry), join(nodeModules, entry), 'dir');
  }
  return dir;
}

/** `astro <command>` in the theme copy with the project's installed CLI; resolves with its log as plain text. */
async function astro(dir: string, command: 'build' | 'check', env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await sh(
    join(dir, 'node_modules/.bin/astro'),
    [command],
    dir,
    { ...baseEnv, ...env },
    COMMAND_TIMEOUT,
  );
  // Astro colours its log when CI is set (picocolors treats CI as a colour terminal): the checks read plain text.
  return stripVTControlCharacters(stdout + stderr);
}

/** `astro build` of the theme copy with the project's installed CLI; resolves with the build's log. */
export function buildTheme(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  return astro(dir, 'build', env);
}

/**
 * `npm run <script>` in a theme copy (its own `build` is `astro check && astro build` where the theme has it:
 * a type error the package causes fails it, as it does for the theme's users); rejects with the output when
 * it fails.
 */
export async function runScript(dir: string, script: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await sh('npm', ['run', '--silent', script], dir, { ...baseEnv, ...env }, COMMAND_TIMEOUT);
  return stripVTControlCharacters(stdout + stderr);
}

/** `astro check` in a copy without a package.json of its own; rejects with the diagnostics when it finds an error. */
export function checkTypes(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  return astro(dir, 'check', env);
}
