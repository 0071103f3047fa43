import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createMediaLibrary } from '../../src/simulator/media.js';
import { startSimulator } from '../../src/simulator/index.js';
import { call } from './helpers.js';
import { useSimulator } from './setup.js';

const sim = useSimulator();

async function fetchImage(path: string, headers: Record<string, string> = {}) {
  return fetch(`${sim().url}${path}`, { headers });
}

describe('simulator media (the service CDN)', () => {
  it("every image of an article's HTML and its featured image is a real picture of the declared size and type", async () => {
    const [first] = (await call(sim(), '/api/v1/sites/12/articles/')).json().results;
    const detail = (await call(sim(), `/api/v1/sites/12/articles/${first.slug}/`)).json();
    const srcs = [...(detail.content as string).matchAll(/<img src="([^"]+)" [^>]*width="(\d+)" height="(\d+)"/g)];
    expect(srcs.map((m) => m[1]?.split('.').at(-1))).toEqual(['jpg', 'png', 'webp']);
    const expected: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp' };
    for (const [, src, width, height] of [...srcs, [undefined, detail.featured_image, '640', '400']]) {
      expect(src).toMatch(new RegExp(`^${sim().url}/media/sites/12/`));
      const response = await fetch(src as string);
      expect(response.status).toBe(200);
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.format).toBe(expected[(src as string).split('.').at(-1) ?? '']);
      expect([meta.width, meta.height]).toEqual([Number(width), Number(height)]);
      expect(response.headers.get('content-type')).toBe(`image/${meta.format}`);
    }
  });

  it('answers a revalidation with 304, an unknown image with 404, and counts both under GET /media/*', async () => {
    const path = '/media/sites/12/any-slug/figure-1.jpg';
    const first = await fetchImage(path);
    const etag = first.headers.get('etag') ?? '';
    expect(first.headers.get('cache-control')).toContain('max-age=31536000');
    expect((await fetchImage(path, { 'if-none-match': etag })).status).toBe(304);
    expect((await fetchImage('/media/sites/12/any-slug/missing-1.jpg')).status).toBe(404);
    expect((await fetchImage('/media/sites/12/any-slug/figure-1.gif')).status).toBe(404);
    expect(sim().stats().routes['GET /media/*']).toEqual({ '200': 1, '304': 1, '404': 2 });
  });
});

describe('the images of every simulator of a process', () => {
  it('are made once and shared (a third of a second of CPU per simulator before): two simulators serve the same bytes', async () => {
    expect(await createMediaLibrary()).toBe(await createMediaLibrary());
    const other = await startSimulator();
    try {
      const path = '/media/sites/12/any-slug/figure-1.webp';
      const [mine, theirs] = await Promise.all(
        [sim().url, other.url].map(async (url) => Buffer.from(await (await fetch(`${url}${path}`)).arrayBuffer())),
      );
      expect(mine.length).toBeGreaterThan(100);
      expect(theirs.equals(mine)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('POST /__simulator/media (an image replaced under the same URL)', () => {
  const replace = (url: string) =>
    fetch(`${sim().url}/__simulator/media`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
  it('takes the image as an article stores it, names it when read back, or by its path; refuses anything else', async () => {
    const put = await fetch(`${sim().url}/__simulator/variants`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variants: { imageCaching: 'revalidate' } }),
    });
    expect(put.status).toBe(200);
    const path = '/media/sites/12/any-slug/figure-1.jpg';
    const before = Buffer.from(await (await fetchImage(path)).arrayBuffer());
    for (const [url, version] of [
      ['https://cdn.example.com/sites/12/any-slug/figure-1.jpg', 1],
      [`${sim().url}${path}`, 2],
      [path, 3],
    ] as const) {
      const response = await replace(url);
      expect(response.status, url).toBe(200);
      expect(await response.json()).toEqual({ path, version });
    }
    expect(Buffer.from(await (await fetchImage(path)).arrayBuffer()).equals(before)).toBe(false);
    const refused = await replace('https://elsewhere.example.com/figure-1.jpg');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('is not an image URL: give it as an article names it');
  });
});
