/**
 * Where a link to one of the service's articles goes on the blog: the one mapping shared by the pages
 * (links inside an article's HTML) and the sitemap and RSS routes, so the three never disagree. Pure
 * functions; the middleware and the routes supply what the blog has.
 */

/** The blog's URL layout, as Astro's config and `publisher({ articlePattern })` describe it. */
export interface BlogLayout {
  /** The blog's site URL with its base path, ending in "/" (e.g. `https://blog.example.com/docs/`). */
  blogSite: string;
  /** The blog's article route with `[slug]`, relative to the base (e.g. `/blog/[slug]/`). */
  articlePattern: string;
  /** Astro's `trailingSlash` (`'never'` also for `build.format: 'file'`). */
  trailingSlash: 'always' | 'never' | 'ignore';
}

export interface ArticleLinkContext extends BlogLayout {
  /** Origins of the service's article URLs (the site's domain on the service, the API origin). */
  serviceOrigins: readonly string[];
  /** The slugs of the articles the blog has; `undefined` when unknown (then every article counts as had). */
  known?: ReadonlySet<string> | undefined;
}

// The service publishes an article at https://<site domain>/blog/<slug>/ (API.md, the simulator).
const SERVICE_ARTICLE_PATH = /^\/blog\/([^/]+)\/?$/;

/** `blog/x/` with the blog's trailing-slash rule applied (a file name such as `x.html` keeps its form). */
export function applyTrailingSlash(path: string, trailingSlash: BlogLayout['trailingSlash']): string {
  if (path === '' || /\.[A-Za-z0-9]+$/.test(path)) return path;
  if (trailingSlash === 'never') return path.replace(/\/+$/, '');
  if (trailingSlash === 'always') return path.endsWith('/') ? path : `${path}/`;
  return path;
}

/** The blog's absolute URL of the article `slug`: site + base + pattern, under the trailing-slash rule. */
export function blogArticleUrl(slug: string, layout: BlogLayout): string {
  const path = layout.articlePattern.replace(/^\/+/, '').replaceAll('[slug]', encodeURIComponent(slug));
  return new URL(applyTrailingSlash(path, layout.trailingSlash), layout.blogSite).href;
}

/** The slug of one of the blog's article URLs (the inverse of `blogArticleUrl`), else undefined. */
export function blogArticleSlug(url: string, layout: BlogLayout): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const site = new URL(layout.blogSite);
  const target = new URL(url);
  if (target.origin !== site.origin || !target.pathname.startsWith(site.pathname)) return undefined;
  const path = target.pathname.slice(site.pathname.length);
  const [before = '', after = ''] = layout.articlePattern.replace(/^\/+/, '').split('[slug]');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const segment = new RegExp(`^${escape(before)}([^/]+)${escape(after.replace(/\/+$/, ''))}/?$`).exec(path)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The slug of a service article URL (`https://<service origin>/blog/<slug>/...`), else undefined. */
export function serviceArticleSlug(url: URL, serviceOrigins: readonly string[]): string | undefined {
  if (!serviceOrigins.includes(url.origin)) return undefined;
  const segment = SERVICE_ARTICLE_PATH.exec(url.pathname)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The target of a link: the blog's URL of the article (with the link's query and fragment) when `href`
 * names one of the service's articles that the blog has; `undefined` for anything else (a service article
 * the blog does not have keeps its public URL on the service; other links are not ours to change).
 * `href` must already be absolute: the loader resolves relative links against the article's address.
 */
export function articleLinkTarget(href: string, ctx: ArticleLinkContext): string | undefined {
  const trimmed = href.trim();
  if (!/^https?:\/\//i.test(trimmed) || !URL.canParse(trimmed)) return undefined;
  const url = new URL(trimmed);
  const slug = serviceArticleSlug(url, ctx.serviceOrigins);
  if (slug === undefined || (ctx.known !== undefined && !ctx.known.has(slug))) return undefined;
  return blogArticleUrl(slug, ctx) + url.search + url.hash;
}

// `href` of <a> and <area> start tags; the value quoted (sanitize-html always quotes with ").
const LINK_HREF = /(<(?:a|area)\b[^>]*?\shref\s*=\s*)(["'])([^"']*)\2/gi;

const decodeAttribute = (value: string) => value.replaceAll('&amp;', '&');
const encodeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

/**
 * Rewrites the `href` of every link in `html` whose target is one of the blog's articles (see
 * `articleLinkTarget`); everything else in the HTML is left byte for byte. Returns the same string when
 * nothing changed.
 */
export function rewriteArticleLinks(html: string, ctx: ArticleLinkContext): string {
  if (ctx.serviceOrigins.every((origin) => !html.includes(origin))) return html;
  return html.replace(LINK_HREF, (whole, start: string, quote: string, value: string) => {
    const target = articleLinkTarget(decodeAttribute(value), ctx);
    return target === undefined ? whole : `${start}${quote}${encodeAttribute(target)}${quote}`;
  });
}
