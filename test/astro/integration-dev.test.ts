import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publisher from 'astro-content-publisher';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  admin,
  buildDirs,
  fixtureRoot,
  locsOf,
  removeBuilds,
  RSS_ROUTE,
} from '../fixtures/integration-helpers/index.js';

/** A POST with exactly these headers (fetch would set its own Sec-Fetch-Mode). */
function rawPost(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

type DevServer = Awaited<ReturnType<typeof import('astro').dev>>;

// `astro dev` on a site with this package's articles loader: the routes answer, and a POST to the refresh
// endpoint brings a newly published article onto the page without a restart.
describe('integration, astro dev', () => {
  let sim: Simulator;
  let server: DevServer;
  let blog: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    sim = await startSimulator({ articles: 5 });
    Object.assign(process.env, {
      PUBLISHER_API_KEY: sim.tokens.pro,
      PUBLISHER_SITE_ID: '12',
      PUBLISHER_BASE_URL: sim.url,
    });
    const { dev } = await import('astro');
    const { cacheDir } = await buildDirs('integration-dev');
    // Astro's dev server skips its request handler when VITEST is set (for getViteConfig() users); this
    // test needs the real one, so the flag is hidden while the server configures itself.
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    server = await dev({
      root: fixtureRoot('integration-dev'),
      cacheDir,
      logLevel: 'silent',
      site: 'https://blog.example.com',
      server: { host: '127.0.0.1', port: 0 },
      // Two tests POST a refresh in a row: no minimum interval here (test/security/dev-refresh.test.ts covers it).
      integrations: [publisher({ sitemap: { maxUrlsPerFile: 4 }, devRefresh: { minIntervalMs: 0 } })],
    }).finally(() => {
      process.env.VITEST = vitest;
    });
    blog = `http://127.0.0.1:${server.address.port}`;
    sim.resetStats();
  });
  afterAll(async () => {
    await server?.stop();
    await sim.close();
    await removeBuilds();
    for (const key of ['PUBLISHER_API_KEY', 'PUBLISHER_SITE_ID', 'PUBLISHER_BASE_URL']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it('the sitemap (split: index and parts) and RSS routes answer in dev', async () => {
    const index = await fetch(`${blog}/sitemap.xml`);
    expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    // 5 articles + the home page, 4 URLs per file -> 2 parts
    expect(locsOf(await index.text())).toEqual([
      'https://blog.example.com/sitemap-1.xml',
      'https://blog.example.com/sitemap-2.xml',
    ]);
    const locs: string[] = [];
    for (const n of [1, 2]) {
      const part = await fetch(`${blog}/sitemap-${n}.xml`);
      expect(part.status).toBe(200);
      locs.push(...locsOf(await part.text()));
    }
    expect(locs.filter((loc) => loc.startsWith('https://blog.example.com/blog/'))).toHaveLength(5);
    expect(locs).toContain('https://blog.example.com/');
    expect((await fetch(`${blog}/sitemap-3.xml`)).status).toBe(404);
    const rss = await fetch(`${blog}/rss.xml`);
    expect(rss.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(sim.stats().routes[RSS_ROUTE]).toEqual({ 200: 1 });
    // robots.txt as a static build writes it (the fixture has none of its own).
    const robots = await fetch(`${blog}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toContain('Sitemap: https://blog.example.com/sitemap.xml');
  });

  it('POST /_publisher/refresh: a newly published article appears on the page', async () => {
    const title = 'Freshly published while astro dev runs';
    expect(await (await fetch(blog)).text()).toContain('5 articles');
    await admin(sim.url, 'POST', 'articles', { site: 12, title });
    expect(await (await fetch(blog)).text()).not.toContain(title);

    const response = await fetch(`${blog}/_publisher/refresh`, { method: 'POST' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { refreshed: string[] };
    // Only the loaders the project uses (issue 18): the fixture has no keywords or digest collection.
    expect(body.refreshed).toEqual(['astro-content-publisher:articles']);

    const page = await (await fetch(blog)).text();
    expect(page).toContain(title);
    expect(page).toContain('6 articles');

    // The routes follow the refreshed collection too (issue 11): the new article is in the sitemap.
    const locs: string[] = [];
    for (const n of [1, 2]) locs.push(...locsOf(await (await fetch(`${blog}/sitemap-${n}.xml`)).text()));
    expect(locs.filter((loc) => loc.startsWith('https://blog.example.com/blog/'))).toHaveLength(6);
  });

  it('POST /_publisher/refresh after an edit: /rss.xml and the sitemap show the edit, not the copy fetched before it', async () => {
    const { results } = (await (
      await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: { Authorization: `Bearer ${sim.tokens.pro}` } })
    ).json()) as { results: { slug: string }[] };
    const slug = results[1]!.slug;
    const sitemapLastmod = async () => {
      for (const n of [1, 2]) {
        const text = await (await fetch(`${blog}/sitemap-${n}.xml`)).text();
        const match = new RegExp(`/blog/${slug}/</loc><lastmod>([^<]+)<`).exec(text);
        if (match) return match[1];
      }
      return undefined;
    };
    // The routes hold their copies of the service's feeds (fetched by the tests above, or now).
    const before = await sitemapLastmod();
    expect(before).toBeDefined();
    expect(await (await fetch(`${blog}/rss.xml`)).text()).not.toContain('Edited while astro dev runs');

    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Edited while astro dev runs' });
    expect((await fetch(`${blog}/_publisher/refresh`, { method: 'POST' })).status).toBe(200);

    expect(await (await fetch(blog)).text()).toContain('Edited while astro dev runs');
    expect(await (await fetch(`${blog}/rss.xml`)).text()).toContain('Edited while astro dev runs');
    expect(await sitemapLastmod()).not.toBe(before);
  });

  it('POST /_publisher/refresh while the service fails: 502 naming what the loaders kept, the page keeps its articles', async () => {
    // Found by a trial: the loaders keep their stored articles through an outage, and the endpoint answered
    // 200 {"refreshed": [...]}: a webhook could not tell that nothing was refreshed.
    const before = /(\d+) articles/.exec(await (await fetch(blog)).text())?.[1];
    await admin(sim.url, 'POST', 'faults', { route: 'GET /api/v1/sites/:id/articles/', status: 503 });
    try {
      const response = await fetch(`${blog}/_publisher/refresh`, { method: 'POST' });
      expect(response.status).toBe(502);
      const body = (await response.json()) as { error: string; refreshed: string[] };
      expect(body.refreshed).toEqual(['astro-content-publisher:articles']);
      expect(body.error).toMatch(
        /^Refreshed, but the loaders kept their stored content \(site 12: could not list the articles: .*503.*\): retry later\.$/,
      );
      expect(body.error).not.toContain(sim.tokens.pro);
      expect(await (await fetch(blog)).text()).toContain(`${before} articles`);
    } finally {
      await admin(sim.url, 'DELETE', 'faults');
    }
    expect((await fetch(`${blog}/_publisher/refresh`, { method: 'POST' })).status).toBe(200);
  });

  it('a cross-site POST to the refresh endpoint (another page in the browser): 403 with a plain message, no loader run', async () => {
    sim.resetStats();
    // Astro's dev server already blocks cross-site fetches, but not navigations: an auto-submitted <form
    // method="post"> on another site, or another localhost port (same-site), reaches the endpoint.
    const cases: Array<[Record<string, string>, string]> = [
      [
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', origin: 'https://evil.example' },
        'Sec-Fetch-Site: cross-site',
      ],
      [
        { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', origin: 'http://127.0.0.1:1' },
        'Origin: "http://127.0.0.1:1"',
      ],
      [{ origin: 'https://evil.example' }, 'Origin: "https://evil.example"'],
      [{ origin: 'null' }, 'Origin: "null"'],
      // DNS rebinding (issue 21, 6b): a page of evil.example whose name now resolves to 127.0.0.1 posts to its
      // own origin, so Origin and Host agree; only the Host names another site. (Vite's own Host check may
      // answer first, with its message; the endpoint checks Host too, test/security/dev-refresh.test.ts.)
      [{ host: 'evil.example:4321', origin: 'http://evil.example:4321' }, '"evil.example'],
      [{ host: 'evil.example' }, '"evil.example"'],
      [{ host: 'localhost.evil.example' }, '"localhost.evil.example"'],
    ];
    for (const [headers, named] of cases) {
      const response = await rawPost(`${blog}/_publisher/refresh`, headers);
      expect(response.status, named).toBe(403);
      expect(response.type, named).toMatch(/^text\/plain\b/);
      expect(response.body, named).toContain(named);
    }
    expect(sim.stats().authenticated).toBe(0);
    // Names Vite accepts (localhost, *.localhost, IP addresses) pass the Host check.
    for (const host of ['localhost', 'blog.localhost', '127.0.0.1', '[::1]']) {
      const response = await rawPost(`${blog}/_publisher/refresh`, { host: `${host}:${new URL(blog).port}` });
      expect(response.status, host).toBe(200);
    }
    sim.resetStats();
    // The dev server's own pages (same origin) may still refresh.
    const sameOrigin = await fetch(`${blog}/_publisher/refresh`, {
      method: 'POST',
      headers: { origin: blog, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
    expect(sim.stats().authenticated).toBeGreaterThan(0);
  });

  it("links to the service's articles go to the blog's pages on the dev server, not on the production site", async () => {
    // Found by trials on Astro Micro and AstroWind: in dev, a click on such a link left localhost for `site`.
    const html = await (await fetch(`${blog}/`)).text();
    const hrefs = [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/blog\/[^/]+\/$/);
  });

  it('GET on the refresh endpoint: 405, nothing refreshed', async () => {
    const response = await fetch(`${blog}/_publisher/refresh`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
