/**
 * Issue 37, finding 1: images.maxPixels bounds what Astro's image service will decode, as its decoder (sharp,
 * `pages: -1`) reads the body, not the header's size. A GIF's logical screen can say 1 x 1 while its first frame,
 * placed at (15999, 15999), makes libvips allocate 16000 x 16000; an animation's frames are all decoded.
 * The hostile bodies come from a real HTTP server on 127.0.0.1; nothing refused is cached.
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageCache } from '../../src/loader/images/image-cache.js';
import { framesGif, offsetGif, squareGif } from '../security/hostile-gifs.js';

const LIMITS = {
  maxBytes: 1_000_000,
  maxPixels: 40_000_000,
  maxDownloads: 100,
  maxPixelsPerBuild: 1_000_000_000,
  maxCacheBytes: 1_000_000_000,
  timeoutMs: 5_000,
  concurrency: 2,
};
const bodies = new Map<string, Buffer>();
let server: Server;
let base = '';
let dir = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/gif', 'content-length': body.length }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'acp-decode-bound-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function fetchOne(path: string, body: Buffer, limits = LIMITS) {
  bodies.set(path, body);
  const cache = new ImageCache(dir, limits);
  await cache.open();
  return cache.get(`${base}${path}`);
}

describe('images.maxPixels counts what the decoder decodes (issue 37, finding 1)', () => {
  it('a 35-byte GIF with a 1 x 1 screen and its frame at (15999, 15999) is refused as 16000 x 16000, not cached', async () => {
    const body = offsetGif();
    expect(body.length).toBeLessThan(50);
    const result = await fetchOne('/offset.gif', body);
    expect(result).toEqual({
      error:
        '16000 x 16000 pixels as the image decoder reads it (the header says 1 x 1), over images.maxPixels (40000000)',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('a 6 KB GIF of 268 frames of 1000 x 1000 is refused: every frame counts', async () => {
    const body = framesGif();
    expect(body.length).toBeLessThan(7_000);
    const result = await fetchOne('/frames.gif', body);
    expect(result).toEqual({
      error: '268 frames of 1000 x 1000 pixels (268000000 decoded), over images.maxPixels (40000000)',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('an animation within the bound, and a GIF whose header tells the truth, are cached as before', async () => {
    expect(await fetchOne('/short.gif', framesGif(30))).toHaveProperty('file');
    expect(await fetchOne('/square.gif', squareGif(2000))).toHaveProperty('file');
    expect(await fetchOne('/too-big.gif', squareGif(7000))).toEqual({
      error: '7000 x 7000 pixels, over images.maxPixels (40000000)',
    });
  });
});

describe('images.maxPixelsPerBuild (issue 37, finding 2)', () => {
  it('a build writes copies until the budget is spent; the rest stay remote, unwritten, and come in the next build', async () => {
    const paths = Array.from({ length: 5 }, (_, i) => `/budget-${i}.gif`);
    for (const path of paths) bodies.set(path, squareGif(2000));
    const own = await mkdtemp(join(tmpdir(), 'acp-decode-budget-'));
    try {
      const limits = { ...LIMITS, maxPixelsPerBuild: 10_000_000 };
      const build = async () => {
        const cache = new ImageCache(own, limits);
        await cache.open();
        const results = [];
        // One at a time: which images fit is then the order they come in.
        for (const path of paths) results.push(await cache.get(`${base}${path}`));
        return { cache, results };
      };
      const first = await build();
      expect(first.results.map((r) => ('file' in r ? 'file' : r))).toEqual([
        'file',
        'file',
        { deferred: 'pixels' },
        { deferred: 'pixels' },
        { deferred: 'pixels' },
      ]);
      expect(first.cache.bounds.decodedPixels).toBe(8_000_000);
      expect(first.cache.bounds.overBudget.map((o) => o.pixels)).toEqual([4_000_000, 4_000_000, 4_000_000]);
      expect((await readdir(own)).filter((f) => f.endsWith('.gif'))).toHaveLength(2);
      const second = await build();
      expect(second.cache.reused).toBe(0); // no caching header: the first two are asked again (same bytes)
      expect(second.results.filter((r) => 'file' in r)).toHaveLength(4);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
