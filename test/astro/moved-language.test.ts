/**
 * A language variant's move (issue 38, item 1): the French article gets a new slug on the service while the
 * English articles stay. The first build after the rename redirects the French old URL to the French new one, on
 * a bilingual blog (test/fixtures/lang-prefixed, pages at /<lang>/blog/<slug>/): no redirect under the other
 * language, no loop (the new URL is the article's page), and the old URL is listed in neither the sitemap nor
 * the feed.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import publisher from 'astro-content-publisher';
import { expect, it, vi } from 'vitest';
import { useSimulatorLifecycle } from '../support/use-simulator.js';
import { admin, buildFixture, isolatedSite } from './loader-harness.js';

vi.setConfig({ testTimeout: 240_000 });
const BLOG = 'https://blog.example.com';

// One simulator for the file; each test publishes what it builds.
const sim = useSimulatorLifecycle({ articles: 0, rateLimitOverride: 100_000 }, { beforeEach: () => undefined });

const publishArticle = (slug: string, title: string, language: 'en' | 'fr') =>
  admin(sim().url, 'POST', 'articles', {
    site: 12,
    title,
    slug,
    language,
    content: `<p>${title}</p>`,
    published_at: '2026-03-10',
  });

it('the French variant renamed: /fr/blog/old/ redirects to /fr/blog/new/, nothing under /en/, old URL listed nowhere', async () => {
  for (const n of [1, 2, 3]) {
    await publishArticle(`other-${n}`, `Other article ${n}`, 'en');
    await publishArticle(`autre-${n}`, `Autre article ${n}`, 'fr');
  }
  await publishArticle('deplace', 'Article déplacé', 'fr');
  const site = await isolatedSite('lang-prefixed', 'moved-language');
  try {
    const build = () =>
      buildFixture({
        ...site,
        env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim().url, PUBLISHER_API_KEY: sim().tokens.pro },
        inline: {
          site: BLOG,
          integrations: [publisher({ siteId: 12, baseUrl: sim().url, articlePattern: '/[lang]/blog/[slug]/' })],
        },
      });
    const read = (file: string) => readFile(join(site.outDir, file), 'utf8');
    const first = await build();
    expect(first.error, first.logs).toBeUndefined();
    expect(await read('fr/blog/deplace/index.html')).toContain('Article déplacé');

    await admin(sim().url, 'DELETE', 'articles/12/deplace?language=fr');
    await publishArticle('demenage', 'Article déplacé', 'fr');
    const second = await build();
    expect(second.error, second.logs).toBeUndefined();
    const page = await read('fr/blog/deplace/index.html');
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${BLOG}/fr/blog/demenage/">`);
    expect(page).toContain('<meta name="robots" content="noindex">');
    // No loop: the new URL is the article itself.
    const target = await read('fr/blog/demenage/index.html');
    expect(target).toContain('Article déplacé');
    expect(target).not.toContain('http-equiv="refresh"');
    // Only the language that moved.
    expect(existsSync(join(site.outDir, 'en/blog/deplace/index.html'))).toBe(false);
    expect(existsSync(join(site.outDir, 'en/blog/demenage/index.html'))).toBe(false);
    for (const file of ['sitemap.xml', 'rss.xml']) {
      const text = await read(file);
      expect(text, file).toContain(`${BLOG}/fr/blog/demenage/`);
      expect(text, file).not.toContain('/blog/deplace/');
    }
  } finally {
    await site.cleanup();
  }
});
