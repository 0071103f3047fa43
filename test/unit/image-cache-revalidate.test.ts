/**
 * The image cache against an image host that fails: copies past their freshness are kept (stale rather than
 * broken), and after a few failed revalidations in a row the build stops asking that host, so a blog whose image
 * host is down does not wait out images.timeoutMs for each of its thousands of images. Real HTTP on 127.0.0.1.
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheName, ImageCache } from '../../src/loader/images/image-cache.js';
import { encodePng } from '../../src/simulator/media.js';

const LIMITS = {
  maxBytes: 1_000_000,
  maxPixels: 1_000_000,
  maxDownloads: 100,
  maxPixelsPerBuild: 100_000_000,
  maxCacheBytes: 1_000_000_000,
  timeoutMs: 2_000,
  concurrency: 2,
};
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function host(answer: (url: string) => 'drop' | Buffer): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = answer(req.url ?? '');
    if (body === 'drop') return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A cache folder holding copies of `urls` written before the cache kept freshness records (so: stale). */
async function cacheWith(urls: string[], png: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acp-image-cache-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const url of urls) await writeFile(join(dir, `${cacheName(url)}.png`), png);
  return dir;
}

describe('ImageCache revalidation against a failing host', () => {
  it('keeps every copy, and stops asking the host after three failures in a row', async () => {
    const png = encodePng(Buffer.alloc(4 * 4 * 3, 90), 4, 4);
    const down = await host(() => 'drop');
    const urls = Array.from({ length: 12 }, (_, i) => `${down.url}/media/${i}.png`);
    const dir = await cacheWith(urls, png);
    const cache = new ImageCache(dir, LIMITS);
    await cache.open();
    await Promise.all(urls.map((url) => cache.revalidateIfStale(url)));
    expect(down.requests.length).toBeLessThanOrEqual(3 + LIMITS.concurrency);
    expect(cache.keptStale).toBe(12);
    for (const url of urls) await expect(cache.get(url)).resolves.toEqual({ file: `${cacheName(url)}.png` });
    expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toHaveLength(12);
  });

  it('a host that answers again is asked about each copy: the same bytes keep the name, and are recorded fresh', async () => {
    const png = encodePng(Buffer.alloc(4 * 4 * 3, 90), 4, 4);
    const up = await host(() => png);
    const urls = Array.from({ length: 5 }, (_, i) => `${up.url}/media/${i}.png`);
    const dir = await cacheWith(urls, png);
    const cache = new ImageCache(dir, LIMITS);
    await cache.open();
    await Promise.all(urls.map((url) => cache.revalidateIfStale(url)));
    expect(up.requests).toHaveLength(5);
    expect(cache.revalidated).toBe(5);
    expect(cache.replaced).toEqual([]);
    cache.save();
    // The host sent no caching header: the copies are stale again at once, and the next build asks again.
    const next = new ImageCache(dir, LIMITS);
    await next.open();
    await Promise.all(urls.map((url) => next.revalidateIfStale(url)));
    expect(up.requests).toHaveLength(10);
  });
});

describe('ImageCache revalidation within images.maxDownloads', () => {
  it('a no-cache host costs a build at most maxDownloads requests; the copies asked about longest ago go first', async () => {
    const png = encodePng(Buffer.alloc(4 * 4 * 3, 90), 4, 4);
    const up = await host(() => png);
    const urls = Array.from({ length: 10 }, (_, i) => `${up.url}/media/${i}.png`);
    const dir = await cacheWith(urls, png);
    const limits = { ...LIMITS, maxDownloads: 4 };
    let now = Date.UTC(2026, 10, 26);
    /** One build: the loader's order (images-step.ts), oldest check first. */
    const build = async () => {
      now += 60_000;
      const cache = new ImageCache(dir, limits, fetch, () => now);
      await cache.open();
      const before = up.requests.length;
      const order = [...urls].sort((a, b) => cache.checkedAt(a) - cache.checkedAt(b));
      await Promise.all(order.map((url) => cache.revalidateIfStale(url)));
      // Every copy is still served, asked about or not.
      for (const url of urls) await expect(cache.get(url)).resolves.toEqual({ file: `${cacheName(url)}.png` });
      cache.save();
      return { asked: up.requests.slice(before).map((path) => urls.indexOf(`${up.url}${path}`)), cache };
    };
    const first = await build();
    expect(first.asked).toHaveLength(4);
    expect(first.cache.revalidated).toBe(4);
    expect(first.cache.deferredChecks).toBe(6);
    const second = await build();
    const third = await build();
    // Never asked before, then the ones asked longest ago: all ten within three builds, none twice before that.
    expect(new Set([...first.asked, ...second.asked, ...third.asked.slice(0, 2)]).size).toBe(10);
    expect(third.asked.slice(2).every((i) => first.asked.includes(i))).toBe(true);
  });
});

describe('ImageCache: revalidations never keep a missing image from coming', () => {
  it('with maxDownloads spent on stale copies, images not yet downloaded still download', async () => {
    // Found in a second reading: revalidations counted against the downloads' bound, so once a store held
    // maxDownloads stale copies, the images deferred by the first build never came.
    const png = encodePng(Buffer.alloc(4 * 4 * 3, 90), 4, 4);
    const up = await host(() => png);
    const stale = [0, 1].map((i) => `${up.url}/media/stale-${i}.png`);
    const fresh = [0, 1].map((i) => `${up.url}/media/new-${i}.png`);
    const dir = await cacheWith(stale, png);
    const cache = new ImageCache(dir, { ...LIMITS, maxDownloads: 2 });
    await cache.open();
    await Promise.all(stale.map((url) => cache.revalidateIfStale(url)));
    expect(cache.revalidated).toBe(2);
    for (const url of fresh) await expect(cache.get(url)).resolves.toEqual({ file: `${cacheName(url)}.png` });
    expect(cache.downloaded).toEqual(fresh);
  });
});
