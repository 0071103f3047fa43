// Three popular Astro blog themes that nobody here wrote, wired only by the README (install, loader,
// integration, "Mapping the articles to a theme's schema") from the packed tarball, built with `astro build`
// against the simulator and served by `astro preview`: every URL the built site names answers 200, and an
// edit on the service shows on the next build. The fixtures, their licences and every change made to them
// are in test/fixtures/theme-*/SOURCES.md. Slow by nature: one `npm install` (registry cache first).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from 'astro-content-publisher/simulator';
import { checkSiteUrls, urlsOfHtml } from './site-urls.js';
import {
  buildTheme,
  checkTypes,
  copyTheme,
  prepareWorkspace,
  REPO,
  runScript,
  type Workspace,
} from './theme-project.js';
import {
  detailLanguage,
  editOnService,
  headings,
  pageText,
  renameOnService,
  serviceArticles,
  serviceDetail,
  serviceSiteOrigin,
  unpublishOnService,
  type ServiceArticle,
} from './theme-checks.js';
import { buildAndCheck, serviceEnv, SITE, whileServed } from './theme-site.js';
import { wireCactusHead, wireStarterHead } from './head-wiring.js';
import { expectServedBlog } from './served-head.js';

const I18N = join(REPO, 'test/fixtures/theme-i18n-starter');
const CACTUS = join(REPO, 'test/fixtures/theme-cactus');
const PAPER = join(REPO, 'test/fixtures/theme-paper');
const STARTER = join(REPO, 'test/fixtures/pack-starter');

/** The summary `astro check` ends with when it found no error (its run is part of two themes' `build`). */
const NO_TYPE_ERRORS = /Result \(\d+ files\):\s*\n- 0 errors/;

let workspace: Workspace;

beforeAll(async () => {
  // The blog starter copy (no package.json of its own) needs what `astro check` runs on.
  workspace = await prepareWorkspace([I18N, CACTUS, PAPER], ['@astrojs/check@^0.9.10', 'typescript@^5.9.3']);
}, 600_000);

afterAll(() => {
  // A node_modules tree takes seconds to delete on a slow disk: a detached `rm` does it after the file.
  if (workspace) spawn('rm', ['-rf', workspace.dir], { detached: true, stdio: 'ignore' }).unref();
});

