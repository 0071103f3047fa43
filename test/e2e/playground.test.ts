// The playground blog in a real browser: what a reader sees and what a feed reader fetches.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from 'astro-content-publisher/simulator';
import { collectErrors, isolateFromNetwork, launchChromium } from './helpers/browser.js';
import { buildAndServe, PLAYGROUND_ROOT, REPO_ROOT, type BuiltSite } from './helpers/site.js';

const BLOG = 'https://blog.example.com';
const ARTICLES = 40;
const SCREENSHOTS = join(REPO_ROOT, 'screenshots');

interface ListItem {
  slug: string;
  title: string;
  language: string;
  published_at: string;
}

let simulator: Simulator;
let site: BuiltSite;
let browser: Browser | undefined;
let upstream: ListItem[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  simulator = await startSimulator({ articles: ARTICLES });
  const siteId = simulator.sites.agence[0]!;
  const response = await fetch(`${simulator.url}/api/v1/sites/${siteId}/articles/`, {
    headers: { authorization: `Bearer ${simulator.tokens.agence}` },
  });
  // The blog's order: newest first, ties broken by slug (the home page promises a stable order).
  upstream = ((await response.json()) as { results: ListItem[] }).results.sort(
    (a, b) => b.published_at.localeCompare(a.published_at) || a.slug.localeCompare(b.slug),
  );
  site = await buildAndServe(PLAYGROUND_ROOT, {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
    PLAYGROUND_SITE: BLOG,
    PLAYGROUND_MAX_REQUESTS: '500',
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await simulator?.close();
});

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser!.newPage();
  const errors = collectErrors(page);
  await isolateFromNetwork(page, site.url);
  const response = await page.goto(site.url + path);
  expect(response?.status(), `GET ${path}`).toBe(200);
  return { page, errors };
}

describe('playground in Chromium', () => {
  it('home: lists the newest articles, paginated, with no script and no console error', async () => {
    const { page, errors } = await open('/');
    const titles = await page.locator('.article-card h2').allTextContents();
    expect(titles).toHaveLength(10);
    expect(titles[0]?.trim()).toBe(upstream[0]?.title);
    expect(await page.locator('script').count()).toBe(0);

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'home.png'), fullPage: true });

    await page.getByRole('link', { name: 'Older →' }).click();
    await page.waitForURL(`${site.url}/2/`);
    const second = await page.locator('.article-card h2').allTextContents();
    expect(second[0]?.trim()).toBe(upstream[10]?.title);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('article page: renders the content, and each table-of-contents link scrolls to its heading', async () => {
    const newest = upstream[0]!;
    const { page, errors } = await open(`/blog/${newest.slug}/`);
    expect((await page.locator('h1').textContent())?.trim()).toBe(newest.title);
    expect(await page.locator('.prose p').count()).toBeGreaterThan(2);
    expect(await page.locator('.prose h2').count()).toBeGreaterThan(1);
    expect(await page.locator('script').count()).toBe(0);
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.screenshot({ path: join(SCREENSHOTS, 'article.png'), fullPage: true });

    const links = page.locator('.toc a');
    const count = await links.count();
    expect(count).toBeGreaterThan(1);
    // The last entry is the one furthest down the page: clicking it must scroll.
    for (const index of [count - 1, 0]) {
      const link = links.nth(index);
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(/^#./);
      await link.click();
      await page.waitForURL((url) => url.hash === href);
      const target = page.locator(`[id="${decodeURIComponent(href.slice(1))}"]`);
      expect(await target.count(), `heading ${href} exists`).toBe(1);
      const inView = await target.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
      expect(inView, `heading ${href} is visible after the click`).toBe(true);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('language pages: each lists exactly the articles in its language', async () => {
    const languages = [...new Set(upstream.map((item) => item.language))];
    expect(languages.length).toBeGreaterThan(1);
    for (const language of languages) {
      const { page } = await open(`/lang/${language}/`);
      const cards = page.locator('.article-card');
      const shown = await cards.evaluateAll((elements) => elements.map((el) => el.getAttribute('data-language')));
      expect(shown.length).toBe(upstream.filter((item) => item.language === language).length);
      expect(new Set(shown)).toEqual(new Set([language]));
      await page.close();
    }
  });

  it('SEO page: draws the tracked keywords and the weekly digest without script', async () => {
    const { page, errors } = await open('/seo/');
    const rows = await page.locator('table.keywords tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(await page.locator('.chart svg circle.current').count()).toBe(rows);
    expect(await page.locator('[data-stat="publications"]').textContent()).toMatch(/^\d+$/);
    expect(await page.locator('script').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('/sitemap.xml and /rss.xml: served as XML with every URL on the blog', async () => {
    const sitemap = await fetch(`${site.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/^(application|text)\/xml/);
    const sitemapXml = await sitemap.text();
    const locs = [...sitemapXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
    for (const item of upstream) expect(locs).toContain(`${BLOG}/blog/${item.slug}/`);
    expect(locs.every((loc) => loc.startsWith(`${BLOG}/`))).toBe(true);

    const rss = await fetch(`${site.url}/rss.xml`);
    expect(rss.status).toBe(200);
    expect(rss.headers.get('content-type')).toMatch(/^(application\/rss\+xml|application\/xml|text\/xml)/);
    const rssXml = await rss.text();
    expect(rssXml).toContain('<rss');
    const links = [...rssXml.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((match) => match[1]!);
    expect(links).toHaveLength(Math.min(50, ARTICLES));
    expect(new Set(links)).toEqual(new Set(upstream.slice(0, 50).map((item) => `${BLOG}/blog/${item.slug}/`)));
  });
});

describe('playground images in Chromium', () => {
  it('every image on every page loads (naturalWidth > 0) and comes from the blog, optimised by Astro', async () => {
    const { readdirSync } = await import('node:fs');
    const paths = (readdirSync(site.outDir, { recursive: true }) as string[])
      .filter((file) => file.endsWith('index.html'))
      .map((file) => `/${file.replace(/index\.html$/, '')}`.replaceAll('\\', '/'));
    expect(paths.filter((p) => p.startsWith('/blog/'))).toHaveLength(ARTICLES);
    let seen = 0;
    const page = await browser!.newPage();
    await isolateFromNetwork(page, site.url);
    for (const path of paths) {
      await page.goto(site.url + path);
      const images = await page.evaluate(async () => {
        const all = [...document.querySelectorAll('img')];
        // Lazy images below the fold load only when scrolled to: load them all now, then read what arrived.
        for (const img of all) img.loading = 'eager';
        await Promise.all(all.map((img) => img.decode().catch(() => undefined)));
        return all.map((img) => ({
          src: img.currentSrc,
          width: img.naturalWidth,
          srcset: img.getAttribute('srcset') ?? '',
        }));
      });
      for (const image of images) {
        expect(image.width, `${path}: ${image.src}`).toBeGreaterThan(0);
        expect(new URL(image.src).origin, `${path}: ${image.src}`).toBe(site.url);
        expect(new URL(image.src).pathname).toMatch(/^\/_astro\/.+\.webp$/);
        expect(image.srcset).toMatch(/ \d+w/);
      }
      seen += images.length;
    }
    await page.close();
    // Three figures per article page, none elsewhere (the list pages show no image).
    expect(seen).toBe(ARTICLES * 3);
  });
});
