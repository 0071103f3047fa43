/**
 * The API key never leaks. With a recognisable token (`btb_leakcheck_...`, registered in the simulator with
 * `extraProTokens`), after a successful build, a build that warns, a failed build, CLI errors and a `watch`
 * run, and while the service echoes the token back in its error bodies: the token is in no file of the
 * output, the data store or the state file, in no log line, no error message, and in no request other than
 * the Authorization header of the authenticated API calls. The public routes send no Authorization header.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, fixtureRoot, readTree, tempDirs } from '../astro/loader-harness.js';
import { runCli } from '../cli/run-cli.js';
import { addFault, clearFaults, ROUTES } from '../faults/helpers.js';

const TOKEN = 'btb_leakcheck_s3cr3t_7f2a';
const root = fixtureRoot('security-site');
let sim: Simulator;
let dirs: Awaited<ReturnType<typeof tempDirs>>;
/** Everything the user could see: logs, messages, CLI output. */
const seen: Array<{ what: string; text: string }> = [];
const requests: ReturnType<Simulator['stats']>['requests'] = [];

beforeAll(async () => {
  sim = await startSimulator({ articles: 6, extraProTokens: [TOKEN] });
  dirs = await tempDirs('security-secrets', root);
});
afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // Astro's debounced store write after a failed build
  await dirs?.cleanup();
});

async function build(what: string, env: Record<string, string> = {}) {
  sim.resetStats();
  const result = await buildFixture({
    root,
    outDir: dirs.outDir,
    cacheDir: dirs.cacheDir,
    env: {
      PUBLISHER_BASE_URL: sim.url,
      PUBLISHER_API_KEY: TOKEN,
      PUBLISHER_SITE_ID: '12',
      SECURITY_STRICT: '',
      ...env,
    },
  });
  seen.push({ what: `${what}: logs`, text: result.logs });
  if (result.error) {
    const e = result.error as Error & { hint?: string };
    seen.push({
      what: `${what}: error`,
      text: `${e.message}\n${e.hint ?? ''}\n${e.stack ?? ''}\n${String(e.cause ?? '')}\n${JSON.stringify(e)}`,
    });
  }
  requests.push(...sim.stats().requests);
  return result;
}

async function cli(what: string, args: string[]) {
  sim.resetStats();
  const result = await runCli(args, { env: { PUBLISHER_API_KEY: TOKEN, PUBLISHER_BASE_URL: sim.url } });
  seen.push({ what: `${what}: stdout`, text: result.stdout }, { what: `${what}: stderr`, text: result.stderr });
  requests.push(...sim.stats().requests);
  return result;
}

/** The service echoes the token back in its error body, as a careless proxy or API might. */
const ECHO = { error: `Token ${TOKEN} was rejected (Authorization: Bearer ${TOKEN})` };

describe('the API key never leaks', () => {
  it('a successful build: pages, sitemap and RSS built; the routes fetched the feeds without Authorization', async () => {
    const r = await build('successful build');
    expect(r.error).toBeUndefined();
    expect(existsSync(join(dirs.outDir, 'sitemap.xml'))).toBe(true);
    expect(existsSync(join(dirs.outDir, 'rss.xml'))).toBe(true);
    const last = requests.filter((q) => !q.path.startsWith('/api/v1/'));
    expect(last.length).toBeGreaterThanOrEqual(2);
    for (const q of last) expect(q.authorization, q.path).toBe(false);
  });

  it('a build that warns while the service echoes the token in its error body', async () => {
    await addFault(sim, { route: ROUTES.list, status: 500, json: ECHO });
    try {
      const r = await build('warning build');
      expect(r.error).toBeUndefined();
      expect(r.logs).toContain('Could not list the articles of site 12');
      expect(r.logs).toContain('btb_[redacted]');
    } finally {
      await clearFaults(sim);
    }
  });

  it('a failed build (strict) with the echoed token', async () => {
    await addFault(sim, { route: ROUTES.list, status: 502, json: ECHO });
    try {
      const r = await build('failed build', { SECURITY_STRICT: '1' });
      expect(r.error).toBeDefined();
      expect(`${r.error!.message}`).toContain('[GET] /api/v1/sites/12/articles/: 502');
    } finally {
      await clearFaults(sim);
    }
  });

  it('CLI errors, with --verbose and --json, while the service echoes the token', async () => {
    await addFault(sim, { route: ROUTES.list, status: 500, json: ECHO });
    try {
      const failed = await cli('cli 500', ['articles', '12', '--verbose']);
      expect(failed.code).toBe(10);
      const json = await cli('cli 500 --json', ['articles', '12', '--json']);
      expect(JSON.parse(json.stdout).error.status).toBe(500);
    } finally {
      await clearFaults(sim);
    }
    expect((await cli('cli 404', ['article', '12', 'no-such-article', '--verbose'])).code).toBe(7);
    expect((await cli('cli usage', ['articles', 'abc'])).code).toBe(2);
    expect((await cli('cli other user', ['articles', '21'])).code).toBe(7);
  });

  it('a watch run with the key in its environment: no request carries it', async () => {
    // Inside the build's output directory: removed with it, and scanned with it below.
    const state = join(dirs.outDir, 'watch-state.json');
    const first = await cli('watch', ['watch', '--site', '12', '--state', state, '--once', '--run', 'echo build']);
    expect(first.code, first.stderr).toBe(3);
    seen.push({ what: 'watch state file', text: await readFile(state, 'utf8') });
    const watchRequests = requests.slice(-2);
    expect(watchRequests.map((q) => q.path).sort()).toEqual(['/api/sites/12/rss.xml', '/api/sites/12/sitemap.xml']);
    for (const q of watchRequests) expect(q.authorization).toBe(false);
  });

  it('afterwards: the token is in no log, message, output or stored file, and only in Authorization headers', async () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const { what, text } of seen) {
      expect(text.includes(TOKEN), `${what} contains the token`).toBe(false);
      expect(text.includes('leakcheck'), `${what} contains part of the token`).toBe(false);
    }
    const trees = [dirs.outDir, dirs.cacheDir, join(root, '.astro')];
    let files = 0;
    for (const dir of trees) {
      for (const [path, text] of await readTree(dir)) {
        files += 1;
        expect(text.includes('leakcheck'), `${dir}/${path}`).toBe(false);
      }
    }
    expect(files).toBeGreaterThan(10);
    expect(requests.length).toBeGreaterThan(20);
    for (const q of requests) {
      if (q.path.startsWith('/api/v1/')) expect(q.tokenIn, `${q.method} ${q.path}`).toEqual(['header']);
      else {
        expect(q.tokenIn, q.path).toEqual([]);
        expect(q.authorization, q.path).toBe(false);
      }
    }
  });
});
