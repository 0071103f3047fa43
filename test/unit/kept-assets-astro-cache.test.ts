/**
 * A page kept by an incremental build names resized images of an earlier build: when this build generated them
 * under another name (Vite wrote two originals of equal bytes once, under the name that sorts first, and which
 * name that is changes as articles come and go), the output lacks them. They are copied back from Astro's own
 * image cache (`<cacheDir>/assets/`, one file per output name), found by a trial on AstroWind, whose kept pages
 * pointed at `.webp` files missing from dist build after build. Real files in a temporary output.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assetLocation } from '../../src/integration/build/asset-refs.js';
import { keepNamedAssets } from '../../src/integration/build/kept-assets.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const location = assetLocation({ site: 'https://blog.example.com', base: '/', build: { assets: '_astro' } });
const KEPT = 'a1b2.DD7cgeQP_OIIvz.webp';
const RENDERED = '0c9d.DD7cgeQP_OIIvz.webp';

async function site(cachedNames: string[]) {
  const root = await mkdtemp(join(tmpdir(), 'acp-kept-assets-'));
  dirs.push(root);
  const out = join(root, 'dist');
  const cache = join(root, 'cache', 'assets');
  await mkdir(join(out, '_astro'), { recursive: true });
  await mkdir(join(out, 'kept'), { recursive: true });
  await mkdir(join(out, 'fresh'), { recursive: true });
  await mkdir(cache, { recursive: true });
  await writeFile(join(out, '_astro', RENDERED), 'webp of this build');
  await writeFile(join(out, 'fresh', 'index.html'), `<img src="/_astro/${RENDERED}" alt="">`);
  await writeFile(
    join(out, 'kept', 'index.html'),
    `<img src="/_astro/${KEPT}" alt=""><img src="https://blog.example.com/_astro/made-up.png" alt="">`,
  );
  for (const name of cachedNames) {
    await writeFile(join(cache, name), `cached ${name}`);
    await writeFile(join(cache, `${name}.json`), '{}');
  }
  return { out, cache, imagesDir: join(root, 'images') };
}

describe("keepNamedAssets: generated images from Astro's image cache", () => {
  it("a kept page's resized image is copied back from the cache; a name the cache lacks is left alone", async () => {
    const { out, cache, imagesDir } = await site([KEPT, RENDERED]);
    // This build wrote the bytes of both originals once, under the name that sorts first.
    const emitted = [{ file: '0c9d.DD7cgeQP.jpg', sources: ['0c9d.jpg', 'a1b2.jpg'] }];
    await writeFile(join(out, '_astro', '0c9d.DD7cgeQP.jpg'), 'jpg');
    const kept = await keepNamedAssets(pathToFileURL(`${out}/`), '_astro', location, emitted, imagesDir, cache);
    expect(kept.copied).toEqual([{ to: KEPT, from: { astroCache: KEPT }, page: 'kept/index.html' }]);
    expect(await readFile(join(out, '_astro', KEPT), 'utf8')).toBe(`cached ${KEPT}`);
    expect(existsSync(join(out, '_astro', 'made-up.png'))).toBe(false);
    expect(existsSync(join(out, '_astro', `${KEPT}.json`))).toBe(false);
  });

  it('a generated image named after an original that left the build, of bytes it still has, is copied too', async () => {
    // An unpublished article gave the bytes their name in the earlier build (the AstroWind trial's second case).
    const { out, cache, imagesDir } = await site([KEPT]);
    const emitted = [{ file: '0c9d.DD7cgeQP.jpg', sources: ['0c9d.jpg'] }];
    await writeFile(join(out, '_astro', '0c9d.DD7cgeQP.jpg'), 'jpg');
    const kept = await keepNamedAssets(pathToFileURL(`${out}/`), '_astro', location, emitted, imagesDir, cache);
    expect(kept.copied.map((copy) => copy.to)).toEqual([KEPT]);
  });

  it("a generated image of bytes this build does not have is no page's: not copied, pages not read", async () => {
    const { out, cache, imagesDir } = await site([KEPT]);
    const other = [{ file: '77aa.Xy12Ab34.jpg', sources: ['77aa.jpg'] }];
    await writeFile(join(out, '_astro', '77aa.Xy12Ab34.jpg'), 'jpg');
    expect(await keepNamedAssets(pathToFileURL(`${out}/`), '_astro', location, other, imagesDir, cache)).toEqual({
      copied: [],
      missing: [],
    });
  });

  it('without the cache (or with nothing there that the output lacks) the pages are not read and nothing is written', async () => {
    const { out, imagesDir } = await site([RENDERED]);
    const none = await keepNamedAssets(pathToFileURL(`${out}/`), '_astro', location, [], imagesDir, join(out, 'none'));
    expect(none).toEqual({ copied: [], missing: [] });
    expect(existsSync(join(out, '_astro', KEPT))).toBe(false);
  });
});
