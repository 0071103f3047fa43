/**
 * A real theme as a new user wires it: the package from `npm pack`, installed from the tarball with the
 * newest Astro 7 and the theme's own dependencies (read from the fixture's package.json) in one `npm
 * install` shared by every theme, then a copy of the fixture using those node_modules, built with the
 * project's own `astro build` against the simulator.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { sh } from './site-urls.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO, 'node_modules/.bin');

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
    .filter(([name]) => name !== 'astro-content-publisher')
    .map(([name, range]) => `${name}@${range}`);
}

/**
 * Packs the repository and installs the tarball with every fixture's dependencies, and `extra` packages (for a
 * fixture without a package.json of its own), once.
 */
export async function prepareWorkspace(fixtures: string[], extra: string[] = []): Promise<Workspace> {
  if (!existsSync(join(REPO, 'dist/index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` does it).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'acp-themes-'));
  const { stdout } = await sh('npm', ['pack', '--pack-destination', dir, '--json', '--ignore-scripts'], REPO, baseEnv);
  const tarball = join(dir, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  const deps = join(dir, 'deps');
  mkdirSync(deps);
  writeFileSync(join(deps, 'package.json'), JSON.stringify({ name: 'acp-theme-deps', private: true, type: 'module' }));
  const wanted = [...new Set([...fixtures.flatMap(themeDependencies), ...extra])];
  await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...wanted],
    deps,
    baseEnv,
    600_000,
  );
  return { dir, nodeModules: join(deps, 'node_modules') };
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

/** `astro build` of the theme copy with the project's installed CLI; resolves with the build's log. */
export async function buildTheme(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await sh(join(dir, 'node_modules/.bin/astro'), ['build'], dir, { ...baseEnv, ...env });
  // Astro colours its log when CI is set (picocolors treats CI as a colour terminal): the checks read plain text.
  return stripVTControlCharacters(stdout + stderr);
}

/**
 * `npm run <script>` in a theme copy (its own `build` is `astro check && astro build` where the theme has it:
 * a type error the package causes fails it, as it does for the theme's users); rejects with the output when
 * it fails.
 */
export async function runScript(dir: string, script: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await sh('npm', ['run', '--silent', script], dir, { ...baseEnv, ...env });
  return stripVTControlCharacters(stdout + stderr);
}

/** `astro check` in a copy without a package.json of its own; rejects with the diagnostics when it finds an error. */
export async function checkTypes(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await sh(join(dir, 'node_modules/.bin/astro'), ['check'], dir, { ...baseEnv, ...env });
  return stripVTControlCharacters(stdout + stderr);
}
