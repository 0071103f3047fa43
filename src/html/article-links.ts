/**
 * Where a link to one of the service's articles goes on the blog: the one mapping shared by the pages
 * (links inside an article's HTML) and the sitemap and RSS routes, so the three never disagree. Pure
 * functions; the middleware and the routes supply what the blog has.
 */

/**
 * The blog's article route relative to the base: one pattern with `[slug]` (and `[lang]` for
 * language-prefixed routes), or one pattern per language (`{ en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' }`).
 */
export type ArticlePattern = string | Readonly<Record<string, string>>;

/** The blog's URL layout, as Astro's config and `publisher({ articlePattern })` describe it. */
export interface BlogLayout {
  /** The blog's site URL with its base path, ending in "/" (e.g. `https://blog.example.com/docs/`). */
  blogSite: string;
  /** The blog's article route with `[slug]` (and maybe `[lang]`), relative to the base, or one per language. */
  articlePattern: ArticlePattern;
  /** Astro's `trailingSlash` (`'never'` also for `build.format: 'file'`). */
  trailingSlash: 'always' | 'never' | 'ignore';
}

/** Which of the blog's pages answer, by `pageKey`: a `Set` of the built pages, or one that also asks the on-demand routes. */
export interface PageSet {
  has(key: string): boolean;
  /** Whether the build wrote the page (not only an on-demand route would answer it); `has` when not given. */
  written?(key: string): boolean;
}

export interface ArticleLinkContext extends BlogLayout {
  /** Origins of the service's article URLs (the site's domain on the service, the API origin). */
  serviceOrigins: readonly string[];
  /** The slugs of the articles the blog has; `undefined` when unknown (then every article counts as had). */
  known?: ReadonlySet<string> | undefined;
  /**
   * The languages the blog has each slug in (`''`: the service did not say). A slug missing here, or the
   * record missing, counts as had in every language.
   */
  languages?: Readonly<Record<string, readonly string[]>> | undefined;
  /**
   * The blog's built pages, as paths relative to the base without leading or trailing slash (`blog/x`):
   * when given, an article whose page is not among them is not linked to.
   */
  pages?: PageSet | undefined;
  /**
   * The language of the page the link is in: a link without a language (`/blog/<slug>/`) to a slug the
   * blog has in several languages goes to this language's page. The page rewrite
   * (src/integration/links/link-tags.ts) reads it from `<html lang>` when not given.
   */
  pageLanguage?: string | undefined;
  /**
   * Articles the service stopped publishing (`unpublishedKey(language, slug)`; language '' when the loader had
   * none): a link to one that the blog does not have (in that language) loses its address (`UNLINK`).
   */
  unpublished?: ReadonlySet<string> | undefined;
  /**
   * Renamed articles: `unpublishedKey(language, oldSlug)` -> the slug the article has now. A link to the old
   * slug (the service's URL or the blog's) that the blog does not have goes to the blog's page of the new one.
   */
  moved?: ReadonlyMap<string, string> | undefined;
}

/** One article named by a service URL: its slug, and its language when the URL carries one (`/fr/blog/x/`). */
export interface ArticleRef {
  slug: string;
  language?: string | undefined;
}

