/**
 * articlesLoader's image step, by real builds: allowed images become Astro-optimised local images served
 * from the blog, a warm build downloads nothing, a failed image keeps its remote URL with one warning
 * (strict fails), SVG and other hosts are never fetched, `images: false` leaves everything remote.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'devalue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AstroInlineConfig } from 'astro';
import { startSimulator, type ServiceVariants, type Simulator } from '../../src/simulator/index.js';
import { admin, buildFixture, isolatedSite, readTree } from './loader-harness.js';

// Every test has its own simulator, its own copy of the fixture site and its own directories, and builds
// the state it needs itself: no test reads what another one left (any order, any machine speed).
// Each test runs several real builds: on a busy machine they are slow, which must not fail the test.
vi.setConfig({ testTimeout: 300_000 });
const MEDIA = 'GET /media/*';
const imgTags = (html: string) => html.match(/<img\b[^>]*>/g) ?? [];

type Site = Awaited<ReturnType<typeof isolatedSite>>;
type EntryFields = { filePath?: string; digest?: string };
const owned: Array<{ sim: Simulator; site: Site }> = [];
afterEach(async () => {
  for (const { sim, site } of owned.splice(0)) {
    await sim.close();
    await site.cleanup();
  }
});

async function setUp(prefix: string, variants: ServiceVariants = {}) {
  const sim = await startSimulator({ articles: 3, rateLimitOverride: 100_000, variants });
  const site = await isolatedSite('images-site', prefix);
  owned.push({ sim, site });
  const build = (extra: Record<string, string> = {}, inline?: AstroInlineConfig) =>
    buildFixture({
      root: site.root,
      outDir: site.outDir,
      cacheDir: site.cacheDir,
      inline,
      env: {
        PUBLISHER_SITE_ID: '12',
        PUBLISHER_BASE_URL: sim.url,
        PUBLISHER_API_KEY: sim.tokens.pro,
        ...extra,
      },
    });
  const mediaCount = (status: string) => sim.stats().routes[MEDIA]?.[status] ?? 0;
  return { sim, site, build, mediaCount };
}

async function pages(outDir: string): Promise<Map<string, string>> {
  const files = await readTree(outDir);
  return new Map([...files].filter(([path]) => path.startsWith('blog/') && path.endsWith('.html')));
}

describe('articlesLoader images', () => {
  it("cold build: every article image and the featured image are optimised by Astro (srcset, sizes, width/height) and served from the blog; a warm build (imageCaching 'immutable', the default) asks nothing of the image host; images: false puts every image back on the remote URL", async () => {
    const { sim, site: dirs, build, mediaCount } = await setUp('images-cold');
    const result = await build();
    expect(result.error).toBeUndefined();
    // 3 images in each article's HTML and 1 featured image each, through the same cache.
    expect(result.logs).toContain('images: 12 downloaded, 0 cached');
    expect(mediaCount('200')).toBe(12);
    expect(sim.stats().requests.filter((r) => r.route === MEDIA && r.path.endsWith('/featured.jpg'))).toHaveLength(3);
    const built = await pages(dirs.outDir);
    expect(built.size).toBe(3);
    for (const html of built.values()) {
      const all = imgTags(html);
      const featured = all.filter((t) => t.includes('class="featured"'));
      const tags = all.filter((t) => !t.includes('class="featured"'));
      expect(tags).toHaveLength(3);
      for (const tag of tags) {
        expect(tag).toMatch(/ src="\/_astro\/[^"]+\.webp"/);
        expect(tag).toMatch(/ srcset="[^"]*\/_astro\/[^"]+ \d+w/);
        expect(tag).toMatch(/ sizes="[^"]+"/);
        expect(tag).toMatch(/ width="640" height="400"/);
        expect(tag).not.toContain(sim.url);
        const file = /src="(\/_astro\/[^"]+)"/.exec(tag)![1]!;
        expect((await readFile(join(dirs.outDir, file))).subarray(8, 12).toString('latin1')).toBe('WEBP');
      }
      // entry.data.featuredImageAsset is an ImageMetadata: <Image> sized it (a remote string without width would fail the build).
      expect(featured).toHaveLength(1);
      expect(featured[0]).toMatch(/ src="\/_astro\/[^"]+\.webp"/);
      expect(featured[0]).toMatch(/ srcset="\/_astro\/[^"]+ 320w, \/_astro\/[^"]+ 640w"/);
      expect(featured[0]).toMatch(/ width="\d+" height="\d+"/);
      expect(featured[0]).not.toContain(sim.url);
    }

    /** A build that asks nothing of the image host (no download, no revalidation): its 3 pages of 4 images each. */
    const rebuiltAskingNoImage = async (extra: Record<string, string> = {}) => {
      sim.resetStats();
      const result = await build(extra);
      expect(result.error).toBeUndefined();
      expect(sim.stats().routes[MEDIA]).toBeUndefined();
      const rebuilt = await pages(dirs.outDir);
      expect(rebuilt.size).toBe(3);
      for (const html of rebuilt.values()) expect(imgTags(html)).toHaveLength(4);
      return [...rebuilt.values()];
    };

    // Warm: every image still the local copy.
    for (const html of await rebuiltAskingNoImage())
      expect(imgTags(html).every((t) => t.includes('src="/_astro/'))).toBe(true);
    await expect(admin(sim.url, 'POST', 'media', { url: `${sim.url}/media/sites/12/a/featured.jpg` })).rejects.toThrow(
      /409 .*imageCaching is 'immutable'/,
    );

    // images: false: every image back on its remote URL.
    for (const html of await rebuiltAskingNoImage({ IMAGES_TEST_OFF: '1' })) {
      expect(imgTags(html).every((t) => !t.includes('/_astro/'))).toBe(true);
      expect(html).toMatch(
        /<img class="featured" src="http:\/\/127\.0\.0\.1:\d+\/media\/sites\/12\/[^"]+\/featured\.jpg"/,
      );
    }
  });

  it("Astro's default cacheDir (inside the project): the same optimised images, and each entry's filePath is its id, with no folder in it (themes build URLs from it)", async () => {
    const { sim, site: dirs } = await setUp('images-in-root');
    const cacheDir = join(dirs.root, 'node_modules', '.astro');
    const build = () =>
      buildFixture({
        root: dirs.root,
        outDir: dirs.outDir,
        cacheDir,
        env: { PUBLISHER_SITE_ID: '12', PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro },
      });
    const optimised = async () => {
      const built = await pages(dirs.outDir);
      expect(built.size).toBe(3);
      for (const html of built.values()) {
        expect(imgTags(html)).toHaveLength(4);
        for (const tag of imgTags(html)) expect(tag).toMatch(/ src="\/_astro\/[^"]+\.webp"/);
      }
    };
    const storeFile = join(cacheDir, 'data-store.json');
    const entries = async () => {
      const store = parse(await readFile(storeFile, 'utf8')) as Map<string, Map<string, EntryFields>>;
      return [...store.get('articles')!];
    };
    expect((await build()).error).toBeUndefined();
    await optimised();
    for (const [id, entry] of await entries()) expect(entry.filePath).toBe(id);

    // A store written by 0.1.0: local copies named `./<file>`, resolved against a name in the cache folder
    // that every such entry had as its filePath (and digests of that HTML). The next build names them again
    // from the cache, without a download.
    const cacheFolder = 'node_modules/.astro/astro-content-publisher/images/';
    const written = parse(await readFile(storeFile, 'utf8')) as Map<string, Map<string, EntryFields>>;
    for (const entry of written.get('articles')!.values()) {
      entry.filePath = `${cacheFolder}articles`;
      entry.digest = entry.digest!.split('').reverse().join('');
    }
    const old = stringify(written).replaceAll(`/${cacheFolder}`, './');
    expect(old).not.toContain(`/${cacheFolder}`);
    await writeFile(storeFile, old);
    sim.resetStats();
    const upgraded = await build();
    expect(upgraded.error).toBeUndefined();
    expect(sim.stats().routes[MEDIA]).toBeUndefined();
    await optimised();
    for (const [id, entry] of await entries()) expect(entry.filePath).toBe(id);
  });

  it('a failing image keeps its remote URL with one warning; SVG and other hosts are never fetched; strict fails', async () => {
    const { sim, site: dirs, build } = await setUp('images-failing');
    const missing = `${sim.url}/media/sites/12/broken/missing-1.jpg`;
    const svg = `${sim.url}/media/sites/12/broken/logo.svg`;
    const other = 'https://images.other.example/a.jpg';
    const good = `${sim.url}/media/sites/12/broken/figure-1.png`;
    await admin(sim.url, 'POST', 'articles', {
      site: 12,
      slug: 'broken-images',
      title: 'Broken images',
      content: `<p>x</p><img src="${missing}" alt="gone" width="10" height="10"><img src="${svg}" alt="svg"><img src="${other}" alt="elsewhere"><img src="${good}" alt="fine" width="640" height="400">`,
    });
    const result = await build();
    expect(result.error).toBeUndefined();
    const warnings = result.logs.split('\n').filter((l) => l.includes('could not be fetched'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `1 article image(s) could not be fetched (first: from ${new URL(sim.url).host}: HTTP 404)`,
    );
    // What the build asked of the image host: the other articles' 12 images, each once, and this article's.
    const media = sim.stats().requests.filter((r) => r.route === MEDIA);
    const broken = (path: string) => /\/(broken|broken-images)\//.test(path);
    expect(media.filter((r) => !broken(r.path)).map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(
      media
        .filter((r) => broken(r.path))
        .map((r) => r.path)
        .sort(),
    ).toEqual([
      '/media/sites/12/broken-images/featured.jpg',
      '/media/sites/12/broken/figure-1.png',
      '/media/sites/12/broken/missing-1.jpg',
    ]);
    const html = (await pages(dirs.outDir)).get('blog/broken-images/index.html') ?? '';
    expect(html).toContain(`src="${missing}"`);
    expect(html).toContain(`src="${svg}"`);
    expect(html).toContain(`src="${other}"`);
    expect(html).not.toContain('<svg');
    expect(imgTags(html).filter((t) => t.includes('src="/_astro/') && !t.includes('class="featured"'))).toHaveLength(1);
    expect(imgTags(html).filter((t) => t.includes('src="/_astro/') && t.includes('class="featured"'))).toHaveLength(1);

    // Last: a build that fails leaves nothing another build of this test reads.
    const strict = await build({ IMAGES_TEST_STRICT: '1' });
    expect(strict.error?.message).toMatch(
      /1 article image\(s\) could not be fetched .*strict: true turns this warning into a failure/,
    );
  });
});

