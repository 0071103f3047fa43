import { z } from 'zod';
import { patternForLanguage } from '../html/article-links.js';
import { formatIssue } from '../options/issues.js';

/**
 * The slug of an article URL: its last non-empty path segment, percent-decoded.
 * `https://pro-blog.example.com/blog/my-post/` -> `my-post`. Undefined for an unparsable URL or an
 * empty path.
 */
export function slugFromArticleUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  const segment = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .pop();
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Normalises origins (`https://Example.com/x` -> `https://example.com`); invalid entries are dropped. */
export function toOriginSet(origins: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const origin of origins) {
    try {
      set.add(new URL(origin).origin);
    } catch {
      // Validated by the schemas of the callers; ignore anything else rather than throw mid-rewrite.
    }
  }
  return set;
}

/** Whether `url` is an absolute URL on one of the origins. */
export function isOnOrigins(url: string, origins: ReadonlySet<string>): boolean {
  // Fast path without a URL parse: "<origin>/..." as the service writes it. Anything else (case,
  // default ports, whitespace) falls through to the exact check.
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash > 0 && origins.has(url.slice(0, slash))) return true;
  try {
    return origins.has(new URL(url).origin);
  } catch {
    return false;
  }
}

export const articleUrlMapperOptionsSchema = z.strictObject({
  /** The blog's site URL with its base path, e.g. `https://blog.example.com/base/`. */
  blogSite: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL such as https://blog.example.com/' }),
  /**
   * The blog's article route, relative to the base path; `[slug]` is replaced by the article's slug and
   * `[lang]` by the language the service's URL names (`/fr/blog/<slug>/`).
   * @default '/blog/[slug]/'
   */
  articlePattern: z
    .string()
    .refine((p) => p.includes('[slug]'), { error: 'must contain [slug], e.g. /blog/[slug]/' })
    .default('/blog/[slug]/'),
  /** Origins that are "the service's domain" (the site's domain, the API base origin). */
  upstreamOrigins: z.array(z.url({ error: 'must be absolute URLs such as https://pro-blog.example.com' })),
});
export type ArticleUrlMapperOptions = z.input<typeof articleUrlMapperOptionsSchema>;

// The service publishes articles at https://<site domain>/blog/<slug>/ (see API.md / the simulator), or
// /<lang>/blog/<slug>/ when one slug exists in several languages.
const UPSTREAM_ARTICLE_PATH = /^(?:\/([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?))?\/blog\/([^/]+)\/?$/;

/**
 * Builds the `mapUrl` used by the sitemap and RSS rewriters:
 * - an upstream article URL (`[/<lang>]/blog/<slug>/` on an upstream origin) -> the blog's article URL
 *   (`blogSite` + `articlePattern` with `[slug]` and `[lang]`; a pattern with `[lang]` and a URL without a
 *   language keep the URL's path);
 * - the upstream home page -> `blogSite`; any other upstream URL -> the same path, query and hash on
 *   the blog's origin;
 * - URLs on other origins (and anything unparsable) unchanged.
 */
export function makeArticleUrlMapper(options: ArticleUrlMapperOptions): (upstream: string) => string {
  const parsed = articleUrlMapperOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const problem = formatIssue(parsed.error.issues[0]!, options, {
      call: 'makeArticleUrlMapper()',
      docs: 'integration-options',
    });
    throw new TypeError(`makeArticleUrlMapper(): ${problem.message}`);
  }
  const { articlePattern, upstreamOrigins } = parsed.data;
  const site = new URL(parsed.data.blogSite);
  const base = site.pathname.endsWith('/') ? site.pathname : `${site.pathname}/`;
  const blogHome = new URL(base, site.origin).href;
  const origins = toOriginSet(upstreamOrigins);
  const relativePattern = articlePattern.replace(/^\/+/, '');

  // The common case without a URL parse: "<origin>/blog/<slug>/" exactly as the service writes it, with a
  // slug of unreserved characters and a pattern that URL resolution leaves as it is (same result).
  const plainPattern = /^[A-Za-z0-9_~/-]*\[slug\][A-Za-z0-9_~/-]*$/.test(relativePattern) && !blogHome.includes('?');
  // A query of characters the URL parser leaves as they are (no quote, space, '#', '<', '>', non-ASCII)
  // is kept as written, except a lone '?', which it drops.
  const plainArticle =
    /^(https?:\/\/[a-z0-9.-]+(?::[0-9]+)?)\/blog\/([A-Za-z0-9_~-][A-Za-z0-9._~-]*)\/?(\?[A-Za-z0-9._~!$&()*+,;=:@/?%-]*)?$/;

  // With one [slug], the article URL is a head and a tail around the slug.
  const slugAt = relativePattern.indexOf('[slug]');
  const single = slugAt === relativePattern.lastIndexOf('[slug]');
  const head = blogHome + relativePattern.slice(0, slugAt);
  const tail = relativePattern.slice(slugAt + '[slug]'.length);

  return (upstream: string): string => {
    if (plainPattern) {
      const fast = plainArticle.exec(upstream);
      if (fast && origins.has(fast[1]!)) {
        const query = fast[3] === undefined || fast[3] === '?' ? '' : fast[3];
        // Joined rather than concatenated: one flat string, not a rope of three, which the sitemap's
        // duplicate check (a Set of 50,000 of them) would have to copy out to hash, and keeps.
        if (single) return [head, fast[2]!, tail, query].join('');
        return blogHome + relativePattern.replaceAll('[slug]', fast[2]!) + query;
      }
    }
    let url: URL;
    try {
      url = new URL(upstream.trim());
    } catch {
      return upstream;
    }
    if (!origins.has(url.origin)) return upstream;
    const article = UPSTREAM_ARTICLE_PATH.exec(url.pathname);
    const pattern = article?.[2] === undefined ? undefined : patternForLanguage(relativePattern, article[1]);
    if (article?.[2] !== undefined && pattern !== undefined) {
      const path = pattern.replaceAll('[slug]', article[2]);
      return new URL(path + url.search + url.hash, blogHome).href;
    }
    if (url.pathname === '/' && url.search === '' && url.hash === '') return blogHome;
    // Joined as text: a path such as "//x" (from "/blog/..//x") resolved against the origin would be
    // read as a protocol-relative URL and throw.
    return new URL(site.origin + url.pathname + url.search + url.hash).href;
  };
}
