/**
 * `content-publisher watch --once` (spawned as a user runs it) under every feed fault, with a real change
 * waiting upstream: the run fails with the exit code of the failure class and one line on stderr, the
 * trigger does not run, the state file is untouched (so the change is not lost), the feeds are requested a
 * bounded number of times, and the next run after the fault delivers the change exactly once.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { suspectLoss } from '../../src/watch/detect.js';
import { runCli } from '../cli/run-cli.js';
import { addFault, clearFaults, hits, publish, ROUTES } from './helpers.js';

let sim: Simulator;
let dir: string;
let baseline: string;

const FEEDS = 'GET /api/sites/*';
const EMPTY = {
  sitemap: '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
  rss: '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>',
};

async function lines(file: string): Promise<number> {
  return existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter(Boolean).length : 0;
}

function watch(state: string, counter: string) {
  return runCli([
    'watch',
    '--site',
    '12',
    '--base-url',
    sim.url,
    '--state',
    state,
    '--once',
    '--run',
    `echo run >> "${counter}"`,
  ]);
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 10 });
  dir = await mkdtemp(join(tmpdir(), 'faults-watch-'));
  baseline = join(dir, 'baseline.json');
  const first = await watch(baseline, join(dir, 'unused'));
  expect(first.code, first.stderr).toBe(3);
  // A change the watcher has not seen yet: every scenario must deliver it once its fault is gone.
  await publish(sim, { site: 12, title: 'Published while the feeds misbehave', content: '<p>New.</p>' });
});
afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ROWS: Array<{ name: string; fault: Record<string, unknown>; exit: number; stderr?: RegExp }> = [
  {
    name: '429 with a short Retry-After: waited, retried, the change is delivered',
    fault: { status: 429, retryAfter: 1, times: 1 },
    exit: 0,
  },
  {
    name: '429 with a Retry-After over the cap',
    fault: { status: 429, retryAfter: 3600 },
    exit: 8,
    stderr: /429: Wait 3600 seconds, /,
  },
  { name: '429 storm', fault: { status: 429, retryAfter: 1 }, exit: 8, stderr: /429/ },
  { name: '500', fault: { status: 500 }, exit: 10, stderr: /500/ },
  { name: '503', fault: { status: 503 }, exit: 10, stderr: /503/ },
  { name: '502 (CMS unreachable)', fault: { status: 502 }, exit: 9, stderr: /502/ },
  { name: 'connection dropped mid-body', fault: { drop: 'mid-body' }, exit: 11, stderr: /network error/ },
  { name: 'truncated XML', fault: { body: 'truncated' }, exit: 12, stderr: /api\/sites\/12\/(rss|sitemap)\.xml/ },
  {
    name: 'an HTML error page with status 200',
    fault: { body: 'html' },
    exit: 12,
    // In the command line's terms: its flag, not the client's option.
    stderr:
      /got an HTML page "200 Service Error" \(text\/html; charset=utf-8\)\. Check that --base-url \(or PUBLISHER_BASE_URL\)/,
  },
  {
    name: 'a huge body (over the feed size cap)',
    fault: { body: 'huge' },
    exit: 12,
    // The client's cap, which the command line has no flag for: named as the command line's own.
    stderr:
      /over the command line's 52428800-byte cap\. Check that --base-url \(or PUBLISHER_BASE_URL\) points at the service itself\.$/m,
  },
];

describe('watch --once under feed faults', () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      const state = join(dir, `${row.exit}-${Math.random().toString(36).slice(2)}.json`);
      const counter = `${state}.runs`;
      await copyFile(baseline, state);
      const stateBefore = await readFile(state, 'utf8');
      await clearFaults(sim);
      await addFault(sim, { route: FEEDS, ...row.fault });
      sim.resetStats();

      const faulty = await watch(state, counter);
      expect(faulty.code, faulty.stderr).toBe(row.exit);
      const stats = sim.stats();
      // Bounded: each feed once, plus at most `retries` (2) retries; never the key, never authenticated.
      expect(hits(stats, ROUTES.rss)).toBeLessThanOrEqual(3);
      expect(hits(stats, ROUTES.sitemap)).toBeLessThanOrEqual(3);
      expect(stats.authenticated).toBe(0);
      if (row.exit === 0) {
        expect(await lines(counter)).toBe(1);
        return;
      }
      // One error line; any other line is a notice of a bounded retry, in the command's name too.
      const stderr = faulty.stderr.trim().split('\n');
      const retry = /-> (\w+; retry [12] of 2 in \d+ ms|429; waiting \d+ ms \(Retry-After\) and retrying once)$/;
      const errors = stderr.filter((line) => !retry.test(line));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^content-publisher: /);
      expect(errors[0]).toMatch(row.stderr!);
      for (const line of stderr.filter((l) => retry.test(l))) expect(line).toMatch(/^content-publisher: /);
      expect(await lines(counter)).toBe(0);
      expect(await readFile(state, 'utf8')).toBe(stateBefore);

      await clearFaults(sim);
      const recovered = await watch(state, counter);
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(await lines(counter)).toBe(1);
    });
  }

  it('feeds that suddenly come back empty: suspect, exit 12 with the fix in one line, no trigger, state kept', async () => {
    const state = join(dir, 'empty.json');
    const counter = `${state}.runs`;
    await copyFile(baseline, state);
    const stateBefore = await readFile(state, 'utf8');
    await clearFaults(sim);
    await addFault(sim, { route: ROUTES.rss, body: EMPTY.rss });
    await addFault(sim, { route: ROUTES.sitemap, body: EMPTY.sitemap });
    const empty = await watch(state, counter);
    expect(empty.code, empty.stderr).toBe(12);
    expect(empty.stderr.trim().split('\n')).toHaveLength(1);
    expect(empty.stderr).toMatch(
      /the RSS feed came back with 0 entries where \d+ were seen and the sitemap came back with 0 entries where \d+ were seen: losing more than half at once looks like an upstream accident/,
    );
    expect(empty.stderr).toContain(`delete the state file ${state}`);
    expect(await lines(counter)).toBe(0);
    expect(await readFile(state, 'utf8')).toBe(stateBefore);
    await clearFaults(sim);
    const recovered = await watch(state, counter);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(await lines(counter)).toBe(1);
  });
});

describe("suspectLoss: the watcher's rule for a feed that shrinks at once (the loader's rule too)", () => {
  it('more than half gone is suspect; half or less is unpublishing; a feed of one is too small to judge', () => {
    expect(suspectLoss('RSS feed', 10, 0)).toBe('the RSS feed came back with 0 entries where 10 were seen');
    expect(suspectLoss('sitemap', 10, 4)).toBe('the sitemap came back with 4 entries where 10 were seen');
    expect(suspectLoss('sitemap', 10, 5)).toBeUndefined();
    expect(suspectLoss('RSS feed', 50, 49)).toBeUndefined();
    expect(suspectLoss('RSS feed', 1, 0)).toBeUndefined();
    expect(suspectLoss('RSS feed', 0, 0)).toBeUndefined();
  });
});
