/**
 * Conflicts with what the blog already has (its own routes, `@astrojs/sitemap`, `@astrojs/rss`, its
 * `robots.txt`): pure decisions that return the one warning to log, naming the conflict and the fix.
 * The hooks do the I/O (see integration.ts and build-done.ts).
 */

import { blogArticleUrl, blogPageKey, pageKey, type BlogLayout, type PageSet } from '../../html/article-links.js';
import { PREFIX } from '../../options/prefix.js';

export interface ConflictRoutes {
  sitemap: false | { path: string };
  rss: false | { path: string };
}

/** The part of a resolved route the checks need (Astro's IntegrationResolvedRoute). */
export interface ResolvedRouteView {
  pattern: string;
  origin: string;
  entrypoint: string;
}

/** Names of Astro integrations that publish a sitemap of their own. */
export const SITEMAP_INTEGRATIONS = new Set(['@astrojs/sitemap', 'astro-sitemap']);

/** At `astro:config:setup`: another sitemap integration in the same project. */
export function integrationConflicts(
  names: readonly string[],
  routes: ConflictRoutes,
  blogSitemapUrl: string,
): string[] {
  if (routes.sitemap === false) return [];
  return names
    .filter((name) => SITEMAP_INTEGRATIONS.has(name))
    .map(
      (name) =>
        `${PREFIX} ${name} is also in \`integrations\`: the blog then has two sitemaps (${name}'s sitemap-index.xml and this integration's ${routes.sitemap === false ? '' : routes.sitemap.path}), and crawlers find ours only where robots.txt or the other's index names it. ` +
        `Either keep ours only (remove ${name}: this integration already lists the blog's own pages), or keep both: set publisher({ sitemap: { includeLocalPages: false } }), add ours to the other's index with ${name === '@astrojs/sitemap' ? 'sitemap' : name}({ customSitemaps: ["${blogSitemapUrl}"] }) and leave the article pages out of the other's with its \`filter\` option (ours lists them). See https://www.npmjs.com/package/astro-content-publisher#migrating-from-astrojssitemap-and-astrojsrss`,
    );
}

/**
 * At `astro:routes:resolved`: a route of the project's own (a page or endpoint file) at the same path as
 * an injected route. Astro then serves one of them with only a route-priority notice.
 */
export function routeConflicts(
  routes: readonly ResolvedRouteView[],
  ours: ConflictRoutes,
  usesAstroRss: boolean,
): string[] {
  const messages: string[] = [];
  const own = routes.filter((route) => route.origin === 'project');
  const at = (path: string) =>
    own.find((route) => route.pattern === path || route.pattern === path.replace(/\.xml$/, ''));
  if (ours.rss !== false) {
    const route = at(ours.rss.path);
    if (route) {
      messages.push(
        `${PREFIX} ${route.entrypoint} serves ${ours.rss.path}, the path of this integration's RSS route: yours is kept and the service's feed is not served there. ` +
          `To serve the service's articles from your own endpoint${usesAstroRss ? ' (replacing @astrojs/rss there)' : ''}, set publisher({ rss: false }) and export GET = rssHandler({ ... }) from "astro-content-publisher/rss" in it; ` +
          `to keep both feeds, move ours: publisher({ rss: { path: "/articles.xml" } }).`,
      );
    }
  }
  if (ours.sitemap !== false) {
    const route = at(ours.sitemap.path);
    if (route) {
      messages.push(
        `${PREFIX} ${route.entrypoint} serves ${ours.sitemap.path}, the path of this integration's sitemap: two sitemaps at one path. ` +
          `This integration does not overwrite yours. Remove yours (ours lists the service's articles and your pages), or move ours: publisher({ sitemap: { path: "/sitemap-articles.xml" } }).`,
      );
    }
  }
  return messages;
}

