import { matchArticlePath, type ArticlePattern } from '../../html/article-links.js';

/**
 * Which of the blog's own pages go into the sitemap, beside the service's articles. Pure functions, so the
 * choice is unit-tested without a build.
 */

export interface LocalPageOptions {
  /** The blog's site URL with base, ending in "/". */
  blogSite: string;
  articlePattern: ArticlePattern;
  trailingSlash: 'always' | 'never' | 'ignore';
  filter?: ((url: string) => boolean) | undefined;
}

/** The part of a resolved route the sitemap needs (see Astro's IntegrationResolvedRoute). */
export interface RouteView {
  type: string;
  origin: string;
  pathname?: string | undefined;
  params: string[];
}

const STATUS_PAGE = /^(?:404|500)(?:\/|\.html)?$/;

/** Pathnames of files (rss.xml, robots.txt, sitemap.xml) are not pages; `.html` ones are. */
function isFilePath(path: string): boolean {
  const last = path.replace(/\/+$/, '').split('/').pop() ?? '';
  return last.includes('.') && !last.endsWith('.html');
}

function withTrailingSlash(path: string, trailingSlash: LocalPageOptions['trailingSlash']): string {
  if (path === '' || path.endsWith('.html')) return path;
  if (trailingSlash === 'never') return path.replace(/\/+$/, '');
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * The absolute URLs of the local pages among `pathnames` (as Astro reports them, with or without a leading
 * slash, relative to the base): not a status page, not a file, not an article route (the service's sitemap
 * is the authority for articles), kept by `filter`; deduplicated, in a stable (sorted) order.
 */
export function selectLocalPages(pathnames: Iterable<string>, options: LocalPageOptions): string[] {
  const urls = new Set<string>();
  for (const raw of pathnames) {
    const path = raw.replace(/^\/+/, '');
    if (STATUS_PAGE.test(path) || isFilePath(path) || matchArticlePath(path, options.articlePattern)) continue;
    const url = new URL(withTrailingSlash(path, options.trailingSlash), options.blogSite).href;
    if (options.filter && !options.filter(url)) continue;
    urls.add(url);
  }
  return [...urls].sort();
}

/** A page of the blog's own under the article pattern (a local Markdown post, a list page such as `/posts/2/`). */
export interface LocalArticlePage {
  slug: string;
  url: string;
  /** The language of the page, when the pattern says it (`[lang]`, a per-language map). */
  language?: string | undefined;
}

/**
 * The blog's own pages whose path matches the article pattern, with the slug they stand for: listed in the
 * sitemap unless the service's sitemap already lists an article with that slug (then the two are one page).
 * Kept by `filter` like the other local pages.
 */
export function selectLocalArticlePages(pathnames: Iterable<string>, options: LocalPageOptions): LocalArticlePage[] {
  const pages = new Map<string, LocalArticlePage>();
  for (const raw of pathnames) {
    const path = raw.replace(/^\/+/, '');
    // The error pages are no article pages, even under a root-level pattern such as '/[slug]' (AstroWind's).
    if (STATUS_PAGE.test(path)) continue;
    const article = matchArticlePath(path, options.articlePattern);
    if (article === undefined || isFilePath(path)) continue;
    const url = new URL(withTrailingSlash(path, options.trailingSlash), options.blogSite).href;
    if (options.filter && !options.filter(url)) continue;
    pages.set(url, { ...article, url });
  }
  return [...pages.values()].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/**
 * Pathnames of the project's static page routes (no parameters), for on-demand output where the routes
 * run long after the build and Astro's list of built pages is not available to them.
 */
export function staticPagePathnames(routes: Iterable<RouteView>): string[] {
  const paths: string[] = [];
  for (const route of routes) {
    if (route.type !== 'page' || route.origin !== 'project' || route.params.length > 0) continue;
    if (route.pathname !== undefined) paths.push(route.pathname);
  }
  return paths;
}
