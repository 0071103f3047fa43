/**
 * Issue 37, finding 3: the image cache does not grow without bound. An image host that answers `no-cache` and
 * other bytes on every request (a real HTTP server on 127.0.0.1) makes each build replace every copy; the copies
 * no stored entry names are removed, so the cache holds one copy per image after three builds, as after one.
 * And images.maxCacheBytes bounds the whole folder: past it an image stays remote with the build's warning.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../src/simulator/media.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, isolatedSite, readTree } from '../astro/loader-harness.js';

let sim: Simulator;
let server: Server;
let base = '';
const env = () => ({ PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro });

/** Bytes and files of the loader's image cache (its copies only, not its records). */
async function cacheSize(cacheDir: string): Promise<{ bytes: number; files: number }> {
  const dir = join(cacheDir, 'astro-content-publisher', 'images');
  const names = (await readdir(dir)).filter((n) => /\.(png|gif|jpg|webp|avif)$/.test(n));
  const sizes = await Promise.all(names.map(async (n) => (await stat(join(dir, n))).size));
  return { bytes: sizes.reduce((a, b) => a + b, 0), files: names.length };
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 1, rateLimitOverride: 100_000 });
  // Every request: a new 200 x 150 PNG of noise (about 90 KB, incompressible), `no-cache`, no validator.
  server = createServer((_req, res) => {
    const body = encodePng(randomBytes(200 * 150 * 3), 200, 150);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length, 'cache-control': 'no-cache' });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await sim?.close();
});

async function publish(slug: string, count: number): Promise<{ sources: string[]; unpublish: () => Promise<unknown> }> {
  const sources = Array.from({ length: count }, (_, i) => `${base}/media/${slug}-${i}.png`);
  const imgs = sources.map((src, i) => `<img src="${src}" alt="figure ${i}" width="200" height="150">`).join('');
  await admin(sim.url, 'POST', 'articles', { site: 12, slug, title: slug, content: `<p>Figures.</p>${imgs}` });
  return { sources, unpublish: () => admin(sim.url, 'DELETE', `articles/12/${slug}`) };
}

describe('the image cache stays bounded (issue 37, finding 3)', () => {
  it('new bytes under the same URLs on every build: after three builds the cache holds what it held after one', async () => {
    const { unpublish } = await publish('changing-images', 4);
    // A copy of the fixture of its own: builds of one root share its .astro/ (the content layer's image imports).
    const dirs = await isolatedSite('images-site', 'img-growth');
    try {
      const sizes = [];
      for (let i = 0; i < 3; i += 1) {
        const result = await buildFixture({ ...dirs, env: env() });
        expect(result.error).toBeUndefined();
        if (i > 0) expect(result.logs).toContain('4 replaced under the same URL');
        sizes.push(await cacheSize(dirs.cacheDir));
      }
      console.log(`image cache after each build: ${JSON.stringify(sizes)}`);
      // The four changing images (about 360 KB) and the simulator's own: the same number of files each time.
      expect(sizes[2]!.files).toBe(sizes[0]!.files);
      expect(sizes[2]!.bytes).toBeLessThan(sizes[0]!.bytes * 1.1);
      // And the page names copies that exist: it shows the newest bytes, optimised.
      const page = (await readTree(dirs.outDir)).get('blog/changing-images/index.html') ?? '';
      expect(page).not.toContain(base);
    } finally {
      await unpublish();
      await dirs.cleanup();
    }
  }, 240_000);
});
