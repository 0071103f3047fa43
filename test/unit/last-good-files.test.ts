// The outage copies of the feeds a static build used (last-good-files.ts): kept whole, read back, used only on
// an outage, and removed once no build kept them for a month (a sitemap part whose URL changed would otherwise
// stay in cacheDir forever).
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamFeedError } from '../../src/client/public-feed.js';
import {
  bodyOrLastGood,
  keepLastGood,
  LAST_GOOD_MAX_AGE_MS,
  pruneLastGood,
  readLastGood,
} from '../../src/integration/cache/last-good-files.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'last-good-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SITEMAP = 'https://service.example.com/api/sites/12/sitemap.xml';

describe('last good copies of the feeds', () => {
  it('an outage takes the kept copy and says how old it is; a 404 still fails', async () => {
    const dir = tempDir();
    keepLastGood(dir, SITEMAP, '<urlset/>');
    expect(readLastGood(dir, SITEMAP)?.body).toBe('<urlset/>');
    const notes: string[] = [];
    const down = () =>
      Promise.reject(new UpstreamFeedError({ url: SITEMAP, reason: 'status', status: 503, detail: 'status 503' }));
    await expect(bodyOrLastGood(dir, SITEMAP, down, (m) => notes.push(m))).resolves.toEqual({
      body: '<urlset/>',
      fresh: false,
    });
    expect(notes[0]).toContain('This build used the copy an earlier build kept');
    const gone = () =>
      Promise.reject(new UpstreamFeedError({ url: SITEMAP, reason: 'status', status: 404, detail: 'status 404' }));
    await expect(bodyOrLastGood(dir, SITEMAP, gone, () => {})).rejects.toThrow(UpstreamFeedError);
  });

  it('a copy no build kept for a month is removed, a recent one and files not ours stay', () => {
    const dir = tempDir();
    keepLastGood(dir, `${SITEMAP}?part=old`, '<urlset/>');
    const [oldFile] = readdirSync(dir);
    keepLastGood(dir, SITEMAP, '<urlset/>');
    writeFileSync(join(dir, 'notes.txt'), 'the user put this here');
    const now = Date.now();
    const old = (now - LAST_GOOD_MAX_AGE_MS - 60_000) / 1000;
    expect(oldFile).toMatch(/^[0-9a-f]{32}\.xml$/);
    utimesSync(join(dir, oldFile!), old, old);
    utimesSync(join(dir, 'notes.txt'), old, old);
    expect(pruneLastGood(dir, now)).toBe(1);
    expect(readLastGood(dir, `${SITEMAP}?part=old`)).toBeUndefined();
    expect(readLastGood(dir, SITEMAP)?.body).toBe('<urlset/>');
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    expect(pruneLastGood(join(dir, 'missing'), now)).toBe(0);
  });
});