describe('articlesLoader images: an image whose bytes change under the same URL (imageCaching)', () => {
  const incremental: AstroInlineConfig = {
    experimental: { incrementalBuild: true },
    vite: { build: { emptyOutDir: false } },
  };
  /** The `src` of each page's images, in order (the featured image first). */
  const sources = async (outDir: string) =>
    new Map(
      [...(await pages(outDir))].map(([path, html]) => [path, imgTags(html).map((t) => /src="([^"]+)"/.exec(t)![1]!)]),
    );

  it.each(['revalidate', 'none'] as const)(
    "imageCaching '%s': a replaced image is fetched again, its article's page shows the new one in an incremental build, nothing else changes",
    async (mode) => {
      const { sim, site: dirs, build, mediaCount } = await setUp(`images-replaced-${mode}`, { imageCaching: mode });
      expect((await build({}, incremental)).error).toBeUndefined();
      const before = await sources(dirs.outDir);
      // One article's featured image and its first body image get other bytes; the article itself does not change.
      const auth = { authorization: `Bearer ${sim.tokens.pro}` };
      const list = (await (await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: auth })).json()) as {
        results: Array<{ slug: string }>;
      };
      const slug = list.results[0]!.slug;
      const detail = (await (
        await fetch(`${sim.url}/api/v1/sites/12/articles/${slug}/`, { headers: auth })
      ).json()) as {
        featured_image: string;
        content: string;
      };
      const bodyImage = /<img[^>]* src="([^"]+)"/.exec(detail.content)![1]!;
      for (const url of [detail.featured_image, bodyImage]) await admin(sim.url, 'POST', 'media', { url });
      sim.resetStats();

      const result = await build({}, incremental);
      expect(result.error).toBeUndefined();
      expect(result.logs).toContain('2 replaced under the same URL (their articles written again)');
      expect(sim.stats().authenticated).toBe(1);
      // 'revalidate': conditional requests, 304 for the ten others; 'none' (no validator): every image again.
      expect(mediaCount('200')).toBe(mode === 'revalidate' ? 2 : 12);
      expect(mediaCount('304')).toBe(mode === 'revalidate' ? 10 : 0);
      const after = await sources(dirs.outDir);
      const page = `blog/${slug}/index.html`;
      expect(after.get(page)![0]).not.toBe(before.get(page)![0]);
      expect(after.get(page)![1]).not.toBe(before.get(page)![1]);
      expect(after.get(page)!.slice(2)).toEqual(before.get(page)!.slice(2));
      for (const [path, srcs] of after) if (path !== page) expect(srcs, path).toEqual(before.get(path));
      for (const src of after.get(page)!) await expect(readFile(join(dirs.outDir, src))).resolves.toBeDefined();

      // The next build: the host confirms every copy (or, with no validator, sends the same bytes again).
      sim.resetStats();
      const again = await build({}, incremental);
      expect(again.error).toBeUndefined();
      expect(again.logs).not.toContain('replaced under the same URL');
      expect(mediaCount(mode === 'revalidate' ? '304' : '200')).toBe(12);
      expect(await sources(dirs.outDir)).toEqual(after);
    },
  );

  it('an image replaced while an article naming it is not written again (its fetch failed): the build passes, and both articles show the new image', async () => {
    // No feed content: a changed article needs its detail, which fails below.
    const {
      sim,
      site: dirs,
      build,
    } = await setUp('images-replaced-kept', {
      imageCaching: 'revalidate',
      rssContent: 'none',
    });
    const auth = { authorization: `Bearer ${sim.tokens.pro}` };
    const list = (await (await fetch(`${sim.url}/api/v1/sites/12/articles/`, { headers: auth })).json()) as {
      results: Array<{ slug: string }>;
    };
    const a = list.results[0]!.slug;
    const image = `${sim.url}/media/sites/12/${a}/figure-1.jpg`;
    // Article B names A's image (found by a new user on Fuwari: one image in two articles).
    await admin(sim.url, 'POST', 'articles', {
      site: 12,
      title: "B names A's image",
      slug: 'b-shares',
      content: `<p>B</p><figure><img src="${image}" alt="shared" width="640" height="400"></figure>`,
    });
    expect((await build({}, incremental)).error).toBeUndefined();
    const before = await sources(dirs.outDir);

    // A is edited, its detail fails, and its image gets other bytes meanwhile.
    await admin(sim.url, 'PATCH', `articles/12/${a}`, { title: 'A edited' });
    await admin(sim.url, 'POST', 'faults', { route: `GET /api/v1/sites/12/articles/${a}/`, status: 503 });
    await admin(sim.url, 'POST', 'media', { url: image });
    const result = await build({}, incremental);
    expect(result.error).toBeUndefined();
    expect(result.logs).toContain('1 replaced under the same URL');
    const after = await sources(dirs.outDir);
    // The two pages that show the image show its new copy (A's page from its stored entry, refreshed).
    expect(after.get('blog/b-shares/index.html')).not.toEqual(before.get('blog/b-shares/index.html'));
    expect(after.get(`blog/${a}/index.html`)![1]).not.toBe(before.get(`blog/${a}/index.html`)![1]);
    for (const src of [...after.values()].flat().filter((src) => src.startsWith('/_astro/')))
      await expect(readFile(join(dirs.outDir, src))).resolves.toBeDefined();

    await admin(sim.url, 'DELETE', 'faults');
    expect((await build({}, incremental)).error).toBeUndefined();
  });
});

