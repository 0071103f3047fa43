/**
 * A theme that sets `site` and `trailingSlash` from its own integration (AstroWind reads them from its config
 * file in its `astro:config:setup`), listed after publisher(): the integration reads them once the config is
 * final. Found by a trial on AstroWind: publisher() listed where @astrojs/sitemap was failed with "The Astro
 * config has no `site`", and listed first (with a `site` of its own) wrote the blog's pages with trailing slashes
 * on a site without them. Real builds of a small fixture.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AstroIntegration } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildSite, fixtureArticles, locsOf, removeBuilds } from '../fixtures/integration-helpers/index.js';

/** What such a theme's integration does. */
const theme: AstroIntegration = {
  name: 'theme-with-its-own-config',
  hooks: {
    'astro:config:setup': ({ updateConfig }) => {
      updateConfig({ site: 'https://late.example.com', trailingSlash: 'never' });
    },
  },
};

describe('site and trailingSlash set by a later integration', () => {
  let sim: Simulator;
  /** The articles' slugs: the blog builds a page for each. */
  let slugs: string[];
  beforeAll(async () => {
    sim = await startSimulator({ articles: 3 });
    const sitemap = await (await fetch(`${sim.url}/api/sites/12/sitemap.xml`)).text();
    slugs = locsOf(sitemap).map((loc) => new URL(loc).pathname.split('/')[2] ?? '');
  });
  afterAll(async () => {
    await sim.close();
    await removeBuilds();
  });

  it("the sitemap and the feed use the theme's site, and the blog's pages its trailing-slash rule", async () => {
    const outDir = await buildSite('integration-site', {
      integrations: [publisher({ siteId: 12, baseUrl: sim.url }), theme, fixtureArticles(slugs)],
    });
    const locs = locsOf(await readFile(join(outDir, 'sitemap.xml'), 'utf8'));
    expect(locs.length).toBeGreaterThan(3);
    expect(locs.every((loc) => loc.startsWith('https://late.example.com/'))).toBe(true);
    expect(locs.filter((loc) => loc !== 'https://late.example.com/' && loc.endsWith('/'))).toEqual([]);
    expect(await readFile(join(outDir, 'rss.xml'), 'utf8')).toContain('<link>https://late.example.com/blog/');
  });

  it('still fails, naming `site`, when no integration sets one', async () => {
    const failure = await buildSite('integration-site', {
      integrations: [publisher({ siteId: 12, baseUrl: sim.url }), fixtureArticles([])],
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain('The Astro config has no `site`');
  });
});