/** The `robots.txt` this integration serves when the blog has none. */
export function robotsTxtBody(sitemapUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${sitemapUrl}\n`;
}

/** Whether a sitemap URL is this integration's, or a built sitemap index that lists it (see own-files.ts). */
export type ListsOurSitemap = (url: string) => boolean;

/**
 * The warning for a `robots.txt` of the blog's own that does not name this integration's sitemap (search
 * engines that do not get the sitemap submitted find it there), or undefined when it does.
 */
export function robotsTxtProblem(
  robots: string,
  sitemapUrl: string,
  where: string,
  listsOurs: ListsOurSitemap = (url) => url === sitemapUrl,
  served?: (url: string) => boolean,
): string | undefined {
  const sitemaps = [...robots.matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)].map((m) => m[1] ?? '');
  // An index that lists ours (@astrojs/sitemap's, with customSitemaps) leads crawlers to it too.
  if (sitemaps.some(listsOurs)) return undefined;
  const dead = served ? sitemaps.filter((url) => !served(url) && url.startsWith(new URL(sitemapUrl).origin)) : [];
  const others =
    sitemaps.length > 0
      ? ` (it names ${sitemaps.join(', ')}${dead.length > 0 ? `; the build does not write ${dead.join(', ')}: it answers 404` : ''})`
      : '';
  return `${PREFIX} ${where} has no "Sitemap: ${sitemapUrl}" line${others}: crawlers that read robots.txt do not find the sitemap with the service's articles. Add the line to it, or delete it and let this integration serve one (publisher({ robotsTxt: true }), the default).`;
}

type HeldArticles = {
  slugs: readonly string[];
  languages?: Readonly<Record<string, readonly string[]>> | undefined;
};

/**
 * The blog's URLs of the articles the collections hold, one per language the blog has a slug in (a language
 * without a route is not expected to have one), and those of them that have no page among `served` (the built
 * pathnames, or the pages a static build serves: servedPagesOf).
 */
export function unbuiltArticlePages(
  articles: HeldArticles,
  served: readonly string[] | PageSet,
  layout: BlogLayout,
): { expected: string[]; missing: string[] } {
  const built = Array.isArray(served) ? new Set(served.map(pageKey)) : (served as PageSet);
  const expected = articles.slugs.flatMap((slug) => {
    const languages = (articles.languages?.[slug] ?? []).filter((l) => l !== '');
    const urls = (languages.length > 0 ? languages : [undefined]).map((l) => blogArticleUrl(slug, layout, l));
    return [...new Set(urls.filter((url) => url !== undefined))];
  });
  const missing = expected.filter((url) => !built.has(blogPageKey(new URL(url), layout.blogSite)));
  return { expected, missing };
}

/**
 * Static output, at `astro:build:done`: the articles the collections hold that have no built page at
 * `articlePattern` (a pattern that does not match the blog's article route, or a page that leaves entries
 * out). The sitemap and the feed leave them out, so the warning names the pattern and an example.
 */
export function missingArticlePages(
  articles: HeldArticles,
  served: readonly string[] | PageSet,
  layout: BlogLayout,
  found: {
    /** unbuiltArticlePages' answer, when the caller has it already. */
    unbuilt?: { expected: string[]; missing: string[] } | undefined;
    /** The blog's page routes with a parameter (`/blog/[slug]`): the candidates the warning names. */
    routes?: readonly string[] | undefined;
  } = {},
): string | undefined {
  const { expected, missing } = found.unbuilt ?? unbuiltArticlePages(articles, served, layout);
  if (missing.length === 0) return undefined;
  const example = new URL(missing[0]!).pathname;
  const routes = (found.routes ?? []).slice(0, 6);
  const fix =
    routes.length > 0
      ? `Set publisher({ articlePattern }) to the route that shows your articles; the blog's page routes with a parameter, as patterns, are ${routes.map((r) => JSON.stringify(asArticlePattern(r))).join(', ')}${(found.routes?.length ?? 0) > routes.length ? ' and more' : ''} (one pattern per language, such as { en: "/blog/[slug]/", fr: "/fr/blog/[slug]/" }, where each language has its own)`
      : 'Set publisher({ articlePattern }) to your article route (such as "/posts/[slug]/", "/[lang]/blog/[slug]/" or one per language)';
  return (
    `${PREFIX} ${missing.length} of the ${expected.length} article pages of your collections were not built at articlePattern ${JSON.stringify(layout.articlePattern)} (e.g. ${example}): the sitemap and the feed leave them out, and the links inside articles go to them on the service. ` +
    `${fix}, or build a page for every entry.`
  );
}

