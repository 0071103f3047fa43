import type { ArticlePattern } from '../../html/article-links.js';

/**
 * The settings the injected routes read at runtime, passed from the integration through a virtual module
 * as JSON. It holds only public data: the public feed URLs and the blog's URL layout (the routes never
 * need an API key). Built only from the user's config, never from a visitor's request.
 */
export interface RouteConfig {
  siteId: number;
  /** Origin of the service (also treated as "the service's domain" when rewriting). */
  serviceOrigin: string;
  /** The two, and only, upstream URLs the routes ever fetch. */
  sitemapUrl: string;
  rssUrl: string;
  /** The blog's site URL with its base path, ending in "/" (e.g. https://blog.example.com/docs/). */
  blogSite: string;
  /** `publisher({ articlePattern })`: one pattern (with `[slug]`, maybe `[lang]`) or one per language. */
  articlePattern: ArticlePattern;
  trailingSlash: 'always' | 'never' | 'ignore';
  timeoutMs: number;
  sitemap: false | { path: string; maxUrlsPerFile: number };
  /** The injected feed: its path, and the channel's title, description and language when the options set them. */
  rss: false | { path: string; title?: string; description?: string; language?: string };
  /** Running under `astro dev`: a failing upstream answers 502 rather than throwing, even if prerendered. */
  dev: boolean;
  /** Absolute URLs of the blog's own pages (already filtered), merged into the sitemap. */
  localPages: string[];
  /**
   * The articles the blog has: the entries of every `articlesLoader` collection of `siteId` after its
   * filters and budget, as the loaders recorded them in this build. Undefined when the project has no
   * articles loader for the site: the routes then list every article the service publishes, a static build
   * only those whose page it serves (`builtPages`).
   */
  articles?:
    | {
        slugs: string[];
        origins: string[];
        languages?: Record<string, string[]>;
        /**
         * Articles the service stopped publishing, each `<language>:<slug>` (the removing loader's `language`,
         * '' without one; see PublishedCollection.unpublished): links to them lose their address.
         */
        unpublished?: string[];
        /**
         * Renamed articles, `<language>:<old slug>` (as `unpublished`) -> the slug stored now: the old URL
         * redirects to the new one, and links to it go there.
         */
        moved?: Record<string, string>;
      }
    | undefined;
  /**
   * Static output, in `astro:build:done` only: the pages the build wrote (base-relative paths, see
   * `pageKey`). An article whose page is not among them is neither listed nor linked to.
   */
  builtPages?: string[] | undefined;
  /**
   * With `builtPages`: the `patternRegex` sources of the blog's page routes that render on demand (an adapter
   * and `prerender = false` in static output). An article page such a route matches is served though not built.
   */
  onDemandPages?: string[] | undefined;
  /**
   * With `builtPages`: the `patternRegex` sources of the i18n fallback routes of prerendered routes. Astro writes
   * their pages (`/fr/blog/x/` rewriting or redirecting to `/blog/x/`) without listing them as built: such a page
   * of an article the blog has is Astro's, never a page an earlier build left.
   */
  fallbackPages?: string[] | undefined;
  /**
   * With `builtPages`: every file the build's prerendered routes wrote or kept, below the output (`blog/x/index.html`),
   * pages, endpoints and redirects alike (`astro:build:done`'s `assets`): none is an earlier build's leftover.
   */
  writtenFiles?: string[] | undefined;
  /**
   * A build that prerenders the feeds: where it keeps the feeds it used (last-good.ts), for a later build during
   * an outage of the service. Undefined on demand and under `astro dev` (their routes keep copies in memory).
   */
  lastGoodDir?: string | undefined;
  /**
   * A build's page routes (`patternRegex` sources, prerendered and on demand, without the base): on demand, a
   * page of the service's site that is no article (its home, a tag page) is listed only where one matches.
   */
  pageRoutes?: string[] | undefined;
  /**
   * A build that found no page route of the blog matching `articlePattern` (none prerendered, none on demand):
   * no article has a page, so the routes list none (see articleRoutesProblem).
   */
  noArticleRoute?: true | undefined;
  /** The blog's own pages under the article pattern (listed unless an upstream article has the slug). */
  localArticlePages?: Array<{ slug: string; url: string; language?: string | undefined }> | undefined;
}

/** The virtual module the routes import their settings from. */
export const VIRTUAL_CONFIG_ID = 'virtual:astro-content-publisher/config';

/** `/sitemap.xml` -> `/sitemap-[part].xml`: the injected route pattern of the parts of a split sitemap. */
export function sitemapPartPattern(path: string): string {
  return path.replace(/\.xml$/, '-[part].xml');
}

/** `/sitemap.xml`, 2 -> `/sitemap-2.xml`. */
export function sitemapPartPath(path: string, part: number): string {
  return path.replace(/\.xml$/, `-${part}.xml`);
}

/** A route path (`/sitemap.xml`) under `folder` (the blog's URL, an output or public directory). */
export function pathIn(folder: URL | string, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), folder);
}

/** The absolute URL of a route path on the blog (the path is relative to the base). */
export function blogUrl(config: Pick<RouteConfig, 'blogSite'>, path: string): string {
  return pathIn(config.blogSite, path).href;
}