// Two themes at a time, in two lanes of about the same length (describe.concurrent; within a lane, one after the
// other): each theme has its own simulator and copy, and a build waits on the disk and Rolldown's threads for part
// of its time. Four at once on two loaded cores pushed single builds past their 300-second limit.
describe.concurrent('lane 1', () => {
  describe(
    'theme-cactus (chrismwilliams/astro-theme-cactus: /posts/<slug>/, cover images with <Image>, Tailwind)',
    { concurrent: false },
    () => {
      let simulator: Simulator;
      let siteId: number;

      beforeAll(async () => {
        simulator = await startSimulator({ articles: 14 });
        siteId = simulator.sites.agence[0]!;
      });
      afterAll(async () => simulator?.close());

      it('wired by the README and the head guide: every URL answers 200, one page per article, an edit, a rename and an unpublish show on the next build, every head tag and the redirect from the served pages', async () => {
        const dir = copyTheme(workspace, CACTUS, 'cactus');
        wireCactusHead(dir);
        // A `_redirects` of the blog's own: the build appends the rename's 301 to it.
        mkdirSync(join(dir, 'public'), { recursive: true });
        writeFileSync(join(dir, 'public/_redirects'), '/old-home / 301\n');
        const env = serviceEnv(simulator, siteId);
        const articles = await serviceArticles(simulator, siteId);
        expect(articles).toHaveLength(14);
        const pageOf = (a: ServiceArticle) => `posts/${a.slug}/`;

        const { check } = await buildAndCheck('theme-cactus', dir, env, simulator, siteId, [
          '/rss.xml',
          '/notes/rss.xml',
        ]);
        expect(check.failures).toEqual([]);
        // The theme's `check` script: the mapped schema's types fit its pages (BlogPost reads ogImage, for one), and
        // the head guide's wiring of BlogPost.astro.
        expect(await runScript(dir, 'check', env)).toMatch(NO_TYPE_ERRORS);
        for (const article of articles)
          expect(pageText(dir, pageOf(article)), pageOf(article)).toContain(article.title);
        const articleLocs = check.sitemapLocs.filter(
          (loc) => /\/posts\/[^/]+\/$/.test(loc) && !/\/posts\/\d+\/$/.test(loc),
        );
        expect(articleLocs.sort()).toEqual(articles.map((a) => `${SITE}/${pageOf(a)}`).sort());
        expect([...(check.feedLinks.get('/rss.xml') ?? [])].sort()).toEqual(
          articles.map((a) => `${SITE}/${pageOf(a)}`).sort(),
        );
        expect(readFileSync(join(dir, 'dist/rss.xml'), 'utf8')).toContain('<title>Astro Cactus</title>');
        const own = new Set(articles.map((a) => a.slug));
        expect(
          check.serviceUrls.filter((u) => own.has(/\/blog\/([^/]+)\/$/.exec(new URL(u.url).pathname)?.[1] ?? '')),
        ).toEqual([]);
        // The theme's reading time, from the README's readingTime() (the theme's remark plugin sees no Markdown).
        expect(pageText(dir, pageOf(articles[0]!))).toMatch(/\d+ min read/);
        // The cover image (featuredImageAsset, mapped by the schema's transform) through the theme's <Image>.
        for (const article of articles) {
          const html = readFileSync(join(dir, 'dist', pageOf(article), 'index.html'), 'utf8');
          expect(html, pageOf(article)).toMatch(/<div class="mb-6 aspect-video"><img[^>]+src="\/_astro\/[^"]+"/);
        }

        // An edit on the service: title and body of one article change; in the same build, another is renamed and a
        // third unpublished.
        const edited = articles[3]!;
        const { title, marker } = await editOnService(simulator, siteId, edited);
        const moved = { from: articles[5]!.slug, to: `${articles[5]!.slug}-renamed` };
        await renameOnService(simulator, siteId, moved.from, moved.to);
        const unpublished = articles[7]!.slug;
        await unpublishOnService(simulator, siteId, unpublished);
        const rebuilt = await buildTheme(dir, env);
        // An article with a featured image: the edit is accepted and shows on the next build.
        expect(rebuilt).not.toMatch(/does not match collection schema/);
        expect(pageText(dir, pageOf(edited))).toContain(title);
        expect(pageText(dir, pageOf(edited))).toContain(marker);
        expect(pageText(dir, 'posts/')).toContain(title);
        // Hosts that read `_redirects` answer the old URL with a 301, after the blog's own lines.
        expect(readFileSync(join(dir, 'dist/_redirects'), 'utf8')).toMatch(
          new RegExp(`^/old-home / 301\\n[\\s\\S]*^/posts/${moved.from}/ /posts/${moved.to}/ 301$`, 'm'),
        );
        const live = await Promise.all(
          (await serviceArticles(simulator, siteId)).map((a) => serviceDetail(simulator, siteId, a.slug)),
        );
        await whileServed(dir, env, (local) =>
          expectServedBlog(local, {
            site: SITE,
            pageOf: (slug) => `/posts/${slug}/`,
            live,
            moved,
            unpublished,
            // Cactus' head writes article:published_time only (the JSON-LD has dateModified).
            modifiedTag: false,
          }),
        );
      }, 900_000);
    },
  );

  describe(
    "Astro's blog starter (test/fixtures/pack-starter), wired as the README's quick start and the head guide say",
    { concurrent: false },
    () => {
      let simulator: Simulator;
      let siteId: number;

      beforeAll(async () => {
        // Six articles: a rename and an unpublish stay below the loader's mass-removal guard (half the store).
        simulator = await startSimulator({ articles: 6 });
        siteId = simulator.sites.agence[0]!;
      });
      afterAll(async () => simulator?.close());

      it("astro check finds no error (heroImage is an ImageMetadata for <Image>, about.astro may pass the layout only the starter's fields, the guide's BaseHead); after a rename and an unpublish, every URL the site names answers 200, the sitemap and the feed list exactly the published articles, every head tag and the redirect from the served pages", async () => {
        const dir = copyTheme(workspace, STARTER, 'starter');
        wireStarterHead(dir);
        const env = serviceEnv(simulator, siteId);
        const output = await checkTypes(dir, env);
        expect(output).toMatch(NO_TYPE_ERRORS);
        // The starter's pages were checked: its layout, its list and its about page among them.
        expect(Number(/Result \((\d+) files\)/.exec(output)?.[1])).toBeGreaterThanOrEqual(10);

        // Built once before the service renames one article and unpublishes another: the next build redirects.
        const articles = await serviceArticles(simulator, siteId);
        expect(articles).toHaveLength(6);
        expect(await buildTheme(dir, env)).not.toContain(simulator.tokens.agence);
        const moved = { from: articles[1]!.slug, to: `${articles[1]!.slug}-renamed` };
        await renameOnService(simulator, siteId, moved.from, moved.to);
        const unpublished = articles[2]!.slug;
        await unpublishOnService(simulator, siteId, unpublished);
        expect(await buildTheme(dir, env)).not.toMatch(/does not match collection schema/);
        const live = await Promise.all(
          (await serviceArticles(simulator, siteId)).map((a) => serviceDetail(simulator, siteId, a.slug)),
        );
        expect(live).toHaveLength(5);
        const serviceOrigin = await serviceSiteOrigin(simulator, siteId);
        await whileServed(dir, env, async (local) => {
          await expectServedBlog(local, {
            site: SITE,
            pageOf: (slug) => `/blog/${slug}/`,
            live,
            moved,
            unpublished,
            modifiedTag: true,
          });
          // Every URL the built site names (pages, sitemap, feed, images) answers 200; the sitemap and the feed list
          // exactly the articles still published, at their new URLs, and no link goes to the service's own copy.
          const check = await checkSiteUrls({
            local,
            outDir: join(dir, 'dist'),
            site: SITE,
            serviceOrigin,
            feeds: ['/rss.xml'],
          });
          console.log(`[theme-starter] ${check.checked} URLs checked, ${check.failures.length} not 200`);
          expect(check.failures).toEqual([]);
          const pages = live.map((a) => `${SITE}/blog/${a.slug}/`).sort();
          expect(check.sitemapLocs.filter((loc) => /\/blog\/[^/]+\/$/.test(loc)).sort()).toEqual(pages);
          expect([...(check.feedLinks.get('/rss.xml') ?? [])].sort()).toEqual(pages);
          const own = new Set(live.map((a) => a.slug));
          expect(
            check.serviceUrls.filter((u) => own.has(/\/blog\/([^/]+)\/?$/.exec(new URL(u.url).pathname)?.[1] ?? '')),
          ).toEqual([]);
        });
        expect(readFileSync(join(dir, 'dist/rss.xml'), 'utf8')).toContain('<title>Astro Blog</title>');
      }, 900_000);
    },
  );
});

