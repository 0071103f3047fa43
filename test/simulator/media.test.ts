import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
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
