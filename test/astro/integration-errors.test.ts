import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import publisher, { type PublisherOptions } from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildSite, removeBuilds, XXE_DIR } from '../fixtures/integration-helpers/index.js';

/** The build's rejection, for assertions on its class, message and hint. */
async function buildError(
  options: unknown,
  site: string | null = 'https://blog.example.com',
): Promise<Error & { hint?: string }> {
  try {
    await buildSite('integration-minimal', {
      ...(site ? { site } : {}),
      integrations: [publisher(options as PublisherOptions)],
    });
  } catch (error) {
    return error as Error & { hint?: string };
  }
  throw new Error('the build succeeded');
}

describe('integration, option errors fail the build with an AstroError naming the option', () => {
  const base = { siteId: 12, baseUrl: 'http://127.0.0.1:9' };

  it('site: missing in the Astro config', async () => {
    const error = await buildError(base, null);
    expect(error.name).toBe('AstroUserError');
    expect(error.message).toContain('has no `site`');
    expect(error.hint).toContain('site: "https://your-blog.example.com"');
  });

  it('sitemap.maxUrlsPerFile: above the protocol limit', async () => {
    const error = await buildError({ ...base, sitemap: { maxUrlsPerFile: 60_000 } });
    expect(error.name).toBe('AstroUserError');
    expect(error.message).toContain('`sitemap.maxUrlsPerFile` must be at most 50000');
  });

  it('unknown option: named with its path', async () => {
    const error = await buildError({ ...base, sitemap: { pth: '/map.xml' } });
    expect(error.message).toContain('Unknown option `sitemap.pth`');
  });

  it('siteId: not a number', async () => {
    const error = await buildError({ ...base, siteId: 'abc' });
    expect(error.message).toContain('`siteId` must be a positive integer (got "abc")');
  });

  it('articlePattern: without [slug]', async () => {
    const error = await buildError({ ...base, articlePattern: '/posts/' });
    expect(error.message).toContain('`articlePattern` must start with "/", contain "[slug]" exactly once');
  });
});

describe('integration, a hostile or broken upstream fails the static build with the URL and the reason', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ articles: 5 });
  });
  afterEach(async () => {
    await admin(sim.url, 'DELETE', 'faults');
  });
  afterAll(async () => {
    await sim.close();
    await removeBuilds();
  });

  const cases: Array<[string, string, () => Promise<string>]> = [
    [
      'sitemap with entity expansion (billion laughs)',
      'sitemap',
      () => readFile(join(XXE_DIR, 'mxml-billion-laughs.xml'), 'utf8'),
    ],
    [
      'sitemap with an external entity',
      'sitemap',
      () => readFile(join(XXE_DIR, 'patt-classic-xxe-etc-passwd.xml'), 'utf8'),
    ],
    ['sitemap as an HTML error page', 'sitemap', async () => 'html'],
    ['RSS truncated', 'rss', async () => 'truncated'],
    ['RSS with an external entity', 'rss', () => readFile(join(XXE_DIR, 'defusedxml-external.xml'), 'utf8')],
  ];
  for (const [name, feed, body] of cases) {
    it(name, async () => {
      await admin(sim.url, 'POST', 'faults', { route: `GET /api/sites/:id/${feed}.xml`, body: await body() });
      const error = await buildError({ siteId: 12, baseUrl: sim.url });
      expect(error.message).toContain(`${sim.url}/api/sites/12/${feed}.xml`);
      expect(error.message).toMatch(/not safe to parse|truncated|HTML/i);
      expect(error.message).not.toContain('root:x:0:0');
    });
  }

  it('sitemap answering 500: the message names the URL and the status', async () => {
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/sites/:id/sitemap.xml', status: 500 });
    const error = await buildError({ siteId: 12, baseUrl: sim.url });
    expect(error.message).toContain(`Could not get ${sim.url}/api/sites/12/sitemap.xml: the service answered 500`);
  });
});
