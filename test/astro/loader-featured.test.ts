/**
 * The featured image with every kind of collection schema, by real builds: an edit of an article that has
 * a featured image reaches its page on the next build (issue 18), the image's `src` is a file of the built
 * site, a theme's `heroImage` gets the local copy through the mapping helpers (no download at render time),
 * and a schema that refuses an entry fails the build by name without losing what is stored.
 * Each test has its own simulator and its own directories: no test reads another's state.
 */
import { access, cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, closedAfterEach, isolatedSite, readTree, summaryOf } from './loader-harness.js';

// Each test runs several real builds: on a busy machine they are slow, which must not fail the test.
vi.setConfig({ testTimeout: 300_000 });
const MEDIA = 'GET /media/*';
const DETAIL = 'GET /api/v1/sites/:id/articles/:slug/';
const own = closedAfterEach();

/** A simulator, a copy of the fixture and directories of the test's own. */
async function setUp(prefix: string, extraEnv: Record<string, string> = {}, articles = 2) {
  const sim = await startSimulator({ articles, rateLimitOverride: 100_000 });
  const site = await isolatedSite('featured-site', prefix);
  own(sim, site);
  const build = (schema: string, cacheDir = site.cacheDir) =>
    buildFixture({
      root: site.root,
      outDir: site.outDir,
      cacheDir,
      env: {
        PUBLISHER_SITE_ID: '12',
        PUBLISHER_BASE_URL: sim.url,
        PUBLISHER_API_KEY: sim.tokens.pro,
        FEATURED_SCHEMA: schema,
        ...extraEnv,
      },
    });
  return { sim, dirs: site, build };
}

async function page(outDir: string, slug: string): Promise<string> {
  return readFile(join(outDir, 'blog', slug, 'index.html'), 'utf8');
}

/** Every local URL that an `<img>` of the built site names (src and each srcset candidate). */
function imageUrls(html: string): string[] {
  const urls: string[] = [];
  for (const tag of html.match(/<img\b[^>]*>/g) ?? []) {
    const src = / src="([^"]+)"/.exec(tag)?.[1];
    if (src) urls.push(src);
    const srcset = / srcset="([^"]+)"/.exec(tag)?.[1];
    if (srcset) for (const candidate of srcset.split(',')) urls.push(candidate.trim().split(/\s+/)[0]!);
  }
  return urls.map((u) => u.replaceAll('&amp;', '&'));
}

async function missingFiles(outDir: string): Promise<string[]> {
  const missing: string[] = [];
  for (const [path, html] of await readTree(outDir)) {
    if (!path.endsWith('.html')) continue;
    for (const url of imageUrls(html)) {
      if (!url.startsWith('/')) continue;
      try {
        await access(join(outDir, decodeURIComponent(url.split('?')[0]!)));
      } catch {
        missing.push(`${path}: ${url}`);
      }
    }
  }
  return missing;
}

/** The slugs of the built article pages. */
async function slugsOf(outDir: string): Promise<string[]> {
  return (await readdir(join(outDir, 'blog'))).sort();
}

const mediaRequests = (sim: Simulator) => sim.stats().requests.filter((r) => r.route === MEDIA);

/**
 * After a cold build with a theme's schema ("starter", "theme"): heroImage is the local copy, so <Image
 * src={heroImage}> downloads nothing from the service at render time; one download per image, the loader's.
 */
async function heroImageIsLocal(sim: Simulator, outDir: string): Promise<void> {
  const slugs = await slugsOf(outDir);
  expect(slugs).toHaveLength(2);
  const featured = mediaRequests(sim).filter((r) => r.path.endsWith('/featured.jpg'));
  expect(featured.map((r) => r.path).sort()).toEqual(slugs.map((slug) => `/media/sites/12/${slug}/featured.jpg`));
  expect(new Set(mediaRequests(sim).map((r) => r.path)).size).toBe(mediaRequests(sim).length);
  for (const slug of slugs) {
    const html = await page(outDir, slug);
    expect(html).toMatch(/<img src="\/_astro\/[^"]+\.webp"[^>]* width="1020" height="510"[^>]* class="hero"/);
    expect(html).not.toContain(`${sim.url}/media`);
  }
  expect(await missingFiles(outDir)).toEqual([]);
}

