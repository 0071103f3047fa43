/**
 * Pages a static build serves that Astro does not list among its built pages: the HTML pages of a prerendered
 * endpoint (`src/pages/blog/[slug].html.ts`) and the pages of i18n fallback routes (`/fr/blog/x/` for an
 * article in English only). Before, the first were left out of the sitemap and the feed with a warning that
 * they were not built, and the second were deleted by the build that wrote them ("Removed 2 article page(s)
 * that an earlier build left"), so /fr/blog/x/ answered 404. Both kinds still go when their article does.
 * The same build deleted the blog's own redirect from an old article URL (`redirects` in the config). And an
 * endpoint that renders the articles' HTML on demand counted as no article route: on demand the sitemap listed
 * none of them ("No page route of the blog matches articlePattern"), in a static build with an adapter none either.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import publisher from 'astro-content-publisher';
import type { AstroInlineConfig } from 'astro';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { admin, buildFixture, isolatedSite, publishModelArticle } from './loader-harness.js';
import { buildSite, fixtureArticles, locsOf, removeBuilds } from '../fixtures/integration-helpers/index.js';

vi.setConfig({ testTimeout: 120_000 });
const BLOG = 'https://blog.example.com';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ articles: 0, rateLimitOverride: 100_000 });
});
afterAll(async () => {
  await sim?.close();
  await removeBuilds();
});

/** `body` over a copy of loader-site, built again and again into one kept output with `inline` over its config. */
async function withSiteChain(
  prefix: string,
  inline: (simUrl: string) => AstroInlineConfig,
  body: (chain: {
    root: string;
    build: () => ReturnType<typeof buildFixture>;
    read: (file: string) => Promise<string>;
    has: (file: string) => boolean;
  }) => Promise<void>,
): Promise<void> {
  const site = await isolatedSite('loader-site', prefix);
  try {
    await body({
      root: site.root,
      build: () =>
        buildFixture({
          root: site.root,
          outDir: site.outDir,
          cacheDir: site.cacheDir,
          env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro },
          inline: { site: BLOG, vite: { build: { emptyOutDir: false } }, ...inline(sim.url) },
        }),
      read: (file) => readFile(join(site.outDir, file), 'utf8'),
      has: (file) => existsSync(join(site.outDir, file)),
    });
  } finally {
    await site.cleanup();
  }
}

async function publishTwo(): Promise<void> {
  await admin(sim.url, 'POST', 'reset');
  for (const slug of ['one', 'two']) await publishModelArticle(sim.url, slug, 'en');
}

describe('article pages made by a prerendered endpoint', () => {
  it('are listed and linked like pages, and removed when their article leaves', async () => {
    await publishTwo();
    await withSiteChain(
      'endpoint-pages',
      (simUrl) => ({
        integrations: [publisher({ siteId: 12, baseUrl: simUrl, articlePattern: '/blog/[slug].html' })],
      }),
      async (chain) => {
        await rm(join(chain.root, 'src/pages/blog/[slug].astro'));
        await writeFile(
          join(chain.root, 'src/pages/blog/[slug].html.ts'),
          [
            "import { getCollection } from 'astro:content';",
            'export async function getStaticPaths() {',
            "  return (await getCollection('articles')).map((entry) => ({ params: { slug: entry.id }, props: { entry } }));",
            '}',
            'export function GET({ props }) {',
            "  return new Response(`<!doctype html><title>${props.entry.data.title}</title><h1>${props.entry.data.title}</h1>`, { headers: { 'content-type': 'text/html' } });",
            '}',
            '',
          ].join('\n'),
        );
        const first = await chain.build();
        expect(first.error).toBeUndefined();
        expect(first.logs).not.toContain('were not built at articlePattern');
        expect(first.logs).not.toContain('Removed');
        const sitemap = await chain.read('sitemap.xml');
        for (const slug of ['one', 'two']) {
          expect(chain.has(`blog/${slug}.html`), slug).toBe(true);
          expect(sitemap).toContain(`<loc>${BLOG}/blog/${slug}.html</loc>`);
          expect(await chain.read('rss.xml')).toContain(`<link>${BLOG}/blog/${slug}.html</link>`);
        }

        await admin(sim.url, 'DELETE', 'articles/12/two?language=en');
        const second = await chain.build();
        expect(second.error).toBeUndefined();
        expect(second.logs).toContain('Removed 1 page(s) at article paths that an earlier build left');
        expect(chain.has('blog/two.html')).toBe(false);
        expect(chain.has('blog/one.html')).toBe(true);
        expect(await chain.read('sitemap.xml')).not.toContain('/blog/two.html');
      },
    );
  });
});

