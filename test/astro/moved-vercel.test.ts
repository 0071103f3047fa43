/**
 * Renamed articles on Vercel (issue 38, item 1: "Vercel's config ... where it can"). Astro's `redirects` config is
 * read before the loaders run, so a move the build learns cannot go through it; the Build Output API's
 * `.vercel/output/config.json` is written by @astrojs/vercel in astro:build:done, before ours runs (the adapter is
 * the first integration), so the integration adds its 301 routes there, ahead of Vercel's filesystem handling. The
 * redirect page stays in the output as the fallback. The test reads the routes Vercel would apply and matches the
 * old and new URLs against them in Vercel's order.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import vercel from '@astrojs/vercel';
import publisher from 'astro-content-publisher';
import { expect, it, vi } from 'vitest';
import { useSimulatorLifecycle } from '../support/use-simulator.js';
import { admin, buildFixture, isolatedSite } from './loader-harness.js';

vi.setConfig({ testTimeout: 240_000 });
const BLOG = 'https://blog.example.com';

// One simulator for the file; each test publishes what it builds.
const sim = useSimulatorLifecycle({ articles: 0, rateLimitOverride: 100_000 }, { beforeEach: () => undefined });

const publishArticle = (slug: string, title: string) =>
  admin(sim().url, 'POST', 'articles', {
    site: 12,
    title,
    slug,
    language: 'en',
    content: `<p>${title}</p>`,
    published_at: '2026-03-10',
  });

interface VercelRoute {
  src?: string;
  dest?: string;
  handle?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** What Vercel answers for `path` from the routes before its filesystem phase: a redirect, or the file (undefined). */
function redirectFor(routes: readonly VercelRoute[], path: string): { status: number; location?: string } | undefined {
  for (const route of routes) {
    if (route.handle !== undefined) return undefined;
    if (route.src === undefined || route.status === undefined || !new RegExp(route.src).test(path)) continue;
    return { status: route.status, ...(route.headers?.Location ? { location: route.headers.Location } : {}) };
  }
  return undefined;
}

it('static output on @astrojs/vercel: the old URL answers 301 from config.json, the redirect page stays as fallback', async () => {
  await admin(sim().url, 'POST', 'reset');
  for (const n of [1, 2, 3]) await publishArticle(`other-${n}`, `Other article ${n}`);
  await publishArticle('moving', 'Moving article');
  const site = await isolatedSite('loader-site', 'moved-vercel');
  try {
    const build = () =>
      buildFixture({
        ...site,
        env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim().url, PUBLISHER_API_KEY: sim().tokens.pro },
        inline: { site: BLOG, adapter: vercel(), integrations: [publisher({ siteId: 12, baseUrl: sim().url })] },
      });
    expect((await build()).error).toBeUndefined();
    await admin(sim().url, 'DELETE', 'articles/12/moving?language=en');
    await publishArticle('moved', 'Moving article');
    const second = await build();
    expect(second.error, second.logs).toBeUndefined();

    const output = join(site.root, '.vercel/output');
    const config = JSON.parse(await readFile(join(output, 'config.json'), 'utf8')) as { routes: VercelRoute[] };
    for (const path of ['/blog/moving/', '/blog/moving'])
      expect(redirectFor(config.routes, path), path).toEqual({ status: 301, location: '/blog/moved/' });
    expect(redirectFor(config.routes, '/blog/moved/')).toBeUndefined();
    expect(redirectFor(config.routes, '/blog/moving/x/')).toBeUndefined();
    // The adapter's own routes are still there, after ours.
    expect(config.routes.some((route) => route.handle === 'filesystem')).toBe(true);
    expect(second.logs).toMatch(/301 routes in \.vercel\/output\/config\.json/);
    expect(await readFile(join(output, 'static/blog/moving/index.html'), 'utf8')).toContain(
      `content="0;url=${BLOG}/blog/moved/"`,
    );
    expect(existsSync(join(output, 'static/blog/moved/index.html'))).toBe(true);
  } finally {
    await site.cleanup();
  }
});