describe('articlesLoader images: the featured image', () => {
  it('a featured image that cannot be fetched keeps its remote URL with one warning; one from another host is not fetched', async () => {
    const { sim, site: own, build } = await setUp('images-featured');
    const missing = `${sim.url}/media/sites/12/featured-gone/missing-hero.jpg`;
    const other = 'https://images.other.example/hero.jpg';
    await admin(sim.url, 'POST', 'articles', {
      site: 12,
      slug: 'featured-gone',
      title: 'Featured gone',
      content: '<p>text only</p>',
      featured_image: missing,
    });
    await admin(sim.url, 'POST', 'articles', {
      site: 12,
      slug: 'featured-elsewhere',
      title: 'Featured elsewhere',
      content: '<p>text only</p>',
      featured_image: other,
    });
    sim.resetStats();
    const result = await build();
    expect(result.error).toBeUndefined();
    const warnings = result.logs.split('\n').filter((l) => l.includes('could not be fetched'));
    expect(warnings).toHaveLength(1);
    expect(sim.stats().requests.filter((r) => r.route === MEDIA && r.path.includes('featured-'))).toEqual([
      expect.objectContaining({ path: '/media/sites/12/featured-gone/missing-hero.jpg', status: 404 }),
    ]);
    const built = await pages(own.outDir);
    expect(built.get('blog/featured-gone/index.html')).toContain(`<img class="featured" src="${missing}"`);
    expect(built.get('blog/featured-elsewhere/index.html')).toContain(`<img class="featured" src="${other}"`);
    // The others are local and optimised.
    const others = [...built].filter(([path]) => !path.includes('/featured-'));
    expect(others).toHaveLength(3);
    for (const [, html] of others)
      expect(imgTags(html).filter((t) => t.includes('class="featured"') && t.includes('src="/_astro/'))).toHaveLength(
        1,
      );
  });
});