// The service publishes an article at https://<site domain>/blog/<slug>/ (API.md), or with the language
// first (/fr/blog/<slug>/) when one slug exists in several languages.
const SERVICE_ARTICLE_PATH = /^(?:\/([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?))?\/blog\/([^/]+)\/?$/;

const sameLanguage = (a: string, b: string) => a.toLowerCase().replace('_', '-') === b.toLowerCase().replace('_', '-');

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `blog/x/` with the blog's trailing-slash rule applied (a file name such as `x.html` keeps its form). */
export function applyTrailingSlash(path: string, trailingSlash: BlogLayout['trailingSlash']): string {
  if (path === '' || /\.[A-Za-z0-9]+$/.test(path)) return path;
  if (trailingSlash === 'never') return path.replace(/\/+$/, '');
  if (trailingSlash === 'always') return path.endsWith('/') ? path : `${path}/`;
  return path;
}

/**
 * The article route of one language: the per-language entry of a map, the pattern with `[lang]` filled,
 * or the single pattern without `[lang]` (one page per slug, whatever the language). Undefined when the
 * blog has no route for that language (a map without it, or `[lang]` and no language known).
 */
export function patternForLanguage(pattern: ArticlePattern, language: string | undefined): string | undefined {
  if (typeof pattern === 'string') {
    if (!pattern.includes('[lang]')) return pattern;
    return language ? pattern.replaceAll('[lang]', encodeURIComponent(language)) : undefined;
  }
  if (language === undefined) return undefined;
  const key = Object.keys(pattern).find((k) => sameLanguage(k, language));
  return key === undefined ? undefined : patternForLanguage(pattern[key]!, language);
}

/** `blogArticleUrl` as a URL object. */
function blogArticleUrlObject(slug: string, layout: BlogLayout, language?: string): URL | undefined {
  const pattern = patternForLanguage(layout.articlePattern, language);
  if (pattern === undefined) return undefined;
  const path = pattern.replace(/^\/+/, '').replaceAll('[slug]', encodeURIComponent(slug));
  return new URL(applyTrailingSlash(path, layout.trailingSlash), layout.blogSite);
}

/** The blog's absolute URL of the article `slug` (in `language`), under the trailing-slash rule; undefined: no route. */
export function blogArticleUrl(slug: string, layout: BlogLayout, language?: string): string | undefined {
  return blogArticleUrlObject(slug, layout, language)?.href;
}

/** `URL.parse` (one parse, no exception), or its equivalent where a runtime lacks it (older Workers). */
export const parseUrl: (text: string) => URL | null =
  typeof URL.parse === 'function' ? (text) => URL.parse(text) : (text) => (URL.canParse(text) ? new URL(text) : null);

/** A few values computed once per key (a build has one or two blog sites and article patterns). */
function memoised<T>(compute: (key: string) => T): (key: string) => T {
  const values = new Map<string, T>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (values.size < 64) values.set(key, value);
    }
    return value;
  };
}

// The origin and path of each blog site URL: a sitemap or a page pass asks for every link.
const siteParts = memoised((blogSite) => {
  const { origin, pathname } = new URL(blogSite);
  return { origin, pathname };
});
const sitePath = (blogSite: string): string => siteParts(blogSite).pathname;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern as a RegExp over a base-relative path (no leading slash, trailing slash optional). */
const patternRegExp = memoised((pattern) => {
  const body = escapeRegExp(pattern.replace(/^\/+/, '').replace(/\/+$/, ''))
    .replace('\\[slug\\]', '(?<slug>[^/]+)')
    .replace('\\[lang\\]', '(?<lang>[^/]+)');
  return new RegExp(`^${body}/?$`);
});

/**
 * The article a base-relative path of the blog stands for (`fr/blog/x/` -> `{ slug: 'x', language: 'fr' }`
 * under `/[lang]/blog/[slug]/`), else undefined. A map's patterns are tried in order; the language is the
 * map's key, or the `[lang]` segment, or unknown.
 */
export function matchArticlePath(path: string, pattern: ArticlePattern): ArticleRef | undefined {
  const relative = path.replace(/^\/+/, '');
  const entries: Array<[string | undefined, string]> =
    typeof pattern === 'string' ? [[undefined, pattern]] : Object.entries(pattern);
  for (const [language, one] of entries) {
    const groups = patternRegExp(one).exec(relative)?.groups;
    if (groups?.slug === undefined) continue;
    const lang = groups.lang === undefined ? language : decodeSegment(groups.lang);
    return { slug: decodeSegment(groups.slug), ...(lang === undefined ? {} : { language: lang }) };
  }
  return undefined;
}

/** The article of one of the blog's article URLs (the inverse of `blogArticleUrl`), else undefined. */
export function blogArticleRef(url: string | URL, layout: BlogLayout): ArticleRef | undefined {
  const target = typeof url === 'string' ? parseUrl(url) : url;
  if (target === null) return undefined;
  const site = siteParts(layout.blogSite);
  if (target.origin !== site.origin || !target.pathname.startsWith(site.pathname)) return undefined;
  return matchArticlePath(target.pathname.slice(site.pathname.length), layout.articlePattern);
}

