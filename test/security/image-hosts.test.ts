/**
 * Issue 21, finding 6: the pattern the integration adds for the service's images names the service's port,
 * so no other port of the same host is fetched at build time (the loader's matcher) or proxied by Astro's
 * `/_image` (Astro's own matcher), also when the service is on its protocol's default port.
 */
import { isRemoteAllowed } from '@astrojs/internal-helpers/remote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedImageUrl } from '../../src/html/images.js';
import { serviceImagePatterns } from '../../src/integration/options/image-hosts.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, fixtureRoot, readTree, tempDirs } from '../astro/loader-harness.js';
import { goodPng, startImageServer, type ImageServer } from './hostile-images.js';

describe('the service image pattern names its port (issue 21: 6)', () => {
  for (const origin of [
    'https://service.example.com',
    'http://service.example.com',
    'https://service.example.com:8443',
  ]) {
    it(`${origin}: only that port of the host is allowed, by the loader's and by Astro's matcher`, () => {
      const remotePatterns = serviceImagePatterns(origin, true, {});
      expect(remotePatterns).toHaveLength(1);
      expect(remotePatterns[0]!.port).toMatch(/^\d+$/);
      const own = `${origin}/media/sites/12/a/figure-1.jpg`;
      const otherPort = `${new URL(origin).protocol}//service.example.com:6379/media/x.jpg`;
      expect(isAllowedImageUrl(own, { remotePatterns })).toBe(true);
      expect(isAllowedImageUrl(otherPort, { remotePatterns })).toBe(false);
      expect(isRemoteAllowed(otherPort, { domains: [], remotePatterns })).toBe(false);
    });
  }

  describe('a real build: an image on another port of the service host is not fetched', () => {
    let sim: Simulator;
    let other: ImageServer;
    beforeAll(async () => {
      sim = await startSimulator({ articles: 1, rateLimitOverride: 100_000 });
      other = await startImageServer();
      other.bodies.set('/internal.png', goodPng());
    });
    afterAll(async () => {
      await other?.close();
      await sim?.close();
    });

    it('127.0.0.1:<service port> is allowed, 127.0.0.1:<another port> stays remote and gets no request', async () => {
      const root = fixtureRoot('images-auto-site');
      const dirs = await tempDirs('img-port', root);
      try {
        const src = `${other.url}/internal.png`;
        await admin(sim.url, 'POST', 'articles', {
          site: 12,
          slug: 'other-port',
          title: 'Other port',
          content: `<p>x</p><img src="${src}" alt="internal" width="64" height="48">`,
        });
        const result = await buildFixture({
          root,
          outDir: dirs.outDir,
          cacheDir: dirs.cacheDir,
          env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro },
        });
        expect(result.error).toBeUndefined();
        expect(other.hits.get('/internal.png')).toBeUndefined();
        expect(result.logs).toContain('1 from hosts not in image.domains/remotePatterns left remote');
        const html = (await readTree(dirs.outDir)).get('blog/other-port/index.html') ?? '';
        expect(html).toContain(`src="${src}"`);
        expect(html).toMatch(/src="\/_astro\/[^"]+\.webp"/);
      } finally {
        await dirs.cleanup();
      }
    });
  });
});