/**
 * Static output without an articles loader: the service's articles that the sitemap left out because the build
 * serves no page at their URL under `articlePattern` (none built, no on-demand route). Undefined when none was.
 */
export function unservedArticlesProblem(
  leftOut: { count: number; example: string | undefined } | undefined,
  layout: Pick<BlogLayout, 'articlePattern'>,
): string | undefined {
  if (leftOut === undefined || leftOut.count === 0) return undefined;
  const example = leftOut.example === undefined ? '' : ` (e.g. ${new URL(leftOut.example).pathname})`;
  return (
    `${PREFIX} ${leftOut.count} of the service's articles have no page on the blog at articlePattern ${JSON.stringify(layout.articlePattern)}${example}: the sitemap and the feed leave them out rather than list pages that answer 404. ` +
    'Build their pages (articlesLoader() in src/content.config.ts and a route such as src/pages/blog/[slug].astro), render them on demand (liveArticlesLoader() and a route with prerender = false), or set publisher({ articlePattern }) to the route that serves them.'
  );
}

/** What `routeServesArticles` reads of a resolved route: its kind and its segments, as Astro parsed them. */
interface PageRoute {
  type: string;
  origin: string;
  segments: ReadonlyArray<ReadonlyArray<{ content: string; dynamic: boolean; spread: boolean }>>;
}

/**
 * Whether a route's segments take the article paths of one pattern: segment by segment, the pattern's static
 * text is the route's (or a parameter of the route), `[lang]` any segment, the segment with `[slug]` a
 * parameter; a rest parameter takes what is left. Compared by shape, not with a sample URL: a blog with only
 * `/fr/blog/[slug]` serves `/[lang]/blog/[slug]/` though no `en` URL matches it.
 */
function routeFitsPattern(route: PageRoute['segments'], pattern: string): boolean {
  const wanted = pattern.split('/').filter((part) => part !== '');
  const fits = (i: number, j: number): boolean => {
    const segment = route[j];
    if (segment?.length === 1 && segment[0]!.spread) return true;
    if (i === wanted.length || segment === undefined) return i === wanted.length && segment === undefined;
    const want = wanted[i]!;
    const parameter = segment.some((part) => part.dynamic);
    if (want.includes('[slug]')) return parameter && fits(i + 1, j + 1);
    if (want.includes('[lang]') || parameter) return fits(i + 1, j + 1);
    return segment.map((part) => part.content).join('') === want && fits(i + 1, j + 1);
  };
  return fits(0, 0);
}

/**
 * Whether a page route of the blog (prerendered or on demand, not Astro's own) takes the article paths of
 * `articlePattern` (of one of its languages, for a map): a build where none does serves no article page.
 */
export function routeServesArticles(routes: Iterable<PageRoute>, layout: Pick<BlogLayout, 'articlePattern'>): boolean {
  return [...routes].some((route) => routeIsArticlePage(route, layout));
}

/**
 * Whether one route of the blog serves article pages (see routeServesArticles): a page route that fits the
 * pattern, or an endpoint written as the pattern's HTML file (`src/pages/blog/[slug].html.ts` under
 * "/blog/[slug].html"). Other endpoints (`[slug].json.ts`, an extensionless `[slug].ts`) answer with anything.
 */