/** The slug of one of the blog's article URLs (the inverse of `blogArticleUrl`), else undefined. */
export function blogArticleSlug(url: string, layout: BlogLayout): string | undefined {
  return blogArticleRef(url, layout)?.slug;
}

/** Is this the path of a service article (`[/<lang>]/blog/<slug>/`), not one of the site's other pages? */
export function isServiceArticlePath(pathname: string): boolean {
  return SERVICE_ARTICLE_PATH.test(pathname);
}

/** The article of a service article URL (`https://<service origin>[/<lang>]/blog/<slug>/`), else undefined. */
export function serviceArticleRef(url: URL, serviceOrigins: readonly string[]): ArticleRef | undefined {
  if (!serviceOrigins.includes(url.origin)) return undefined;
  const match = SERVICE_ARTICLE_PATH.exec(url.pathname);
  if (match?.[2] === undefined) return undefined;
  return { slug: decodeSegment(match[2]), ...(match[1] === undefined ? {} : { language: match[1] }) };
}

/**
 * The service's public URL of an article, in the form `serviceArticleRef` reads (`<origin>[/<lang>]/blog/<slug>/`):
 * where a link goes back to when the blog no longer has the article. The language segment is written when the
 * ref has a language (the blog's route names it), as the service writes it for a slug in several languages.
 */
export function serviceArticleUrl(ref: ArticleRef, origin: string): string {
  const language = ref.language === undefined ? '' : `/${encodeURIComponent(ref.language)}`;
  return `${origin.replace(/\/+$/, '')}${language}/blog/${encodeURIComponent(ref.slug)}/`;
}

/** The slug of a service article URL (`https://<service origin>[/<lang>]/blog/<slug>/...`), else undefined. */
export function serviceArticleSlug(url: URL, serviceOrigins: readonly string[]): string | undefined {
  return serviceArticleRef(url, serviceOrigins)?.slug;
}

/**
 * The language an article is in on the blog: the one its URL names, else the only one the blog has the
 * slug in (unknown when it has several, or when the loaders did not say).
 */
export function articleLanguage(
  ref: ArticleRef,
  ctx: Pick<ArticleLinkContext, 'languages' | 'pageLanguage'>,
): string | undefined {
  if (ref.language !== undefined) return ref.language;
  const had = (ctx.languages?.[ref.slug] ?? []).filter((l) => l !== '');
  if (had.length === 1) return had[0];
  const page = ctx.pageLanguage;
  return page === undefined ? undefined : had.find((l) => sameLanguage(l, page));
}

/** Whether the blog has the article: its slug, in the language the URL names (when the loaders know it). */
export function hasArticle(ref: ArticleRef, ctx: Pick<ArticleLinkContext, 'known' | 'languages'>): boolean {
  if (ctx.known !== undefined && !ctx.known.has(ref.slug)) return false;
  const had = ctx.languages?.[ref.slug];
  if (ref.language === undefined || had === undefined || had.length === 0 || had.includes('')) return true;
  return had.some((l) => sameLanguage(l, ref.language!));
}

/** `blog/x/` (or `blog/x.html`, `/blog/x`) as the key of the `pages` set: `blog/x`. */
export function pageKey(path: string): string {
  return decodeSegment(path.replace(/^\/+|\/+$/g, '').replace(/(?:\/?index)?\.html$/, ''));
}

/** The `pages` key of one of the blog's URLs (its path below the blog's base). */
export function blogPageKey(url: URL, blogSite: string): string {
  return pageKey(url.pathname.slice(sitePath(blogSite).length));
}

/**
 * The blog's URL (without query and fragment) of the article a service URL names, when the blog has the
 * article and a route for it (and, when `pages` is known, that page was built); undefined otherwise.
 */
