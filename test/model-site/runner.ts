/**
 * Real `astro build` runs of the model site, each in its own process: started directly, or by
 * `content-publisher watch --once` as its `--run` command; either can be killed with SIGKILL mid-build.
 * Only this file's sequences build this fixture's temporary outDir/cacheDir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Simulator } from '../../src/simulator/index.js';
import { LANGS, SITE_ID, type Lang } from './service.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE = fileURLToPath(new URL('../fixtures/model-site/', import.meta.url));
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'dist/cli/bin.js');

/** Per language loader: `maxRequests` of its budget (MODEL_SITE_BUDGET of the fixture). */
export const BUDGET = 6;

export interface SiteDirs {
  base: string;
  outDir: string;
  cacheDir: string;
  watchState: string;
  pidFile: string;
  cleanup(): Promise<void>;
}

/**
 * A cacheDir and a watch state in the OS temp dir; the outDir under the fixture's dist/ (gitignored): for an
 * outDir outside the working directory Astro puts prerender chunks in a folder that concurrent builds share.
 */
export async function siteDirs(): Promise<SiteDirs> {
  const base = await mkdtemp(join(tmpdir(), 'model-site-'));
  await mkdir(join(FIXTURE, 'dist'), { recursive: true });
  const outDir = await mkdtemp(join(FIXTURE, 'dist', 'run-'));
  return {
    base,
    outDir,
    cacheDir: join(base, 'cache'),
    watchState: join(base, 'watch.json'),
    pidFile: join(base, 'build.pid'),
    cleanup: async () => {
      await rm(base, { recursive: true, force: true });
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** The environment of a build (and of `astro preview`, which loads the same config). */
export function siteEnv(sim: Simulator, dirs: SiteDirs): Record<string, string> {
  return {
    PUBLISHER_BASE_URL: sim.url,
    PUBLISHER_API_KEY: sim.tokens.pro,
    PUBLISHER_SITE_ID: String(SITE_ID),
    MODEL_SITE_BUDGET: String(BUDGET),
    MODEL_SITE_OUT_DIR: dirs.outDir,
    MODEL_SITE_CACHE_DIR: dirs.cacheDir,
    MODEL_SITE_PID_FILE: dirs.pidFile,
  };
}

export interface BuildRun {
  how: 'build' | 'watch';
  /** The build process's exit: 0 ok, else failed; `killed` when the test killed it. */
  buildExit: number | 'killed' | 'not-run';
  /** `watch --once`'s exit code (watch runs only). */
  watchExit?: number | null;
  logs: string;
  /** Authenticated requests the service saw during the run. */
  requests: number;
}

/** Per language: the loader's summary (`N pending`), from `[astro-content-publisher:articles:site-12:lang-xx]`. */
export function loaderSummaries(logs: string): Map<Lang, { total: number; pending: number }> {
  const out = new Map<Lang, { total: number; pending: number }>();
  for (const lang of LANGS) {
    const re = new RegExp(
      `\\[astro-content-publisher:articles:site-${SITE_ID}:lang-${lang}\\] (\\d+) articles?: .*?, (\\d+) pending;`,
      'g',
    );
    const last = [...logs.matchAll(re)].at(-1);
    if (last) out.set(lang, { total: Number(last[1]), pending: Number(last[2]) });
  }
  return out;
}

function collect(child: ChildProcess): { output: () => string; done: Promise<number | null> } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { output: () => output, done };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** The build's pid from its pid file, once the process wrote it (watch runs it through a shell). */
async function buildPid(dirs: SiteDirs, since: number): Promise<number | undefined> {
  while (Date.now() - since < 120_000) {
    const text = await readFile(dirs.pidFile, 'utf8').catch(() => '');
    if (text.trim() !== '') return Number(text);
    await sleep(50);
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills the build with SIGKILL once the service saw its first authenticated request (its loaders run), after
 * `delayMs` more: anywhere from the sync to the page rendering. Returns whether it was still running.
 */
async function killMidBuild(sim: Simulator, dirs: SiteDirs, delayMs: number, startedAt: number): Promise<boolean> {
  const before = sim.stats().authenticated;
  const pid = await buildPid(dirs, startedAt);
  if (pid === undefined) return false;
  while (sim.stats().authenticated === before && alive(pid) && Date.now() - startedAt < 120_000) await sleep(20);
  await sleep(delayMs);
  if (!alive(pid)) return false;
  process.kill(pid, 'SIGKILL');
  return true;
}

/** One build, direct or by `watch --once`; `killAfterMs` kills it mid-build. */
export async function runBuild(
  sim: Simulator,
  dirs: SiteDirs,
  how: 'build' | 'watch',
  killAfterMs?: number,
): Promise<BuildRun> {
  await rm(dirs.pidFile, { force: true });
  const env = {
    ...process.env,
    PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    ...siteEnv(sim, dirs),
  };
  const requestsBefore = sim.stats().authenticated;
  const startedAt = Date.now();
  const args =
    how === 'build'
      ? ['build.mjs']
      : [
          BIN,
          'watch',
          '--site',
          String(SITE_ID),
          '--base-url',
          sim.url,
          '--state',
          dirs.watchState,
          '--once',
          '--debounce',
          '0s',
          '--trigger-on-first-run',
          '--run',
          `${JSON.stringify(NODE)} build.mjs`,
        ];
  const child = spawn(NODE, args, { cwd: FIXTURE, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, done } = collect(child);
  const killed = killAfterMs === undefined ? false : await killMidBuild(sim, dirs, killAfterMs, startedAt);
  const code = await done;
  const logs = plain(output());
  const requests = sim.stats().authenticated - requestsBefore;
  if (how === 'build') return { how, buildExit: killed ? 'killed' : (code ?? -1), logs, requests };
  const ran = (await readFile(dirs.pidFile, 'utf8').catch(() => '')) !== '';
  const failed = /BUILD FAILED/.test(logs);
  return {
    how,
    buildExit: killed ? 'killed' : !ran ? 'not-run' : failed ? 1 : code === 0 ? 0 : 1,
    watchExit: code,
    logs,
    requests,
  };
}
