/**
 * Issue 18, "The demo": `npm run playground:build` (demo.mjs --build-only) twice, as a user runs it. Before: the
 * first build stopped at 500 image downloads and left 417 images on the simulator's port, which dies with the
 * demo; the second run's simulator took another port, 300 images failed and the build spent 51 requests where
 * docs/development.md promises one. Now: every image is localised in the first build, the simulator keeps its
 * port between runs, and the warm build costs one request.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ARTICLES } from '../../playground/scripts/environment.mjs';
import { PLAYGROUND_ROOT, REPO_ROOT } from './helpers/site.js';

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** A copy of the playground (its own dist/ and node_modules/.astro/), inside the repository so that it resolves the package by name. */
async function playgroundCopy(): Promise<string> {
  const parent = join(REPO_ROOT, 'test/e2e/dist');
  await mkdir(parent, { recursive: true });
  work = await mkdtemp(join(parent, 'demo-'));
  for (const name of ['src', 'scripts', 'astro.config.mjs', 'settings.mjs', 'tsconfig.json'])
    await cp(join(PLAYGROUND_ROOT, name), join(work, name), { recursive: true });
  return work;
}

/** `node scripts/demo.mjs --build-only` without any PUBLISHER_* variable (the simulator is used). */
function runDemo(root: string): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(PUBLISHER_|PLAYGROUND_)/.test(name)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/demo.mjs'), '--build-only'], {
      cwd: root,
      env: { ...env, PLAYGROUND_SITE: 'https://blog.example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`demo exited ${code}:\n${output}`))));
  });
}

const requestsOf = (output: string) => Number(/the build sent (\d+) API requests? to the simulator/.exec(output)?.[1]);
const simulatorPortOf = (output: string) => /local simulator at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every loopback port a built page names (img src, srcset, links), with how many references, that nothing listens on. */
async function deadPortReferences(dist: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const file of await htmlFiles(dist)) {
    for (const match of (await readFile(file, 'utf8')).matchAll(/\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)/g))
      counts[match[1]!] = (counts[match[1]!] ?? 0) + 1;
  }
  const dead: Record<string, number> = {};
  for (const [port, count] of Object.entries(counts)) if (!(await isListening(Number(port)))) dead[port] = count;
  return dead;
}

describe('npm run playground:build, twice', () => {
  it('the first build localises every image; the second keeps the port and costs one request', async () => {
    const root = await playgroundCopy();
    const first = await runDemo(root);
    expect(requestsOf(first)).toBeGreaterThanOrEqual(DEMO_ARTICLES + 1);
    expect(first).not.toMatch(/left for the next build \(images\.maxDownloads/);
    const dist = join(root, 'dist');
    expect((await readdir(join(dist, 'blog'))).length).toBe(DEMO_ARTICLES);
    expect(await deadPortReferences(dist)).toEqual({});

    const second = await runDemo(root);
    expect(simulatorPortOf(second)).toBe(simulatorPortOf(first));
    expect(second).toMatch(/300 articles: 0 new, 0 changed, 0 removed, 300 unchanged, 0 pending; 1 request/);
    expect(second).not.toMatch(/could not be fetched/);
    expect(requestsOf(second)).toBe(1);
    expect(await deadPortReferences(dist)).toEqual({});
  }, 600_000);
});
