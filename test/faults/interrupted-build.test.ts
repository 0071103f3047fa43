/**
 * A real `astro build` killed mid-sync, then rebuilt. The loader writes to Astro's data store while it
 * syncs (Astro saves it, debounced, as entries arrive), so a build that dies halfway must leave a store
 * that is the previous one or the previous one plus complete, good entries: never a dropped or
 * half-written article. The next build then converges.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as devalue from 'devalue';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { addFault, clearFaults, hits, patchArticle, publish, ROUTES } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/faults-site/', import.meta.url));
const BUILD_SCRIPT = join(FIXTURE, 'build.mjs');
const NODE = join(ROOT, 'node_modules/.bin/node');

interface StoredEntry {
  id: string;
  data: Record<string, unknown>;
  rendered?: { html: string };
}

let sim: Simulator;
let base: string;

beforeAll(async () => {
  sim = await startSimulator({ articles: 8, rateLimitOverride: 100_000 });
  // Inside the fixture (git-ignored dist/): prerender chunks resolve packages from the project's node_modules.
  await mkdir(join(FIXTURE, 'dist'), { recursive: true });
  base = await mkdtemp(join(FIXTURE, 'dist', 'kill-'));
});
afterAll(async () => {
  await sim?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

/** Starts the fixture's build in a child process (only this file builds this fixture). */
function startBuild() {
  const child = spawn(NODE, [BUILD_SCRIPT, join(base, 'dist'), join(base, 'cache')], {
    cwd: FIXTURE,
    env: {
      ...process.env,
      PUBLISHER_BASE_URL: sim.url,
      PUBLISHER_API_KEY: sim.tokens.pro,
      PUBLISHER_SITE_ID: '12',
      FAULTS_STRICT: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, done, output: () => output };
}

async function fullBuild(): Promise<string> {
  const run = startBuild();
  const { code } = await run.done;
  expect(code, run.output()).toBe(0);
  return run.output();
}

/** The articles collection of the data store on disk: id -> what a reader sees. */
async function storedArticles(): Promise<Map<string, { title: unknown; html: string | undefined }>> {
  const text = await readFile(join(base, 'cache', 'data-store.json'), 'utf8');
  const collections = devalue.parse(text) as Map<string, Map<string, StoredEntry>>;
  const articles = collections.get('articles') ?? new Map<string, StoredEntry>();
  return new Map([...articles].map(([id, entry]) => [id, { title: entry.data.title, html: entry.rendered?.html }]));
}

it('SIGKILL during the detail calls leaves the previous store or a superset of good entries; the rebuild converges', async () => {
  await fullBuild();
  const before = await storedArticles();
  expect(before.size).toBe(8);

  // Upstream moves on: 3 new articles and 2 retitled ones, 5 detail calls for the next build.
  const [a, b] = [...before.keys()];
  for (const n of [1, 2, 3])
    await publish(sim, {
      site: 12,
      title: `Published while the build runs ${n}`,
      content: `<h2>Part ${n}</h2><p>Body ${n}.</p>`,
    });
  await patchArticle(sim, 12, a!, { title: 'Retitled before the crash A' });
  await patchArticle(sim, 12, b!, { title: 'Retitled before the crash B' });

  // Every other detail call hangs: some entries arrive (and Astro saves them), the others never do.
  await addFault(sim, { route: ROUTES.detail, delayMs: 60_000, share: 0.5 });
  sim.resetStats();
  const run = startBuild();
  const started = Date.now();
  while (hits(sim.stats(), ROUTES.detail) < 2 && Date.now() - started < 60_000)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(hits(sim.stats(), ROUTES.detail), run.output()).toBeGreaterThanOrEqual(2);
  // Kill once Astro's debounced save has put the answered entries on disk (the hanging ones cannot be).
  const grown = async () => (await storedArticles()).size > before.size;
  while (!(await grown()) && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 100));
  run.child.kill('SIGKILL');
  expect((await run.done).signal).toBe('SIGKILL');
  const interrupted = await storedArticles();

  await clearFaults(sim);
  sim.resetStats();
  const logs = await fullBuild();
  const after = await storedArticles();
  expect(after.size).toBe(11);
  expect(after.get(a!)?.title).toBe('Retitled before the crash A');
  expect(after.get(b!)?.title).toBe('Retitled before the crash B');
  expect(logs).toMatch(/11 articles: \d+ new, \d+ changed, 0 removed, \d+ unchanged, 0 pending/);
  // The rebuild fetched only what the killed build had not stored.
  expect(hits(sim.stats(), ROUTES.detail)).toBeLessThanOrEqual(5);

  // The store the killed build left: every previous article is there, each as before or as its good version.
  for (const id of before.keys()) expect(interrupted.has(id), `${id} dropped by the killed build`).toBe(true);
  for (const [id, entry] of interrupted) {
    const options = [before.get(id), after.get(id)].filter(Boolean);
    expect(options, `${id}: neither its previous nor its good version`).toContainEqual(entry);
  }
  expect(interrupted.size).toBeGreaterThan(before.size);
  expect(interrupted.size).toBeLessThanOrEqual(after.size);
});