export function routeIsArticlePage(route: PageRoute, layout: Pick<BlogLayout, 'articlePattern'>): boolean {
  if (route.origin === 'internal' || (route.type !== 'page' && route.type !== 'endpoint')) return false;
  const pattern = layout.articlePattern;
  const patterns = typeof pattern === 'string' ? [pattern] : Object.values(pattern);
  return patterns.some((one) => {
    if (!routeFitsPattern(route.segments, one)) return false;
    if (route.type === 'page') return true;
    const file = one.replace(/\/+$/, '').split('/').pop() ?? '';
    const last = route.segments
      .at(-1)
      ?.map((part) => (part.dynamic ? '[slug]' : part.content))
      .join('');
    return file.endsWith('.html') && last === file;
  });
}

/**
 * A route as an `articlePattern` value: its last parameter as `[slug]` (a rest parameter too: `/blog/[...slug]`
 * is no pattern), and the trailing slash of a page (not of a file such as `.html`).
 */
function asArticlePattern(route: string): string {
  const pattern = route.replace(/\[(?:\.\.\.)?[^\]/]+\](?!.*\[)/, '[slug]');
  return pattern.endsWith('/') || /\.[A-Za-z0-9]+$/.test(pattern) ? pattern : `${pattern}/`;
}

/** The warning for a build whose blog has no route at `articlePattern` (see routeServesArticles). */
export function articleRoutesProblem(layout: Pick<BlogLayout, 'articlePattern'>): string {
  return (
    `${PREFIX} No page route of the blog matches articlePattern ${JSON.stringify(layout.articlePattern)}: the service's articles have no page here, so the sitemap and the feed list none of them. ` +
    'Add the route (src/pages/blog/[slug].astro over articlesLoader() or liveArticlesLoader()), or set publisher({ articlePattern }) to the route that serves them.'
  );
}

/**
 * The warning for slugs the collections hold in several languages while `articlePattern` has one page per
 * slug (no `[lang]`, no per-language map): the languages share one URL, and one of them is not shown.
 */
export function sharedSlugProblem(
  articles: { languages?: Readonly<Record<string, readonly string[]>> | undefined },
  layout: Pick<BlogLayout, 'articlePattern'>,
): string | undefined {
  const pattern = layout.articlePattern;
  if (typeof pattern !== 'string' || pattern.includes('[lang]')) return undefined;
  const shared = Object.entries(articles.languages ?? {}).filter(([, l]) => l.filter((x) => x !== '').length > 1);
  if (shared.length === 0) return undefined;
  const [slug, languages] = shared[0]!;
  return (
    `${PREFIX} ${shared.length} slug(s) are in your collections in several languages (e.g. "${slug}" in ${languages.join(', ')}), but articlePattern ${JSON.stringify(pattern)} has one page per slug: the languages share one URL. ` +
    'Give each language its route: articlePattern "/[lang]/blog/[slug]/" or one pattern per language ({ en: "/blog/[slug]/", fr: "/fr/blog/[slug]/" }).'
  );
}

/**
 * The warning for articles loaders of other sites only: `publisher({ siteId })` (or PUBLISHER_SITE_ID) names
 * a site that no `articlesLoader` loads, so the sitemap and the feed are that site's, at the blog's addresses.
 */
export function siteIdMismatch(collections: ReadonlyArray<{ siteId: number }>, siteId: number): string | undefined {
  const others = [...new Set(collections.map((c) => c.siteId))].sort((a, b) => a - b);
  if (others.length === 0 || others.includes(siteId)) return undefined;
  return (
    `${PREFIX} publisher() proxies the sitemap and the feed of site ${siteId}, but the articles loaders load site ${others.join(', ')}: the blog's sitemap and feed list another site's articles, and only the pages this build wrote. ` +
    `Give publisher() and the loaders the same siteId (or set PUBLISHER_SITE_ID for both).`
  );
}
