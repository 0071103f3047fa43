/**
 * Issue 37, finding 3: which copies the image cache deletes as a build ends (a pure decision), and
 * images.maxCacheBytes against a real HTTP server on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImageCache } from '../../src/loader/images/image-cache.js';
import { copiesToRemove, pruneCopies } from '../../src/loader/images/image-cache-prune.js';
import { encodePng } from '../../src/simulator/media.js';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const isCopy = (name: string) => /^[0-9a-f]{32}(?:-[0-9a-f]{12})?\.[a-z0-9]+$/.test(name);

describe('copiesToRemove', () => {
  const since = 1_000_000;
  const old = since - 1;
  it('removes the copies no collection names, older than the build', () => {
    const files = [
      { name: `${A}.png`, mtimeMs: old }, // replaced: the entry names the new copy
      { name: `${A}-0123456789ab.png`, mtimeMs: old },
      { name: `${B}.jpg`, mtimeMs: old }, // another collection's
      { name: `${'c'.repeat(32)}.webp`, mtimeMs: since + 5 }, // written or used in this build
      { name: 'freshness.json', mtimeMs: old },
      { name: `${A}.png.123.tmp`, mtimeMs: old },
    ];
    const records = {
      articles: { at: since, names: [`${A}-0123456789ab.png`] },
      news: { at: since, names: [`${B}.jpg`] },
    };
    expect(copiesToRemove(files, records, since, isCopy)).toEqual([`${A}.png`]);
  });
});

describe('pruneCopies', () => {
  it("keeps an unnamed copy of a named copy's bytes that sorts before it (a kept page may name Vite's file after it)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acp-prune-'));
    try {
      const same = randomBytes(500);
      const files = { [`${A}.png`]: same, [`${B}.png`]: same, [`${'c'.repeat(32)}.png`]: randomBytes(500) };
      const old = new Date(Date.now() - 60_000);
      for (const [name, bytes] of Object.entries(files)) {
        await writeFile(join(dir, name), bytes);
        await utimes(join(dir, name), old, old);
      }
      const removed = pruneCopies(dir, 'articles', new Set([`${B}.png`]), Date.now(), isCopy);
      expect(removed).toEqual([{ name: `${'c'.repeat(32)}.png`, size: 500 }]);
      expect((await readdir(dir)).filter(isCopy).sort()).toEqual([`${A}.png`, `${B}.png`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('images.maxCacheBytes', () => {
  it('past the bound a download is refused with a reason naming the option; nothing more is written', async () => {
    const server: Server = createServer((_req, res) => {
      const body = encodePng(randomBytes(200 * 150 * 3), 200, 150);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length }).end(body);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = await mkdtemp(join(tmpdir(), 'acp-cache-bytes-'));
    try {
      const limits = {
        maxBytes: 1_000_000,
        maxPixels: 1_000_000,
        maxDownloads: 100,
        maxPixelsPerBuild: 100_000_000,
        maxCacheBytes: 250_000,
        timeoutMs: 5_000,
        concurrency: 1,
      };
      const cache = new ImageCache(dir, limits);
      await cache.open();
      const results = [];
      for (let i = 0; i < 4; i += 1) results.push(await cache.get(`${base}/${i}.png`));
      expect(results.filter((r) => 'file' in r)).toHaveLength(2);
      expect(results.slice(2)).toEqual([
        {
          error:
            'the image cache holds 0.2 MiB, at images.maxCacheBytes (0.2 MiB); raise it for a blog with this many images',
        },
        {
          error:
            'the image cache holds 0.2 MiB, at images.maxCacheBytes (0.2 MiB); raise it for a blog with this many images',
        },
      ]);
      expect((await readdir(dir)).filter(isCopy)).toHaveLength(2);
      expect(cache.bounds.totalBytes).toBeLessThanOrEqual(250_000);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
