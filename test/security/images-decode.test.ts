/**
 * Issue 37, findings 1 and 2: what Astro's image service decodes in a build is bounded, per image as its decoder
 * reads the body (a GIF's frames can grow the canvas past its header's size, and every frame of an animation is
 * decoded) and per build (images.maxPixelsPerBuild). Hostile GIFs from a real HTTP server, real `astro build`s
 * in their own process (peak memory is the point).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, isolatedSite, readTree } from '../astro/loader-harness.js';
import { framesGif, offsetGif, squareGif } from './hostile-gifs.js';
import { buildInChild, goodPng, startImageServer, type ImageServer } from './hostile-images.js';

let sim: Simulator;
let images: ImageServer;
const env = () => ({ PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro });

/** Publishes an article naming `sources`; the returned function unpublishes it. */
async function publish(slug: string, sources: string[]): Promise<() => Promise<unknown>> {
  const imgs = sources.map((src, i) => `<img src="${src}" alt="figure ${i}" width="640" height="400">`).join('');
  await admin(sim.url, 'POST', 'articles', { site: 12, slug, title: slug, content: `<p>Figures.</p>${imgs}` });
  return () => admin(sim.url, 'DELETE', `articles/12/${slug}`);
}

beforeAll(async () => {
  sim = await startSimulator({ articles: 1, rateLimitOverride: 100_000 });
  images = await startImageServer();
});
afterAll(async () => {
  await images?.close();
  await sim?.close();
});

describe('images.maxPixels against the decoder (issue 37, finding 1)', () => {
  it('a 35-byte GIF that sharp decodes as 16000 x 16000 and a 6 KB GIF of 268 frames stay remote with one warning; the build never holds the canvas', async () => {
    images.bodies.set('/offset.gif', offsetGif());
    images.bodies.set('/frames.gif', framesGif());
    images.bodies.set('/good.png', goodPng());
    const sources = ['/offset.gif', '/frames.gif', '/good.png'].map((p) => `${images.url}${p}`);
    const unpublish = await publish('hostile-gifs', sources);
    // A copy of the fixture of its own: builds of one root share its .astro/ (the content layer's image imports).
    const dirs = await isolatedSite('images-site', 'img-gif');
    try {
      const result = await buildInChild(dirs.root, dirs, env());
      console.log(`hostile GIFs build: ${JSON.stringify({ ...result, logs: undefined })}`);
      expect(result.error).toBeUndefined();
      const warnings = result.logs.split('\n').filter((l) => l.includes('could not be fetched'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('2 article image(s) could not be fetched');
      expect(warnings[0]).toMatch(
        /16000 x 16000 pixels as the image decoder reads it \(the header says 1 x 1\)|268 frames of 1000 x 1000 pixels/,
      );
      const page = (await readTree(dirs.outDir)).get('blog/hostile-gifs/index.html') ?? '';
      expect(page).toContain(`src="${sources[0]}"`);
      expect(page).toContain(`src="${sources[1]}"`);
      expect(page).not.toContain(`src="${sources[2]}"`);
      // A decoded 16000 x 16000 canvas is 1 GiB of RGBA on its own: the build peaked at 1.6 to 1.9 GB before the
      // fix. Without it the build peaks at 480 to 540 MB alone, up to 930 MB beside the suite's other builds
      // (Rolldown's threads), so the bound sits between the two.
      expect(result.maxRssMb).toBeLessThan(1300);
    } finally {
      await unpublish();
      await dirs.cleanup();
    }
  }, 180_000);
});

describe('images.maxPixelsPerBuild (issue 37, finding 2)', () => {
  it('four GIFs of 2500 x 2500 against a 10 MP budget: one is optimised, three stay remote with one warning naming the option; the next build brings one more', async () => {
    const sources = [0, 1, 2, 3].map((i) => `${images.url}/budget-${i}.gif`);
    for (const src of sources) images.bodies.set(new URL(src).pathname, squareGif(2500));
    const unpublish = await publish('budget-gifs', sources);
    const dirs = await isolatedSite('images-site', 'img-budget');
    const build = () => buildFixture({ ...dirs, env: { ...env(), IMAGES_TEST_MAX_PIXELS_PER_BUILD: '10000000' } });
    const remote = async () => {
      const page = (await readTree(dirs.outDir)).get('blog/budget-gifs/index.html') ?? '';
      return sources.filter((src) => page.includes(`src="${src}"`)).length;
    };
    try {
      const first = await build();
      expect(first.error).toBeUndefined();
      const warnings = first.logs.split('\n').filter((l) => l.includes('images.maxPixelsPerBuild'));
      // One warning; what was decoded includes the simulator's own article images (640 x 400 each).
      expect(warnings.filter((l) => l.includes('[WARN]'))).toHaveLength(1);
      expect(first.logs).toMatch(
        /3 article image\(s\) left remote in this build: decoding them would pass images.maxPixelsPerBuild \(10 MP; [\d.]+ MP decoded for the images localised, first left: 6.3 MP from 127.0.0.1:\d+\)/,
      );
      expect(first.logs).toContain('raise images.maxPixelsPerBuild in articlesLoader({ images })');
      expect(await remote()).toBe(3);
      const second = await build();
      expect(second.error).toBeUndefined();
      expect(await remote()).toBe(2);
    } finally {
      await unpublish();
      await dirs.cleanup();
    }
  }, 180_000);
});