describe('i18n fallback pages of articles in the default language only', () => {
  it('are kept by the build that wrote them, and removed with their article', async () => {
    await publishTwo();
    await withSiteChain(
      'fallback-pages',
      (simUrl) => ({
        i18n: {
          defaultLocale: 'en',
          locales: ['en', 'fr'],
          fallback: { fr: 'en' },
          routing: { prefixDefaultLocale: false, fallbackType: 'rewrite' },
        },
        integrations: [
          publisher({ siteId: 12, baseUrl: simUrl, articlePattern: { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' } }),
        ],
      }),
      async (chain) => {
        const first = await chain.build();
        expect(first.error).toBeUndefined();
        expect(first.logs).not.toContain('Removed');
        for (const slug of ['one', 'two']) {
          expect(chain.has(`blog/${slug}/index.html`), slug).toBe(true);
          expect(await chain.read(`fr/blog/${slug}/index.html`)).toContain(`<h1>${slug} en</h1>`);
        }
        // The service has the articles in English only: the sitemap lists their English pages, not the fallbacks.
        const sitemap = await chain.read('sitemap.xml');
        expect(sitemap).toContain(`<loc>${BLOG}/blog/one/</loc>`);
        expect(sitemap).not.toContain('/fr/blog/');

        await admin(sim.url, 'DELETE', 'articles/12/two?language=en');
        const second = await chain.build();
        expect(second.error).toBeUndefined();
        expect(chain.has('fr/blog/one/index.html')).toBe(true);
        expect(chain.has('blog/two/index.html')).toBe(false);
        expect(chain.has('fr/blog/two/index.html')).toBe(false);
        expect(second.logs).toContain('Removed 2 page(s) at article paths that an earlier build left');
      },
    );
  });
});

describe("a redirect of the blog's own at an article path", () => {
  it('is kept: the build wrote it', async () => {
    await publishTwo();
    await withSiteChain(
      'redirect-pages',
      (simUrl) => ({
        redirects: { '/blog/old-one': '/blog/one' },
        integrations: [publisher({ siteId: 12, baseUrl: simUrl })],
      }),
      async (chain) => {
        const built = await chain.build();
        expect(built.error).toBeUndefined();
        expect(built.logs).not.toContain('Removed');
        expect(await chain.read('blog/old-one/index.html')).toContain('/blog/one');
      },
    );
  });
});

describe('article pages made by an endpoint on demand (`/blog/[slug].html`, prerender = false)', () => {
  const endpointBlog = (output: 'server' | 'static') =>
    buildSite('integration-ssr', {
      site: BLOG,
      output,
      adapter: node({ mode: 'standalone' }),
      integrations: [
        publisher({ siteId: 12, baseUrl: sim.url, articlePattern: '/blog/[slug].html' }),
        fixtureArticles([], 'on-demand-endpoint'),
      ],
    });
  it('output server: the sitemap lists them, and each one listed answers', async () => {
    await publishTwo();
    const outDir = await endpointBlog('server');
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as {
      handler: Parameters<typeof createServer>[1];
    };
    delete process.env.ASTRO_NODE_AUTOSTART;
    const server = createServer(entry.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const locs = locsOf(await (await fetch(`${origin}/sitemap.xml`)).text());
      for (const slug of ['one', 'two']) expect(locs).toContain(`${BLOG}/blog/${slug}.html`);
      for (const loc of locs.filter((l) => l.includes('/blog/'))) {
        const response = await fetch(loc.replace(BLOG, origin));
        expect(response.status, loc).toBe(200);
        expect(await response.text()).toContain('<h1>');
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('static output with an adapter: the built sitemap lists them', async () => {
    await publishTwo();
    const outDir = await endpointBlog('static');
    const locs = locsOf(await readFile(join(outDir, 'client', 'sitemap.xml'), 'utf8'));
    for (const slug of ['one', 'two']) expect(locs).toContain(`${BLOG}/blog/${slug}.html`);
  });
});

describe('an articlePattern that matches no article page', () => {
  it("the warning names the blog's page routes with a parameter", async () => {
    await publishTwo();
    await withSiteChain(
      'wrong-pattern',
      (simUrl) => ({
        integrations: [publisher({ siteId: 12, baseUrl: simUrl, articlePattern: '/posts/[slug]/' })],
      }),
      async (chain) => {
        const built = await chain.build();
        expect(built.error).toBeUndefined();
        expect(built.logs).toContain('2 of the 2 article pages of your collections were not built at articlePattern');
        expect(built.logs).toContain(`the blog's page routes with a parameter, as patterns, are "/blog/[slug]/"`);
      },
    );
  });
});
