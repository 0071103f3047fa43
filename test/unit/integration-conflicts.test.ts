import { describe, expect, it } from 'vitest';
import {
  integrationConflicts,
  missingArticlePages,
  sharedSlugProblem,
  siteIdMismatch,
  robotsTxtBody,
  robotsTxtProblem,
  routeConflicts,
  routeServesArticles,
} from '../../src/integration/blog/conflicts.js';
import {
  sitemapAliasPath,
  sitemapLinksIn,
  sitemapLinksProblem,
  type SitemapFacts,
} from '../../src/integration/blog/sitemap-links.js';
import { routeSegments } from '../support/route-segments.js';
import { builtIndexListsOurs, sitemapLinkPages } from '../../src/integration/blog/own-files.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ours = { sitemap: { path: '/sitemap.xml' }, rss: { path: '/rss.xml' } };
const SITEMAP = 'https://blog.example.com/sitemap.xml';

describe('integration conflicts: one warning naming the conflict and the fix', () => {
  it('@astrojs/sitemap beside the integration: keep ours only, or combine with customSitemaps', () => {
    const [message, ...rest] = integrationConflicts(
      ['@astrojs/mdx', '@astrojs/sitemap', 'astro-content-publisher'],
      ours,
      SITEMAP,
    );
    expect(rest).toEqual([]);
    expect(message).toContain('@astrojs/sitemap is also in `integrations`: the blog then has two sitemaps');
    expect(message).toContain(`sitemap({ customSitemaps: ["${SITEMAP}"] })`);
    expect(message).toContain('publisher({ sitemap: { includeLocalPages: false } })');
    // The blog's article pages are built pages too: without the other's filter they are listed twice.
    expect(message).toContain("leave the article pages out of the other's with its `filter` option");
  });

  it('no sitemap of ours (sitemap: false), or no other sitemap integration: nothing to say', () => {
    expect(integrationConflicts(['@astrojs/sitemap'], { ...ours, sitemap: false }, SITEMAP)).toEqual([]);
    expect(integrationConflicts(['@astrojs/mdx'], ours, SITEMAP)).toEqual([]);
  });

  it('a project route at an injected path (not an injected or internal one) is named with its file', () => {
    const routes = [
      { pattern: '/rss.xml', origin: 'project', entrypoint: 'src/pages/rss.xml.js' },
      {
        pattern: '/rss.xml',
        origin: 'external',
        entrypoint: 'node_modules/astro-content-publisher/dist/integration/routes/rss.js',
      },
      { pattern: '/sitemap.xml', origin: 'internal', entrypoint: 'x' },
    ];
    const messages = routeConflicts(routes, ours, true);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('src/pages/rss.xml.js serves /rss.xml');
    expect(messages[0]).toContain('(replacing @astrojs/rss there)');
    expect(routeConflicts(routes, { ...ours, rss: false }, false)).toEqual([]);
  });

  it("robots.txt: ours names the sitemap; the blog's own is fine with the line, warned about without it", () => {
    expect(robotsTxtBody(SITEMAP)).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${SITEMAP}\n`);
    expect(robotsTxtProblem(`User-agent: *\nsitemap:  ${SITEMAP}\n`, SITEMAP, 'public/robots.txt')).toBeUndefined();
    expect(robotsTxtProblem('User-agent: *\nDisallow:\n', SITEMAP, 'public/robots.txt')).toMatch(
      /^\[astro-content-publisher\] public\/robots.txt has no "Sitemap: https:\/\/blog.example.com\/sitemap.xml" line: /,
    );
  });
});

describe('articlePattern against the routes', () => {
  /** A page route as Astro resolves it, from its file path below src/pages ('/fr/blog/[slug]'). */
  const page = (path: string, origin = 'project', type = 'page') => ({
    type,
    origin,
    segments: routeSegments(path),
  });
  const blog = { articlePattern: '/blog/[slug]/' };
  it('a route at the pattern serves articles, prerendered or on demand; other routes do not', () => {
    expect(routeServesArticles([page('/about'), page('/blog/[slug]')], blog)).toBe(true);
    expect(routeServesArticles([page('/about'), page('/blog/first-post')], blog)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug]')], { articlePattern: '/posts/[slug]/' })).toBe(false);
    expect(routeServesArticles([page('/blog/[slug]/comments')], blog)).toBe(false);
    // Astro's own routes (server islands) and endpoints are no article page.
    expect(routeServesArticles([page('/blog/[slug]', 'internal')], blog)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug]', 'project', 'endpoint')], blog)).toBe(false);
  });
  it("an endpoint serves articles when it is written as the pattern's HTML file, and only then", () => {
    const html = { articlePattern: '/blog/[slug].html' };
    expect(routeServesArticles([page('/blog/[slug].html', 'project', 'endpoint')], html)).toBe(true);
    expect(routeServesArticles([page('/blog/[id].html', 'project', 'endpoint')], html)).toBe(true);
    expect(
      routeServesArticles([page('/[lang]/blog/[slug].html', 'project', 'endpoint')], {
        articlePattern: '/[lang]/blog/[slug].html',
      }),
    ).toBe(true);
    expect(routeServesArticles([page('/blog/[slug].json', 'project', 'endpoint')], html)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug].json', 'project', 'endpoint')], blog)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug].html', 'project', 'endpoint')], blog)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug].html', 'internal', 'endpoint')], html)).toBe(false);
    expect(routeServesArticles([page('/blog/[slug].html', 'project', 'redirect')], html)).toBe(false);
  });
  it('[lang] patterns (a folder per locale too), one pattern per language, parameters and rest parameters', () => {
    const lang = { articlePattern: '/[lang]/blog/[slug]/' };
    expect(routeServesArticles([page('/[lang]/blog/[slug]')], lang)).toBe(true);
    // Astro's i18n guide: one folder per locale, no `en` among them.
    expect(routeServesArticles([page('/fr/blog/[slug]'), page('/de/blog/[slug]')], lang)).toBe(true);
    expect(routeServesArticles([page('/fr/[slug]')], lang)).toBe(false);
    const map = { articlePattern: { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' } };
    expect(routeServesArticles([page('/fr/blog/[slug]')], map)).toBe(true);
    expect(routeServesArticles([page('/[section]/[slug]')], blog)).toBe(true);
    expect(routeServesArticles([page('/blog/[...slug]')], blog)).toBe(true);
    expect(routeServesArticles([page('/[...path]')], blog)).toBe(true);
    expect(routeServesArticles([page('/blog/post-[slug]')], blog)).toBe(true);
  });
});

describe('articlePattern against the built pages', () => {
  const layout = {
    blogSite: 'https://blog.example.com/docs/',
    articlePattern: '/blog/[slug]/',
    trailingSlash: 'ignore' as const,
  };
  it('every article has its page: nothing to say', () => {
    expect(missingArticlePages({ slugs: ['a', 'b'] }, ['', 'blog/a/', 'blog/b/'], layout)).toBeUndefined();
    expect(missingArticlePages({ slugs: ['a'] }, ['blog/a'], { ...layout, trailingSlash: 'never' })).toBeUndefined();
  });
  it('a pattern that does not match the article route: one warning with the count, an example and the fix', () => {
    expect(missingArticlePages({ slugs: ['a', 'b'] }, ['posts/a/', 'posts/b/'], layout)).toBe(
      '[astro-content-publisher] 2 of the 2 article pages of your collections were not built at articlePattern "/blog/[slug]/" (e.g. /docs/blog/a/): the sitemap and the feed leave them out, and the links inside articles go to them on the service. Set publisher({ articlePattern }) to your article route (such as "/posts/[slug]/", "/[lang]/blog/[slug]/" or one per language), or build a page for every entry.',
    );
  });
  it("names the blog's page routes with a parameter as the candidates, when the build knows them", () => {
    const message = missingArticlePages({ slugs: ['a', 'b'] }, ['posts/a/', 'posts/b/'], layout, {
      routes: ['/posts/[slug]', '/fr/posts/[...id]'],
    });
    // As articlePattern takes them (found by a new user: "/blog/[...slug]" was suggested, and refused).
    expect(message).toContain(
      `Set publisher({ articlePattern }) to the route that shows your articles; the blog's page routes with a parameter, as patterns, are "/posts/[slug]/", "/fr/posts/[slug]/" (one pattern per language`,
    );
    expect(message).not.toContain('such as "/posts/[slug]/", "/[lang]/blog/[slug]/"');
  });
  it('[lang] and per-language patterns: one page per language the collections have the slug in', () => {
    const languages = { a: ['en', 'fr'], b: ['en'] };
    const lang = { ...layout, articlePattern: '/[lang]/blog/[slug]/' };
    expect(
      missingArticlePages({ slugs: ['a', 'b'], languages }, ['en/blog/a/', 'fr/blog/a/', 'en/blog/b/'], lang),
    ).toBeUndefined();
    expect(missingArticlePages({ slugs: ['a', 'b'], languages }, ['en/blog/a/', 'en/blog/b/'], lang)).toContain(
      '1 of the 3 article pages of your collections were not built at articlePattern "/[lang]/blog/[slug]/" (e.g. /docs/fr/blog/a/)',
    );
    const map = { ...layout, articlePattern: { en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' } };
    expect(
      missingArticlePages({ slugs: ['a', 'b'], languages }, ['blog/a/', 'fr/blog/a/', 'blog/b/'], map),
    ).toBeUndefined();
  });
});

describe('the same slug in several languages', () => {
  it('one page per slug: a warning naming a slug, its languages and the patterns that fix it; none with [lang] or a map', () => {
    const articles = { languages: { a: ['en', 'fr'], b: ['en'] } };
    expect(sharedSlugProblem(articles, { articlePattern: '/blog/[slug]/' })).toBe(
      '[astro-content-publisher] 1 slug(s) are in your collections in several languages (e.g. "a" in en, fr), but articlePattern "/blog/[slug]/" has one page per slug: the languages share one URL. Give each language its route: articlePattern "/[lang]/blog/[slug]/" or one pattern per language ({ en: "/blog/[slug]/", fr: "/fr/blog/[slug]/" }).',
    );
    expect(sharedSlugProblem(articles, { articlePattern: '/[lang]/blog/[slug]/' })).toBeUndefined();
    expect(sharedSlugProblem(articles, { articlePattern: { en: '/blog/[slug]/', fr: '/fr/[slug]/' } })).toBeUndefined();
    expect(sharedSlugProblem({ languages: { b: ['en'] } }, { articlePattern: '/blog/[slug]/' })).toBeUndefined();
  });
});

describe('links to a sitemap', () => {
  const home = 'https://blog.example.com/';
  const facts = (served: string[] = []): SitemapFacts => ({
    sitemapUrl: SITEMAP,
    leadsToOurs: (url) => url === SITEMAP || url === `${home}sitemap-index.xml`,
    served: (url) => url === SITEMAP || url === `${home}sitemap-index.xml` || served.includes(url),
  });
  const problem = (html: string, served?: string[]) =>
    sitemapLinksProblem(
      sitemapLinksIn(html, home).map((link) => ({ ...link, page: 'index.html' })),
      facts(served),
    );

  it('finds <link rel="sitemap"> of any href, and <a href>/<link href> to a file named like a sitemap, on the blog only', () => {
    const html =
      '<link href=/x.xml rel=sitemap><link rel="alternate sitemap" href="/y.xml"><link rel="stylesheet" href="/x.css">' +
      '<footer><a href="/sitemap-index.xml">Sitemap</a> <a href="https://other.example/sitemap.xml">x</a>' +
      '<a href="sitemap_index.xml#top">y</a><a href="/blog/">Blog</a></footer>';
    expect(sitemapLinksIn(html, home)).toEqual([
      { url: `${home}x.xml`, element: '<link rel="sitemap">' },
      { url: `${home}y.xml`, element: '<link rel="sitemap">' },
      { url: `${home}sitemap-index.xml`, element: '<a href>' },
      { url: `${home}sitemap_index.xml`, element: '<a href>' },
    ]);
    expect(sitemapLinksIn('<a href="/blog/">no such word</a>', home)).toEqual([]);
  });

  it('ours, or its alias at /sitemap-index.xml: fine; a footer link to a sitemap the build does not write: one warning with where and the fix', () => {
    expect(problem('<link rel="sitemap" href="/sitemap.xml"><a href="/sitemap-index.xml">s</a>')).toBeUndefined();
    const message = problem('<footer><a href="/sitemap-0.xml">Sitemap</a></footer>');
    expect(message).toBe(
      `[astro-content-publisher] The blog's pages link to ${home}sitemap-0.xml (<a href> in /index.html), which the build does not write (it answers 404). ` +
        'Point the link at /sitemap.xml in the component that renders it (the layout\'s head, often BaseHead.astro, or the footer), or serve the sitemap under that name: publisher({ sitemap: { path: "/sitemap-0.xml" } }).',
    );
  });

  it('a footer link to a sitemap file of the blog\'s own is fine; a <link rel="sitemap"> to it is not (crawlers miss the articles)', () => {
    const own = [`${home}sitemap-pages.xml`];
    expect(problem('<a href="/sitemap-pages.xml">s</a>', own)).toBeUndefined();
    expect(problem('<link rel="sitemap" href="/sitemap-pages.xml">', own)).toContain(
      `${home}sitemap-pages.xml (<link rel="sitemap"> in /index.html), which does not list the service's articles`,
    );
  });

  it('the pages read: the home page, the 404 page and the first page of each folder', () => {
    const files = ['index.html', 'blog/a/index.html', 'blog/b/index.html', 'tags/x/index.html', '404.html', 'rss.xml'];
    expect(sitemapLinkPages(files).sort()).toEqual([
      '404.html',
      'blog/a/index.html',
      'index.html',
      'tags/x/index.html',
    ]);
  });

  it('the alias is /sitemap-index.xml, unless ours is there already', () => {
    expect(sitemapAliasPath('/sitemap.xml')).toBe('/sitemap-index.xml');
    expect(sitemapAliasPath('/sitemap-index.xml')).toBeUndefined();
  });

  it("the migrating guide's 'Both': a built index that lists ours leads to it (the link and robots.txt are fine); one that does not, or another file, does not", () => {
    // Found by a new user migrating a blog: the guide's own setup warned on every build.
    const outDir = mkdtempSync(join(tmpdir(), 'own-files-'));
    try {
      const index = (locs: string[]) =>
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
      writeFileSync(join(outDir, 'sitemap-index.xml'), index(['https://blog.example.com/sitemap-0.xml', SITEMAP]));
      writeFileSync(join(outDir, 'other-index.xml'), index(['https://blog.example.com/sitemap-0.xml']));
      const listsOurs = builtIndexListsOurs(pathToFileURL(`${outDir}/`), 'https://blog.example.com/', SITEMAP, true);
      const home = 'https://blog.example.com/';
      const link = (href: string) => `<link rel="sitemap" href="${href}">`;
      const linked = (href: string) =>
        sitemapLinksProblem(
          sitemapLinksIn(link(href), home).map((l) => ({ ...l, page: 'index.html' })),
          { sitemapUrl: SITEMAP, leadsToOurs: listsOurs, served: () => true },
        );
      expect(linked('/sitemap-index.xml')).toBeUndefined();
      expect(linked('/other-index.xml')).toContain("which does not list the service's articles");
      const robots = (url: string) => `User-agent: *\nSitemap: ${url}\n`;
      // A Sitemap line naming a file the build does not write says so.
      expect(
        robotsTxtProblem(robots(`${home}sitemap_index.xml`), SITEMAP, 'robots.txt', listsOurs, () => false),
      ).toContain(`the build does not write ${home}sitemap_index.xml: it answers 404`);
      expect(robotsTxtProblem(robots(`${home}sitemap-index.xml`), SITEMAP, 'robots.txt', listsOurs)).toBeUndefined();
      expect(robotsTxtProblem(robots(`${home}other-index.xml`), SITEMAP, 'robots.txt', listsOurs)).toContain(
        'has no "Sitemap:',
      );
      // Not written yet (@astrojs/sitemap listed after publisher() writes after it): the benefit of the doubt,
      // only where that integration is in `integrations` (a theme's link to an index nobody writes is a mistake).
      const empty = builtIndexListsOurs(pathToFileURL(join(outDir, 'empty/')), home, SITEMAP, true);
      expect(empty(`${home}sitemap-index.xml`)).toBe(true);
      expect(empty(`${home}other-index.xml`)).toBe(false);
      const alone = builtIndexListsOurs(pathToFileURL(join(outDir, 'empty/')), home, SITEMAP, false);
      expect(alone(`${home}sitemap-index.xml`)).toBe(false);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('siteIdMismatch', () => {
  it('names both sites when the loaders load other sites than publisher() proxies; nothing when one matches or none loads', () => {
    // Found by a trial on Astro Micro: publisher({ siteId: 21 }) with loaders of site 12 built silently, its
    // sitemap and feed listing site 21's articles on site 21's host.
    const message = siteIdMismatch([{ siteId: 12 }, { siteId: 12 }, { siteId: 7 }], 21);
    expect(message).toContain(
      'publisher() proxies the sitemap and the feed of site 21, but the articles loaders load site 7, 12',
    );
    expect(message).toContain('Give publisher() and the loaders the same siteId (or set PUBLISHER_SITE_ID for both).');
    expect(siteIdMismatch([{ siteId: 12 }, { siteId: 21 }], 21)).toBeUndefined();
    expect(siteIdMismatch([], 21)).toBeUndefined();
  });
});