describe.concurrent('lane 2', () => {
  describe(
    'theme-i18n-starter (psephopaiktes/astro-i18n-starter: /<lang>/blog/<slug>/, covers with <Image>)',
    { concurrent: false },
    () => {
      let simulator: Simulator;
      let siteId: number;
      const blogLanguages = ['en', 'fr'];

      beforeAll(async () => {
        simulator = await startSimulator({ articles: 16, profile: 'multilingual' });
        siteId = simulator.sites.agence[0]!;
      });
      afterAll(async () => simulator?.close());

      it('wired by the README: every URL answers 200, one page per article of the blog languages, an edit shows on the next build', async () => {
        const dir = copyTheme(workspace, I18N, 'i18n');
        const env = serviceEnv(simulator, siteId);
        const all = await serviceArticles(simulator, siteId);
        const ours = all.filter((a) => blogLanguages.includes(a.language));
        const others = all.filter((a) => !blogLanguages.includes(a.language));
        expect(ours.length).toBeGreaterThanOrEqual(6);
        expect(others.length).toBeGreaterThan(0);
        const pageOf = (a: ServiceArticle) => `${a.language}/blog/${a.slug}/`;

        const { log, check } = await buildAndCheck('theme-i18n-starter', dir, env, simulator, siteId, [
          '/en/rss.xml',
          '/fr/rss.xml',
        ]);
        // The theme's build runs `astro check` first: the mapped schema's types fit its pages.
        expect(log).toMatch(NO_TYPE_ERRORS);
        for (const article of ours) {
          expect(pageText(dir, pageOf(article)), pageOf(article)).toContain(article.title);
        }
        for (const article of others) expect(existsSync(join(dir, 'dist', pageOf(article)))).toBe(false);
        // A slug in both languages: each page's headings show its own language's article, never the other's (the
        // bodies may name the other one: they link to other articles by title).
        for (const en of ours.filter((a) => a.language === 'en')) {
          const fr = ours.find((b) => b.language === 'fr' && b.slug === en.slug);
          if (fr === undefined || fr.title === en.title) continue;
          expect(headings(dir, pageOf(fr), 'h1')).toContain(fr.title);
          expect(headings(dir, pageOf(fr), 'h1')).not.toContain(en.title);
          expect(headings(dir, pageOf(en), 'h1')).toContain(en.title);
          expect(headings(dir, pageOf(en), 'h1')).not.toContain(fr.title);
        }
        // The pages' own URLs (links, stylesheets, scripts, images) answer 200 whatever the pattern does.
        expect(check.failures.filter((f) => f.from.endsWith('.html'))).toEqual([]);
        // Links to the service stay only for articles the blog does not have (README: "Links inside articles").
        const own = new Set(ours.map((a) => a.slug));
        expect(
          check.serviceUrls.filter((u) => own.has(/\/blog\/([^/]+)\/$/.exec(new URL(u.url).pathname)?.[1] ?? '')),
        ).toEqual([]);

        const inBlog = (list: ServiceArticle[]) => list.map((a) => `${SITE}/${pageOf(a)}`).sort();
        // Every URL answers 200; the sitemap lists the articles of the blog's languages only, each language's
        // feed its own articles, at /<lang>/blog/<slug>/ (articlePattern with [lang]).
        expect(check.failures).toEqual([]);
        expect(check.sitemapLocs.filter((loc) => /\/blog\/[^/]+\/$/.test(loc)).sort()).toEqual(inBlog(ours));
        for (const language of blogLanguages) {
          const feed = `/${language}/rss.xml`;
          expect([...(check.feedLinks.get(feed) ?? [])].sort(), feed).toEqual(
            inBlog(ours.filter((a) => a.language === language)),
          );
        }
        // The same slug in en and fr: hreflang alternates in the sitemap.
        {
          const sitemap = readFileSync(join(dir, 'dist/sitemap.xml'), 'utf8');
          const shared = ours.find(
            (a) => a.language === 'en' && ours.some((b) => b.language === 'fr' && b.slug === a.slug),
          );
          expect(shared, 'a slug published in en and fr').toBeDefined();
          expect(sitemap).toMatch(new RegExp(`hreflang="fr"\\s+href="${SITE}/fr/blog/${shared!.slug}/"`));
        }
        // The cover (featuredImageAsset) through <Image> on every page whose slug's detail answers its language.
        // The others (a slug in both languages: the detail call has no language and answers the oldest) come from
        // the feed, which has no featured image: no cover, and their loader counts them pending and names them.
        const incomplete = new Map<string, string[]>(blogLanguages.map((language) => [language, []]));
        for (const article of ours) {
          const html = readFileSync(join(dir, 'dist', pageOf(article), 'index.html'), 'utf8');
          // Attribute order is Astro's (<Image> writes `class` after `src`): both on one tag.
          const cover = /<img(?=[^>]* class="cover[^"]*")(?=[^>]* src="\/_astro\/)[^>]*>/;
          if ((await detailLanguage(simulator, siteId, article.slug)) === article.language)
            expect(html, pageOf(article)).toMatch(cover);
          else {
            expect(html, pageOf(article)).not.toMatch(cover);
            incomplete.get(article.language)!.push(article.slug);
          }
        }
        expect(
          [...incomplete.values()].flat().length,
          'a slug whose detail answers the other language',
        ).toBeGreaterThan(0);
        for (const [language, slugs] of incomplete) {
          const summary = new RegExp(`lang-${language}\\] \\d+ articles?: [^\\n]*, (\\d+) pending;`).exec(log);
          expect(Number(summary?.[1]), `${language}: ${summary?.[0]}`).toBeGreaterThanOrEqual(slugs.length);
          if (slugs.length)
            expect(log).toMatch(
              new RegExp(`lang-${language}\\] ${slugs.length} article\\(s\\) [^\\n]*lack the featured image`),
            );
        }

        // An edit on the service: the English article's title and body change; the French one of that slug stays.
        const edited = ours.find(
          (a) => a.language === 'en' && ours.some((b) => b.language === 'fr' && b.slug === a.slug),
        )!;
        const { title, marker } = await editOnService(simulator, siteId, edited, 'en');
        const rebuilt = await buildTheme(dir, env);
        expect(rebuilt).not.toMatch(/does not match collection schema/);
        expect(pageText(dir, pageOf(edited))).toContain(title);
        expect(pageText(dir, pageOf(edited))).toContain(marker);
        expect(pageText(dir, `fr/blog/${edited.slug}/`)).not.toContain(marker);
      }, 900_000);
    },
  );

  describe(
    "theme-paper (satnaing/astro-paper: /posts/<slug>/ from the theme's own getPath(id, filePath), Tailwind)",
    { concurrent: false },
    () => {
      let simulator: Simulator;
      let siteId: number;

      beforeAll(async () => {
        simulator = await startSimulator({ articles: 10 });
        siteId = simulator.sites.agence[0]!;
      });
      afterAll(async () => simulator?.close());

      it('wired by the README: every URL answers 200, one page per article at /posts/<slug>/, an edit shows on the next build', async () => {
        const dir = copyTheme(workspace, PAPER, 'paper');
        const env = serviceEnv(simulator, siteId);
        const articles = await serviceArticles(simulator, siteId);
        expect(articles).toHaveLength(10);
        const pageOf = (a: ServiceArticle) => `posts/${a.slug}/`;
        const url = (path: string) => `${SITE}/${path}`;
        const isBuiltPage = (href: string) => existsSync(join(dir, 'dist', new URL(href).pathname, 'index.html'));

        const { log, check } = await buildAndCheck('theme-paper', dir, env, simulator, siteId, ['/rss.xml']);
        expect(check.failures).toEqual([]);
        // The theme's build runs `astro check` first: the mapped schema's types fit its pages.
        expect(log).toMatch(NO_TYPE_ERRORS);
        // The theme's unchanged getPath keeps the folders of an entry's filePath between its blog folder and the
        // file. An article's filePath is its id, so each page is /posts/<slug>/; a filePath naming a file in the
        // image cache put the pages at /posts/node-modules/..., which answer 200 too: only the paths tell.
        const built = readdirSync(join(dir, 'dist'), { recursive: true }).map(String);
        expect(built.filter((path) => /node[-_]modules/.test(path))).toEqual([]);
        for (const article of articles) {
          expect(existsSync(join(dir, 'dist', pageOf(article), 'index.html')), pageOf(article)).toBe(true);
          expect(pageText(dir, pageOf(article)), pageOf(article)).toContain(article.title);
        }
        // Under posts/: the articles and the theme's pagination (/posts/2/), nothing else.
        expect(
          readdirSync(join(dir, 'dist/posts'))
            .filter((name) => !/^\d+$/.test(name) && name !== 'index.html')
            .sort(),
        ).toEqual(articles.map((a) => a.slug).sort());
        // The theme's own links to posts (cards, previous/next), built by getPath, name the articles' pages.
        const postLinks = new Set<string>();
        for (const page of ['posts/', ...articles.map(pageOf)]) {
          const html = readFileSync(join(dir, 'dist', page, 'index.html'), 'utf8');
          for (const href of urlsOfHtml(html, url(page))) {
            const slug = /^\/posts\/([^/]+)\/?$/.exec(new URL(href).pathname)?.[1];
            if (slug !== undefined && !/^\d+$/.test(slug)) postLinks.add(slug);
          }
        }
        expect([...postLinks].sort()).toEqual(articles.map((a) => a.slug).sort());

        // The sitemap and the feed list the articles at their pages, and only pages the build wrote.
        const articleUrls = articles.map((a) => url(pageOf(a))).sort();
        expect(
          check.sitemapLocs.filter((loc) => /\/posts\/[^/]+\/$/.test(loc) && !/\/posts\/\d+\/$/.test(loc)).sort(),
        ).toEqual(articleUrls);
        expect(check.sitemapLocs.filter((loc) => !isBuiltPage(loc))).toEqual([]);
        const feed = check.feedLinks.get('/rss.xml') ?? [];
        expect([...feed].sort()).toEqual(articleUrls);
        expect(feed.filter((link) => !isBuiltPage(link))).toEqual([]);
        expect(readFileSync(join(dir, 'dist/rss.xml'), 'utf8')).toContain('<title>AstroPaper</title>');
        // The theme's ogImage is the featured image's local copy (featuredImageAsset): its og:image is a built file.
        for (const article of articles) {
          const html = readFileSync(join(dir, 'dist', pageOf(article), 'index.html'), 'utf8');
          const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1] ?? '';
          expect(ogImage, pageOf(article)).toMatch(/^https:\/\/example\.com\/_astro\//);
          expect(existsSync(join(dir, 'dist', new URL(ogImage).pathname)), ogImage).toBe(true);
        }

        // An edit on the service: title and body of one article change.
        const edited = articles[3]!;
        const { title, marker } = await editOnService(simulator, siteId, edited);
        const rebuilt = await buildTheme(dir, env);
        expect(rebuilt).not.toMatch(/does not match collection schema/);
        expect(pageText(dir, pageOf(edited))).toContain(title);
        expect(pageText(dir, pageOf(edited))).toContain(marker);
        // The theme sorts by the modification date: the edited article leads the first list page.
        expect(headings(dir, 'posts/', 'h2')[0]).toBe(title);
      }, 900_000);
    },
  );
});