describe('articlesLoader images: images.maxDownloads', () => {
  it('bounds the downloads of one build, failed ones included; the rest stay remote without a warning and come with the next build', async () => {
    const { sim, build } = await setUp('images-max');
    const media = () => sim.stats().requests.filter((r) => r.route === MEDIA);
    // 12 images (3 articles, 3 in each body and a featured one), all served: exactly 2 downloads, none failed.
    // Which two is a matter of timing; the counts are not.
    const first = await build({ IMAGES_TEST_MAX_DOWNLOADS: '2' });
    expect(first.error).toBeUndefined();
    expect(media().map((r) => r.status)).toEqual([200, 200]);
    expect(first.logs).toContain('images: 2 downloaded, 0 cached, 10 left for the next build (images.maxDownloads 2)');
    expect(first.logs).not.toContain('could not be fetched');
    const fetchedFirst = media().map((r) => r.path);

    sim.resetStats();
    const second = await build({ IMAGES_TEST_MAX_DOWNLOADS: '100' });
    expect(second.error).toBeUndefined();
    // The ten waiting ones, never the two already downloaded.
    expect(media()).toHaveLength(10);
    expect(media().filter((r) => fetchedFirst.includes(r.path))).toEqual([]);
    expect(second.logs).toMatch(/images: 10 downloaded, \d+ cached/);
    expect(second.logs).not.toContain('left for the next build');

    // An article whose four images the service does not have (404): a failed download is an attempt too,
    // and a failed image is asked for again by the next build.
    const missing = (n: number) => `${sim.url}/media/sites/12/all-missing/missing-${n}.jpg`;
    await admin(sim.url, 'POST', 'articles', {
      site: 12,
      title: 'All missing',
      slug: 'all-missing',
      featured_image: missing(0),
      content: [1, 2, 3].map((n) => `<img src="${missing(n)}" alt="gone ${n}" width="10" height="10">`).join(''),
    });
    sim.resetStats();
    const third = await build({ IMAGES_TEST_MAX_DOWNLOADS: '2' });
    expect(third.error).toBeUndefined();
    expect(media().map((r) => r.status)).toEqual([404, 404]);
    expect(third.logs).toMatch(
      /images: 0 downloaded, \d+ cached, 2 failed, 2 left for the next build \(images.maxDownloads 2\)/,
    );
    const failedThird = media().map((r) => r.path);
    sim.resetStats();
    const fourth = await build({ IMAGES_TEST_MAX_DOWNLOADS: '100' });
    expect(fourth.error).toBeUndefined();
    expect(media().map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(media().map((r) => r.path)).toEqual(expect.arrayContaining(failedThird));
  });
});
