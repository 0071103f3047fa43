import { describe, expect, it } from 'vitest';
import {
  assetLocation,
  assetNamesIn,
  contentSuffix,
  namesOfBytes,
  planAssetCopies,
  type EmittedAsset,
} from '../../src/integration/build/asset-refs.js';

const config = { site: 'https://blog.example.com', base: '/', build: { assets: '_astro' } };
const location = assetLocation(config);
const page = 'https://blog.example.com/en/blog/a2/';

describe('assetLocation', () => {
  it("the site's assets folder, under base, and each assetsPrefix", () => {
    expect(location).toEqual({
      siteRoot: 'https://blog.example.com/',
      prefixes: ['https://blog.example.com/_astro/'],
      marker: '/_astro/',
    });
    expect(
      assetLocation({
        site: 'https://blog.example.com/ignored/',
        base: '/blog',
        build: {
          assets: 'assets',
          assetsPrefix: { fallback: 'https://cdn.example.com', css: 'https://css.example.com/' },
        },
      }),
    ).toEqual({
      siteRoot: 'https://blog.example.com/blog/',
      prefixes: [
        'https://blog.example.com/blog/assets/',
        'https://cdn.example.com/assets/',
        'https://css.example.com/assets/',
      ],
      marker: '/assets/',
    });
  });
});

describe('assetNamesIn', () => {
  it('names in og:image, src and srcset: absolute, root-relative and relative', () => {
    const html = [
      '<meta property="og:image" content="https://blog.example.com/_astro/a.DrH4rFZq.jpg">',
      '<img src="/_astro/b.DrH4rFZq_Z1.webp" srcset="/_astro/b.DrH4rFZq_Z1.webp 320w, ../../../_astro/c.X1y2Z3w4.webp 640w">',
      '<link rel="stylesheet" href="/_astro/index.Ab12Cd34.css">',
    ].join('');
    expect(assetNamesIn(html, page, location).sort()).toEqual([
      'a.DrH4rFZq.jpg',
      'b.DrH4rFZq_Z1.webp',
      'c.X1y2Z3w4.webp',
      'index.Ab12Cd34.css',
    ]);
  });

  it('not in text, not on other hosts, not below the folder, never a way out of it', () => {
    const html = [
      '<p>Astro writes /_astro/x.Ab12Cd34.js and https://blog.example.com/_astro/y.Ab12Cd34.js</p>',
      '<code>&lt;img src="/_astro/z.Ab12Cd34.jpg"&gt;</code>',
      '<img src="https://other.example.com/_astro/o.Ab12Cd34.jpg">',
      '<img src="/_astro/sub/s.Ab12Cd34.jpg">',
      '<img src="/_astro/..%2F..%2Fsecret.Ab12Cd34.jpg">',
      '<img src="/_astro/%2e%2e.Ab12Cd34.jpg">',
      '<img src="/_astro/bad%zz.jpg">',
    ].join('');
    expect(assetNamesIn(html, page, location)).toEqual([]);
  });
});

describe('planAssetCopies', () => {
  // Vite wrote a2's featured image and a1's new image (equal bytes) once, under the name that sorts first.
  const twin: EmittedAsset = { file: '12bc.DrH4rFZq.jpg', sources: ['12bc.jpg', 'c98e.jpg'] };
  const other: EmittedAsset = { file: '3f01.DMhOLvqC.jpg', sources: ['3f01.jpg'] };

  it('every name the bytes of one written file could have had', () => {
    expect(contentSuffix('c98e.DrH4rFZq.jpg')).toBe('.DrH4rFZq.jpg');
    expect(contentSuffix('plain.jpg')).toBeUndefined();
    expect(namesOfBytes(twin)).toEqual(['12bc.DrH4rFZq.jpg', 'c98e.DrH4rFZq.jpg']);
    // A custom assetFileNames (no `<name>.<hash>.<ext>`): nothing is guessed.
    expect(namesOfBytes({ file: 'img-DrH4rFZq.jpg', sources: ['a.jpg'] })).toEqual([]);
  });

  it("a kept page's name gets the file Vite wrote, or its source when Astro deleted it", () => {
    const named = ['c98e.DrH4rFZq.jpg', '3f01.DMhOLvqC.jpg'];
    const kept = planAssetCopies(named, new Set(['12bc.DrH4rFZq.jpg', '3f01.DMhOLvqC.jpg']), [twin, other], () => true);
    expect(kept).toEqual({ copies: [{ to: 'c98e.DrH4rFZq.jpg', from: { output: '12bc.DrH4rFZq.jpg' } }], missing: [] });
    const deleted = planAssetCopies(named, new Set(['3f01.DMhOLvqC.jpg']), [twin, other], (s) => s === 'c98e.jpg');
    expect(deleted).toEqual({ copies: [{ to: 'c98e.DrH4rFZq.jpg', from: { source: 'c98e.jpg' } }], missing: [] });
    expect(planAssetCopies(named, new Set(), [twin, other], () => false)).toEqual({
      copies: [],
      missing: ['c98e.DrH4rFZq.jpg', '3f01.DMhOLvqC.jpg'],
    });
  });

  it('a name an earlier build gave the bytes, after an image that left the build, gets the file Vite wrote', () => {
    // Built before with a source "0a1f.jpg" of these bytes, which sorted first; its article dropped the image.
    const kept = ['0a1f.DrH4rFZq.jpg', '0a1f.AAAAAAAA.jpg', 'absent.DrH4rFZq.jpg', '0a1f.DrH4rFZq.png'];
    const inCache = (source: string) => source === '0a1f.jpg';
    expect(planAssetCopies(kept, new Set(['12bc.DrH4rFZq.jpg']), [twin], () => false, inCache)).toEqual({
      copies: [{ to: '0a1f.DrH4rFZq.jpg', from: { output: '12bc.DrH4rFZq.jpg' } }],
      missing: [],
    });
    // Astro deleted the file Vite wrote: one of its sources, else the image that left.
    expect(planAssetCopies(kept, new Set(), [twin], (s) => s === 'c98e.jpg', inCache).copies).toEqual([
      { to: '0a1f.DrH4rFZq.jpg', from: { source: 'c98e.jpg' } },
    ]);
    expect(planAssetCopies(kept, new Set(), [twin], inCache, inCache).copies).toEqual([
      { to: '0a1f.DrH4rFZq.jpg', from: { source: '0a1f.jpg' } },
    ]);
    // Without that image in the loader's cache, the name is no file of this build's.
    expect(planAssetCopies(kept, new Set(['12bc.DrH4rFZq.jpg']), [twin], () => true)).toEqual({
      copies: [],
      missing: [],
    });
  });

  it('nothing for names no file of this build holds, nor for names that are there', () => {
    const named = ['made-up.DrH4rFZq.jpg', 'c98e.AAAAAAAA.jpg', 'gone.Zz9Yy8Xx.png', '12bc.DrH4rFZq.jpg'];
    expect(planAssetCopies(named, new Set(['12bc.DrH4rFZq.jpg']), [twin], () => true)).toEqual({
      copies: [],
      missing: [],
    });
  });
});
