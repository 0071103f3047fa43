import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nextDelay, MAX_BACKOFF_MS } from '../../src/watch/backoff.js';
import { formatDuration, parseDuration } from '../../src/watch/duration.js';
import { loadState, saveState, type WatchState } from '../../src/watch/state.js';

const state: WatchState = {
  version: 1,
  site: 12,
  baseUrl: 'http://127.0.0.1:1',
  rss: { etag: '"e1"', items: [{ guid: 'g', digest: 'd' }] },
  sitemap: { lastModified: 'Mon, 01 Jan 2026 00:00:00 GMT', entries: { 'https://x/a/': '2026-01-01' } },
  savedAt: '2026-01-01T00:00:00.000Z',
};

describe('state file', () => {
  const made: string[] = [];
  const stateDir = async () => {
    made.push(await mkdtemp(join(tmpdir(), 'watch-state-')));
    return made.at(-1)!;
  };
  afterEach(() => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

  it('round-trips, and a missing file means first run', async () => {
    const dir = await stateDir();
    const file = join(dir, 'nested', 'state.json');
    expect(await loadState(file, { site: 12, baseUrl: state.baseUrl })).toBeUndefined();
    await saveState(file, state);
    expect(await loadState(file, { site: 12, baseUrl: state.baseUrl })).toEqual(state);
    // Atomic write: no temp file is left next to the state.
    expect(await readdir(join(dir, 'nested'))).toEqual(['state.json']);
  });

  it('refuses a corrupt file or one of another site, naming the file and the fix', async () => {
    const dir = await stateDir();
    const file = join(dir, 'state.json');
    await writeFile(file, '{"version": 1, "half');
    await expect(loadState(file, { site: 12, baseUrl: state.baseUrl })).rejects.toThrow(
      /not valid\. Delete it to record a new baseline/,
    );
    await saveState(file, state);
    await expect(loadState(file, { site: 13, baseUrl: state.baseUrl })).rejects.toThrow(/belongs to site 12.*--state/);
    expect(JSON.parse(await readFile(file, 'utf8')).site).toBe(12);
  });
});

describe('durations and backoff', () => {
  it('parses ms, s, m, h and bare seconds; refuses the rest', () => {
    expect(parseDuration('200ms')).toBe(200);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration('10')).toBe(10_000);
    expect(parseDuration('5 minutes')).toBeUndefined();
    expect(parseDuration('-1s')).toBeUndefined();
    expect(formatDuration(300_000)).toBe('5m');
    expect(formatDuration(200)).toBe('200ms');
  });

  it('backs off exponentially from the interval, capped', () => {
    expect(nextDelay(1_000, 0)).toBe(1_000);
    expect(nextDelay(1_000, 1)).toBe(2_000);
    expect(nextDelay(1_000, 3)).toBe(8_000);
    expect(nextDelay(60_000, 20)).toBe(MAX_BACKOFF_MS);
    expect(nextDelay(3_600_000, 5)).toBe(3_600_000);
  });
});

describe('watch options', () => {
  it('fills the defaults and names the invalid option', async () => {
    const { resolveWatchOptions } = await import('../../src/watch/options.js');
    const resolved = resolveWatchOptions({
      siteId: 12,
      baseUrl: 'http://x',
      statePath: 's.json',
      trigger: { kind: 'hook', url: 'https://hooks.example/abc' },
    });
    expect(resolved).toMatchObject({
      intervalMs: 300_000,
      debounceMs: 30_000,
      once: false,
      triggerOnFirstRun: false,
      trigger: { timeoutMs: 30_000 },
    });
    expect(() =>
      resolveWatchOptions({
        siteId: 12,
        baseUrl: 'http://x',
        statePath: 's',
        trigger: { kind: 'hook', url: 'ftp://x/' },
      }),
    ).toThrow(/`trigger.url` must be an http\(s\) URL \(got "ftp:\/\/x\/"\)\. Fix it in runWatch\(\{ trigger \}\)/);
    expect(() =>
      resolveWatchOptions({ siteId: 0, baseUrl: 'http://x', statePath: 's', trigger: { kind: 'run', command: 'x' } }),
    ).toThrow(/`siteId` must be a positive integer/);
  });

  it('refuses durations beyond the timer range (Node would fire them after 1 ms)', async () => {
    const { resolveWatchOptions } = await import('../../src/watch/options.js');
    const base = { siteId: 12, baseUrl: 'http://x', statePath: 's', trigger: { kind: 'run' as const, command: 'x' } };
    const tooLong = 2 ** 31;
    expect(() => resolveWatchOptions({ ...base, intervalMs: tooLong })).toThrow(/`intervalMs`/);
    expect(() => resolveWatchOptions({ ...base, debounceMs: tooLong })).toThrow(/`debounceMs`/);
    expect(() =>
      resolveWatchOptions({ ...base, trigger: { kind: 'hook', url: 'https://h.example/', timeoutMs: tooLong } }),
    ).toThrow(/`trigger.timeoutMs`/);
    expect(resolveWatchOptions({ ...base, intervalMs: tooLong - 1 }).intervalMs).toBe(tooLong - 1);
  });
});
