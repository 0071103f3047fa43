/**
 * Renamed articles redirect (issue 38, item 1) and links follow moves and removals in the same build (item 4),
 * on real builds against the simulator: the first build after a rename writes a redirect page at the old URL
 * (and a 301 line in the blog's `_redirects`), points links at the new URL, turns links to an unpublished
 * article into text, and lists the old URL nowhere; a later build keeps the redirect, never a loop. On demand
 * (`@astrojs/node`) the old URL answers 301 from the server, an unpublished article 404.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import publisher from 'astro-content-publisher';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { admin, buildFixture, isolatedSite } from './loader-harness.js';

vi.setConfig({ testTimeout: 180_000 });
const BLOG = 'https://blog.example.com';
const SERVICE = 'https://pro-blog.example.com';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
});

const DAY = '2026-03-10';
const publishArticle = (slug: string, title: string, content = `<p>${title}</p>`) =>
  admin(sim.url, 'POST', 'articles', { site: 12, title, slug, language: 'en', content, published_at: DAY });

/**
 * "links" links to "moving" and "leaving" by their URLs on the service; three more articles keep the removals
 * below the loader's mass-removal guard (half the store).
 */
async function publishThree(): Promise<void> {
  await admin(sim.url, 'POST', 'reset');
  for (const n of [1, 2, 3]) await publishArticle(`other-${n}`, `Other article ${n}`);
  await publishArticle('moving', 'Moving article');
  await publishArticle('leaving', 'Leaving article');
  await publishArticle(
    'links',
    'Links article',
    `<p><a href="${SERVICE}/blog/moving/#part">moving</a> and <a href="${SERVICE}/blog/leaving/">leaving</a></p>`,
  );
}

/** The service renames "from" to "to" (the same title, day and body under another slug). */
async function rename(from: string, to: string, title: string): Promise<void> {
  await admin(sim.url, 'DELETE', `articles/12/${from}?language=en`);
  await publishArticle(to, title);
}

const env = () => ({ PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro });

describe('static output: a renamed article redirects from the first build after the rename', () => {
  it('redirect page and _redirects line at the old URL, links to the new URL, unpublished links as text, old URL in no sitemap or feed', async () => {
    await publishThree();
    const site = await isolatedSite('loader-site', 'moved-static');
    try {
      await mkdir(join(site.root, 'public'), { recursive: true });
      await writeFile(join(site.root, 'public', '_redirects'), '/old-home / 301\n');
      const build = () =>
        buildFixture({
          ...site,
          env: env(),
          inline: { site: BLOG, integrations: [publisher({ siteId: 12, baseUrl: sim.url })] },
        });
      const read = (file: string) => readFile(join(site.outDir, file), 'utf8');
      expect((await build()).error).toBeUndefined();
      expect(await read('blog/links/index.html')).toContain(`href="${BLOG}/blog/moving/#part"`);

      await rename('moving', 'moved', 'Moving article');
      await admin(sim.url, 'DELETE', 'articles/12/leaving?language=en');
      const second = await build();
      expect(second.error).toBeUndefined();
      expect(existsSync(join(site.outDir, 'blog/moved/index.html'))).toBe(true);
      const page = await read('blog/moving/index.html');
      expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${BLOG}/blog/moved/">`);
      expect(page).toContain(`<link rel="canonical" href="${BLOG}/blog/moved/">`);
      expect(page).toContain('<meta name="robots" content="noindex">');
      expect(await read('_redirects')).toMatch(/^\/old-home \/ 301\n[\s\S]*^\/blog\/moving\/ \/blog\/moved\/ 301$/m);
      // Links: the moved article's new URL, the unpublished one's text, in this very build.
      const links = await read('blog/links/index.html');
      expect(links).toContain(`href="${BLOG}/blog/moved/#part"`);
      expect(links).not.toMatch(/\shref="[^"]*\/blog\/(moving|leaving)\//);
      for (const file of ['sitemap.xml', 'rss.xml']) {
        const text = await read(file);
        expect(text, file).toContain(`${BLOG}/blog/moved/`);
        expect(text, file).not.toContain('/blog/moving/');
        expect(text, file).not.toContain('/blog/leaving/');
      }

      // Renamed back: no loop, the article's page is at its first slug again and the other slug redirects there.
      await rename('moved', 'moving', 'Moving article');
      const third = await build();
      expect(third.error).toBeUndefined();
      expect(await read('blog/moving/index.html')).toContain('<h1>Moving article</h1>');
      expect(await read('blog/moved/index.html')).toContain(`content="0;url=${BLOG}/blog/moving/"`);
      const lines = (await read('_redirects')).split('\n').filter((l) => l.startsWith('/blog/'));
      expect(lines).toEqual(['/blog/moved/ /blog/moving/ 301']);

      // Another article of the same title and day, published beside it, then unpublished: gone, never a redirect
      // to "moving" (found by the site model: two articles listed side by side are two articles).
      await publishArticle('twin', 'Moving article');
      expect((await build()).error).toBeUndefined();
      expect(await read('blog/twin/index.html')).toContain('<h1>Moving article</h1>');
      await admin(sim.url, 'DELETE', 'articles/12/twin?language=en');
      expect((await build()).error).toBeUndefined();
      expect(existsSync(join(site.outDir, 'blog/twin/index.html'))).toBe(false);
      expect((await read('_redirects')).split('\n').filter((l) => l.startsWith('/blog/'))).toEqual(lines);
    } finally {
      await site.cleanup();
    }
  });
});

describe('on demand (@astrojs/node): the old URL answers 301', () => {
  it('301 to the new URL from the server, 404 for an unpublished article', async () => {
    await publishThree();
    const site = await isolatedSite('links-ssr', 'moved-node');
    try {
      const build = () =>
        buildFixture({
          ...site,
          env: env(),
          inline: {
            site: BLOG,
            output: 'server',
            adapter: node({ mode: 'middleware' }),
            integrations: [publisher({ siteId: 12, baseUrl: sim.url })],
          },
        });
      expect((await build()).error).toBeUndefined();
      await rename('moving', 'moved', 'Moving article');
      await admin(sim.url, 'DELETE', 'articles/12/leaving?language=en');
      expect((await build()).error).toBeUndefined();
      const entry = (await import(pathToFileURL(join(site.outDir, 'server', 'entry.mjs')).href)) as {
        handler: Parameters<typeof createServer>[1];
      };
      const server = createServer(entry.handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const old = await fetch(`${origin}/blog/moving/?ref=x`, { redirect: 'manual' });
        expect(old.status).toBe(301);
        expect(old.headers.get('location')).toBe(`${BLOG}/blog/moved/?ref=x`);
        expect((await fetch(`${origin}/blog/moved/`)).status).toBe(200);
        const gone = await fetch(`${origin}/blog/leaving/`, { redirect: 'manual' });
        expect(gone.status).toBe(404);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      await site.cleanup();
    }
  });
});
