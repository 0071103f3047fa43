/**
 * The integration adds the service's own origin to Astro's image.remotePatterns: a site without
 * `image.domains` gets optimised article and featured images; `allowServiceImages: false` opts out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceImagePatterns } from '../../src/integration/options/image-hosts.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildFixture, fixtureRoot, readTree, tempDirs } from './loader-harness.js';

const root = fixtureRoot('images-auto-site');
const MEDIA = 'GET /media/*';
let sim: Simulator;
const env = (extra: Record<string, string> = {}) => ({
  PUBLISHER_SITE_ID: '12',
  PUBLISHER_BASE_URL: sim.url,
  PUBLISHER_API_KEY: sim.tokens.pro,
  ...extra,
});
const imgTags = (html: string) => html.match(/<img\b[^>]*>/g) ?? [];

beforeAll(async () => {
  sim = await startSimulator({ articles: 2, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
});

describe("integration: the service's images allowed without image.domains", () => {
  it("a fixture without image.domains gets Astro-optimised images from the service's /media/", async () => {
    const dirs = await tempDirs('images-auto', root);
    try {
      const result = await buildFixture({ root, outDir: dirs.outDir, cacheDir: dirs.cacheDir, env: env() });
      expect(result.error).toBeUndefined();
      expect(result.logs).toContain('images: 8 downloaded, 0 cached');
      expect(result.logs).not.toContain('not in image.domains');
      expect(sim.stats().routes[MEDIA]?.['200']).toBe(8);
      const pages = [...(await readTree(dirs.outDir))].filter(
        ([path]) => path.startsWith('blog/') && path.endsWith('.html'),
      );
      expect(pages).toHaveLength(2);
      for (const [, html] of pages) {
        const tags = imgTags(html);
        expect(tags).toHaveLength(4);
        for (const tag of tags) {
          expect(tag).toMatch(/ src="\/_astro\/[^"]+\.webp"/);
          expect(tag).toMatch(/ srcset="[^"]*\/_astro\/[^"]+ \d+w/);
          expect(tag).not.toContain(sim.url);
        }
      }
    } finally {
      await dirs.cleanup();
    }
  });

  it('allowServiceImages: false: nothing is fetched, every image keeps its remote URL (counted in the summary)', async () => {
    const dirs = await tempDirs('images-auto-off', root);
    try {
      sim.resetStats();
      const result = await buildFixture({
        root,
        outDir: dirs.outDir,
        cacheDir: dirs.cacheDir,
        env: env({ IMAGES_AUTO_OFF: '1' }),
      });
      expect(result.error).toBeUndefined();
      expect(result.logs).toContain('8 from hosts not in image.domains/remotePatterns left remote');
      expect(sim.stats().routes[MEDIA]).toBeUndefined();
      const pages = [...(await readTree(dirs.outDir))].filter(
        ([path]) => path.startsWith('blog/') && path.endsWith('.html'),
      );
      for (const [, html] of pages) for (const tag of imgTags(html)) expect(tag).toContain(`src="${sim.url}/media/`);
    } finally {
      await dirs.cleanup();
    }
  });
});

describe('serviceImagePatterns', () => {
  it('the exact origin (protocol, host, port), nothing when opted out or already allowed', () => {
    expect(serviceImagePatterns('http://127.0.0.1:4321', true, {})).toEqual([
      { protocol: 'http', hostname: '127.0.0.1', port: '4321' },
    ]);
    expect(serviceImagePatterns('https://service.example.com', true, {})).toEqual([
      { protocol: 'https', hostname: 'service.example.com', port: '443' },
    ]);
    expect(serviceImagePatterns('https://service.example.com', false, {})).toEqual([]);
    expect(serviceImagePatterns('https://service.example.com', true, { domains: ['service.example.com'] })).toEqual([]);
    expect(
      serviceImagePatterns('https://service.example.com', true, {
        remotePatterns: [{ protocol: 'https', hostname: 'service.example.com' }],
      }),
    ).toEqual([]);
    // A narrower pattern of the user's does not cover the media path: ours is still added.
    expect(
      serviceImagePatterns('https://service.example.com', true, {
        remotePatterns: [{ hostname: 'service.example.com', pathname: '/api/**' }],
      }),
    ).toHaveLength(1);
  });
});
