/**
 * Real `astro build` runs of the model site, each in its own process: started directly, or by
 * `content-publisher watch --once` as its `--run` command; either can be killed with SIGKILL while the service
 * holds one of its calls.
 * Only this file's sequences build this fixture's temporary outDir/cacheDir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Simulator, SimulatorRequestRecord } from '../../src/simulator/index.js';

import { SITE_TIMEOUT_MS } from './faults.js';
import { LANGS, SITE_ID, type Lang } from './service.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE = fileURLToPath(new URL('../fixtures/model-site/', import.meta.url));
const NODE = join(ROOT, 'node_modules/.bin/node');
const BIN = join(ROOT, 'dist/cli/bin.js');

/** Per language loader: `maxRequests` of its budget (MODEL_SITE_BUDGET of the fixture). */
export const BUDGET = 6;
/**
 * The service's real rate limit for the site model (per user, sliding window): a build that changes much spends
 * it (the limiter's 429s and `X-RateLimit-Reset` in the variant's form reach the loaders); a window short enough
 * that the next build, seconds later, starts with it free.
 */
export const RATE_LIMIT = { requests: 6, windowMs: 1000 };

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
    MODEL_SITE_TIMEOUT_MS: String(SITE_TIMEOUT_MS),
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
  /** Every request the service answered during the run, as it recorded them (the service's side of the build). */
  records: SimulatorRequestRecord[];
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

/** Where a build is killed: while the service holds its `n`-th list or detail call (the build waits on it). */
export interface KillPoint {
  call: 'list' | 'detail';
  n: number;
}

const HELD_ROUTES = {
  list: 'GET /api/v1/sites/:id/articles/',
  detail: 'GET /api/v1/sites/:id/articles/:slug/',
} as const;

async function faultIds(sim: Simulator): Promise<string[]> {
  const response = await fetch(`${sim.url}/__simulator/faults`);
  const { faults } = (await response.json()) as { faults: Array<{ id: string }> };
  return faults.map((f) => f.id);
}

/**
 * Kills the build with SIGKILL while the service holds its `n`-th call of a kind: a fault delays that one
 * answer for longer than the test runs, and is gone from the service's list once applied. The build is then
 * certainly alive and mid-sync, whatever the machine's speed (a signal from inside the build, not a delay).
 * A build that never makes that call finishes: not killed.
 */
async function killAtCall(sim: Simulator, dirs: SiteDirs, at: KillPoint, exited: () => boolean): Promise<boolean> {
  const response = await fetch(`${sim.url}/__simulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // `share` 1/n: the n-th matching call (the simulator's share is deterministic); held 10 minutes, the
    // simulator's longest delay: its answer (and its record) never comes within the test.
    body: JSON.stringify({ route: HELD_ROUTES[at.call], delayMs: 600_000, share: 1 / at.n, times: 1 }),
  });
  const { id } = (await response.json()) as { id: string };
  while (!exited() && (await faultIds(sim)).includes(id)) await sleep(20);
  if (exited()) return false;
  const pid = await buildPid(dirs, Date.now());
  if (pid === undefined || !alive(pid)) return false;
  process.kill(pid, 'SIGKILL');
  return true;
}

/**
 * One build, direct or by `watch --once`; `killAt` kills it while the service holds that call. `lateMs`: how long
 * after the build the service may still answer (and record) a call it delays (a `timeout` fault answers after the
 * build gave up on it, maybe after the build ended).
 */
export async function runBuild(
  sim: Simulator,
  dirs: SiteDirs,
  how: 'build' | 'watch',
  killAt?: KillPoint,
  lateMs = 0,
): Promise<BuildRun> {
  await rm(dirs.pidFile, { force: true });
  await rm(`${dirs.pidFile}.exit`, { force: true });
  const env = {
    ...process.env,
    PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
    ...siteEnv(sim, dirs),
  };
  const requestsBefore = sim.stats().authenticated;
  const recordsBefore = sim.stats().requests.length;
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
  let exited = false;
  void done.then(() => (exited = true));
  const killed = killAt === undefined ? false : await killAtCall(sim, dirs, killAt, () => exited);
  const code = await done;
  await sleep(lateMs);
  const logs = plain(output());
  const stats = sim.stats();
  const requests = stats.authenticated - requestsBefore;
  const records = stats.requests.slice(recordsBefore);
  if (how === 'build') return { how, buildExit: killed ? 'killed' : (code ?? -1), logs, requests, records };
  const ran = (await readFile(dirs.pidFile, 'utf8').catch(() => '')) !== '';
  const buildCode = Number(await readFile(`${dirs.pidFile}.exit`, 'utf8').catch(() => '-1'));
  return {
    how,
    buildExit: killed ? 'killed' : !ran ? 'not-run' : buildCode,
    watchExit: code,
    logs,
    requests,
    records,
  };
}