export function blogUrlOfArticle(ref: ArticleRef, ctx: ArticleLinkContext): string | undefined {
  if (!hasArticle(ref, ctx)) return undefined;
  const url = blogArticleUrlObject(ref.slug, ctx, articleLanguage(ref, ctx));
  if (url === undefined || ctx.pages === undefined) return url?.href;
  return ctx.pages.has(blogPageKey(url, ctx.blogSite)) ? url.href : undefined;
}

/** A link target that means "drop the address": the link stays as text, sending readers nowhere. */
export const UNLINK = '';

/** The key of an unpublished article in `ArticleLinkContext.unpublished`. */
export function unpublishedKey(language: string, slug: string): string {
  return `${language.toLowerCase().replace('_', '-')}:${slug}`;
}

/**
 * Whether a link names an article that the service stopped publishing and the blog does not have in the
 * language the link asks for (the URL's, else the page's): its page answers 404 on the service too. `url`
 * is the blog's or the service's URL of the article.
 */
export function isUnpublishedLink(url: URL, ctx: ArticleLinkContext): boolean {
  const gone = ctx.unpublished;
  if (gone === undefined || gone.size === 0) return false;
  const ref = serviceArticleRef(url, ctx.serviceOrigins) ?? blogArticleRef(url, ctx);
  if (ref === undefined) return false;
  // A page the build wrote answers, whatever its slug once was (a root-level pattern matches the blog's own pages);
  // an on-demand route does not: it answers 404 for an article the service no longer publishes.
  const pages = ctx.pages;
  const key = pages && blogPageKey(url, ctx.blogSite);
  const written = pages && key !== undefined && (pages.written ? pages.written(key) : pages.has(key));
  if (written && url.origin === new URL(ctx.blogSite).origin) return false;
  const language = ref.language ?? ctx.pageLanguage;
  const named =
    gone.has(unpublishedKey('', ref.slug)) || (language !== undefined && gone.has(unpublishedKey(language, ref.slug)));
  if (!named) return false;
  // Still on the blog in that language (or, for a link naming none, in any): its page answers.
  return !hasArticle(language === undefined ? { slug: ref.slug } : { slug: ref.slug, language }, ctx);
}

/**
 * The target of a link: the blog's URL of the article (with the link's query and fragment) when `href`
 * names one of the service's articles that the blog has; `undefined` for anything else (a service article
 * the blog does not have, or has in another language only, keeps its public URL on the service; other
 * links are not ours to change). `href` must already be absolute: the loader resolves relative links
 * against the article's address.
 */
export function articleLinkTarget(href: string, ctx: ArticleLinkContext): string | undefined {
  const trimmed = href.trim();
  const url = /^https?:\/\//i.test(trimmed) ? parseUrl(trimmed) : null;
  if (url === null) return undefined;
  const ref = serviceArticleRef(url, ctx.serviceOrigins);
  const target = ref === undefined ? undefined : blogUrlOfArticle(ref, ctx);
  return target === undefined ? undefined : target + url.search + url.hash;
}

/**
 * The blog's URL of the article a link to a renamed article's old slug names now (`ArticleLinkContext.moved`),
 * with the link's query and fragment: only when the blog does not have the old slug in that language and serves
 * the new one's page. `url` is the service's or the blog's URL of the old slug.
 */
export function movedLinkTarget(url: URL, ctx: ArticleLinkContext): string | undefined {
  const moved = ctx.moved;
  if (moved === undefined || moved.size === 0) return undefined;
  const ref = serviceArticleRef(url, ctx.serviceOrigins) ?? blogArticleRef(url, ctx);
  if (ref === undefined) return undefined;
  const language = ref.language ?? ctx.pageLanguage;
  const to =
    (language === undefined ? undefined : moved.get(unpublishedKey(language, ref.slug))) ??
    moved.get(unpublishedKey('', ref.slug));
  if (to === undefined || hasArticle(language === undefined ? ref : { slug: ref.slug, language }, ctx))
    return undefined;
  const target = blogUrlOfArticle(language === undefined ? { slug: to } : { slug: to, language }, ctx);
  return target === undefined ? undefined : target + url.search + url.hash;
}