// 'none' is also `schema: articleDataSchema` written out: the loader's own schema is that object, and Astro
// parses with the loader's schema when the collection names none.
describe.each(['none', 'starter', 'theme'])('the featured image with schema "%s"', (schema) => {
  it("the page shows the featured image (a theme schema's heroImage as the local copy: no download at render time); an edit of the body, then of the title and the body, reaches the page on the next build without a download", async () => {
    const { sim, dirs, build } = await setUp(`edit-${schema}`);
    const cold = await build(schema);
    expect(cold.error).toBeUndefined();
    const [slug] = await slugsOf(dirs.outDir);
    expect(await page(dirs.outDir, slug!)).toMatch(/<img[^>]* class="featured"/);
    // The store keeps the article's own fields beside an entry only where the schema reshapes them: the
    // later builds below read them back either way (a body from an edit, the title, the featured image).
    const store = await readFile(join(dirs.cacheDir, 'data-store.json'), 'utf8');
    expect(store.includes('"serviceData"')).toBe(schema === 'starter' || schema === 'theme');
    if (schema !== 'none') await heroImageIsLocal(sim, dirs.outDir);

    sim.resetStats();
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { content: '<p>The first edit of the body.</p>' });
    const afterBody = await build(schema);
    expect(afterBody.error).toBeUndefined();
    expect(afterBody.logs).not.toContain('could not be fetched');
    // The article fetched again keeps its featured image from the loader's cache: nothing is downloaded again.
    expect(mediaRequests(sim)).toEqual([]);
    let html = await page(dirs.outDir, slug!);
    expect(html).toContain('The first edit of the body.');
    expect(html).toMatch(/<img src="\/_astro\/[^>]* class="featured"/);

    await admin(sim.url, 'PATCH', `articles/12/${slug}`, {
      title: 'A new title',
      content: '<p>The second edit of the body.</p>',
    });
    const afterBoth = await build(schema);
    expect(afterBoth.error).toBeUndefined();
    expect(afterBoth.logs).not.toContain('could not be fetched');
    html = await page(dirs.outDir, slug!);
    expect(html).toContain('<h1>A new title</h1>');
    expect(html).toContain('The second edit of the body.');
    expect(html).toMatch(/<img src="\/_astro\/[^>]* class="featured"/);
    // Every image URL of the built site is a file of the built site, the featured image's own `src` included.
    expect(html).toMatch(/<img class="raw" src="\/_astro\/[^"]+"/);
    expect(await missingFiles(dirs.outDir)).toEqual([]);
  });
});

describe('every image URL of the built site is a file of it', () => {
  it('with incremental builds (cacheKey: entry.digest) and the passthrough image service, across an edit', async () => {
    const { sim, dirs, build } = await setUp('incremental', { FEATURED_INCREMENTAL: '1', FEATURED_PASSTHROUGH: '1' });
    expect((await build('starter')).error).toBeUndefined();
    expect(await missingFiles(dirs.outDir)).toEqual([]);
    const [edited, untouched] = await slugsOf(dirs.outDir);
    await admin(sim.url, 'PATCH', `articles/12/${edited}`, { content: '<p>Edited for the incremental build.</p>' });
    const warm = await build('starter');
    expect(warm.error).toBeUndefined();
    // One page rendered again, the other one kept from the cache: both name only files of the site.
    expect(warm.logs).toMatch(new RegExp(`/blog/${untouched}/index\\.html.*\\(cached\\)`));
    expect(await page(dirs.outDir, edited!)).toContain('Edited for the incremental build.');
    expect(await page(dirs.outDir, untouched!)).toMatch(/<img class="raw" src="\/_astro\/[^"]+"/);
    expect(await missingFiles(dirs.outDir)).toEqual([]);
  });
});

describe('a schema that refuses an article', () => {
  it('fails the build naming the article and the schema message; what was stored stays', async () => {
    const { sim, dirs, build } = await setUp('refused');
    expect((await build('reject')).error).toBeUndefined();
    const [slug, other] = await slugsOf(dirs.outDir);
    const before = await page(dirs.outDir, slug!);
    const oldTitle = /<h1>([^<]+)<\/h1>/.exec(before)![1]!;
    const storeFile = join(dirs.cacheDir, 'data-store.json');

    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Refused by the schema' });
    await admin(sim.url, 'PATCH', `articles/12/${other}`, { content: '<p>A change the schema accepts.</p>' });
    const refused = await build('reject');
    expect(refused.error?.message).toContain(
      `[astro-content-publisher] The collection's schema refused 1 article(s) of site 12: the article "${slug}" does not match the collection's schema`,
    );
    expect(refused.error?.message).toContain('a title may not start with "Refused"');
    expect(refused.error?.message).toContain('what was stored before is kept as it was');
    // Not a warning that leaves an old page behind silently.
    expect(refused.logs).not.toContain('the next build tries again');
    const stored = await readFile(storeFile, 'utf8');
    expect(stored).toContain(oldTitle);
    expect(stored).not.toContain('Refused by the schema');

    // The failed build's store may still write its (consistent) state late: carry on in a copy.
    const next = join(dirs.root, 'cache-after');
    await cp(dirs.cacheDir, next, { recursive: true });
    await admin(sim.url, 'PATCH', `articles/12/${slug}`, { title: 'Accepted again' });
    sim.resetStats();
    const fixed = await build('reject', next);
    expect(fixed.error).toBeUndefined();
    expect(await page(dirs.outDir, slug!)).toContain('<h1>Accepted again</h1>');
    expect(await page(dirs.outDir, other!)).toContain('A change the schema accepts.');
  });
});

describe('a schema that refuses a field of every article (a theme schema the service does not fit)', () => {
  // The detail client sends 4 requests at a time (src/loader/budget/clients.ts): those already sent when the first
  // refusal comes are the most a build spends on such a schema.
  const details = (sim: { stats(): { routes: Record<string, Record<string, number>> } }) =>
    Object.values(sim.stats().routes[DETAIL] ?? {}).reduce((a, b) => a + b, 0);

  it('a first build stops asking for details after the first refusals, and fails naming the field and the fix', async () => {
    // The AstroWind trial: 19 articles, each refused on the same field.
    const { sim, dirs, build } = await setUp('refuses-all', {}, 19);
    const refused = await build('category');
    expect(refused.error?.message).toMatch(
      /^\[astro-content-publisher\] The collection's schema refused 4 article\(s\) of site 12 \(and 3 more: [^)]+\): the article "[^"]+" does not match the collection's schema: /,
    );
    // The schema's own message, naming the field.
    expect(refused.error?.message).toMatch(/\*\*category\*\*: .*Required/);
    expect(refused.error?.message).toContain('15 articles were not asked for after the first refusal');
    expect(refused.error?.message).toContain("Fix the collection's `schema` in src/content.config.ts");
    expect(details(sim)).toBe(4);
    expect(sim.stats().authenticated).toBe(5);
    // Those not asked for wait, as articles beyond the budget do.
    expect(summaryOf(refused.logs)).toMatch(
      /^0 articles: 0 new, 0 changed, 0 removed, 0 unchanged, 15 pending; 5 requests, /,
    );

    // Nothing was taken for done: with the schema fixed, the next build fetches every article.
    const next = join(dirs.root, 'cache-after');
    await cp(dirs.cacheDir, next, { recursive: true });
    sim.resetStats();
    const fixed = await build('none', next);
    expect(fixed.error).toBeUndefined();
    expect(details(sim)).toBe(19);
    expect(await slugsOf(dirs.outDir)).toHaveLength(19);
  });

  it('a warm build keeps every stored article and spends no more than the requests already sent', async () => {
    const { sim, dirs, build } = await setUp('refuses-new');
    expect((await build('none')).error).toBeUndefined();
    const kept = await slugsOf(dirs.outDir);
    const titles = await Promise.all(
      kept.map(async (slug) => /<h1>([^<]+)<\/h1>/.exec(await page(dirs.outDir, slug))![1]!),
    );
    for (let i = 1; i <= 10; i++) {
      await admin(sim.url, 'POST', 'articles', {
        site: 12,
        slug: `new-article-${i}`,
        title: `New article ${i}`,
        language: 'en',
        content: `<p>New article ${i}.</p>`,
        published_at: '2026-03-10',
      });
    }
    sim.resetStats();
    const refused = await build('category');
    expect(refused.error?.message).toContain("The collection's schema refused 4 article(s) of site 12");
    expect(refused.error?.message).toMatch(/\*\*category\*\*: .*Required/);
    expect(refused.error?.message).toContain('6 articles were not asked for after the first refusal');
    expect(details(sim)).toBe(4);
    const stored = await readFile(join(dirs.cacheDir, 'data-store.json'), 'utf8');
    for (const title of titles) expect(stored).toContain(title);

    const next = join(dirs.root, 'cache-after');
    await cp(dirs.cacheDir, next, { recursive: true });
    sim.resetStats();
    const fixed = await build('none', next);
    expect(fixed.error).toBeUndefined();
    expect(details(sim)).toBe(10);
    expect(await slugsOf(dirs.outDir)).toHaveLength(12);
  });
});
