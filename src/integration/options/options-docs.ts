/**
 * The documented types of `publisher(options)`: what an editor shows on hover. Each is proven equal to its
 * schema's input in ./options.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { Documents, Proof } from '../../options/documented.js';
import type {
  devRefreshOptionsSchema,
  invalidateOptionsSchema,
  publisherOptionsSchema,
  rssOptionsSchema,
  sitemapOptionsSchema,
} from './options.js';

/** The sitemap route's options (`publisher({ sitemap: { ... } })`). */
export interface SitemapOptions {
  /**
   * Where the blog serves its sitemap. Parts of a split sitemap are served beside it
   * (`/sitemap.xml` -> `/sitemap-1.xml`, `/sitemap-2.xml`, ...). The same sitemap is served at
   * `/sitemap-index.xml` as well (the name themes written for `@astrojs/sitemap` link to), unless the blog has
   * a file or route of its own there or `@astrojs/sitemap` is in `integrations`.
   * @default '/sitemap.xml'
   */
  path?: string | undefined;
  /**
   * Called with the absolute URL of each of the blog's own pages (pages Astro builds that are not service
   * articles); return `false` to leave the page out. The service's published articles are always listed.
   * @default undefined (every page is listed)
   */
  filter?: ((url: string) => boolean) | undefined;
  /**
   * Add the blog's own pages (home, about, tag pages, ...) to the sitemap, besides the service's articles.
   * @default true
   */
  includeLocalPages?: boolean | undefined;
  /**
   * Absolute URLs to add to the sitemap besides the service's articles and the pages Astro builds (pages
   * served by another app on the same domain, on-demand pages with parameters). Not passed to `filter`.
   * @default []
   */
  customPages?: string[] | undefined;
  /**
   * The most URLs in one sitemap file; above it `/sitemap.xml` becomes a sitemap index. The protocol's
   * limit is 50,000 (and 50 MB, which is always enforced). An upstream file is read up to 50,000 URLs too
   * (the rest is left out, with a warning naming the file).
   * @default 50000
   */
  maxUrlsPerFile?: number | undefined;
}

/** The RSS route's options (`publisher({ rss: { ... } })`). */
export interface RssOptions {
  /**
   * Where the blog serves the RSS feed.
   * @default '/rss.xml'
   */
  path?: string | undefined;
  /**
   * The channel's `<title>` (a theme's site title, say).
   * @default the service's channel title
   */
  title?: string | undefined;
  /**
   * The channel's `<description>`.
   * @default the service's channel description
   */
  description?: string | undefined;
  /**
   * Only the service's articles in this language (as the loaders recorded them, e.g. `'en'`), with the
   * channel's `<language>`. For one feed per language, or items of the blog's own, use `rssHandler()`.
   * @default undefined (every language)
   */
  language?: string | undefined;
}

/** The invalidation endpoint's options (`publisher({ invalidate: { ... } })`). */
export interface InvalidateOptions {
  /**
   * The path of the invalidation endpoint (on demand): POST `{ "tags": [...] }` with
   * `Authorization: Bearer <PUBLISHER_INVALIDATE_TOKEN>`.
   * @default '/_publisher/invalidate'
   */
  path?: string | undefined;
}

/** The dev refresh's options (`publisher({ devRefresh: { ... } })`). */
export interface DevRefreshOptions {
  /**
   * The dev-only endpoint that refreshes this package's collections on POST (for a webhook or a manual
   * `curl -X POST`).
   * @default '/_publisher/refresh'
   */
  endpoint?: string | undefined;
  /**
   * Poll the public RSS feed every `pollIntervalMs` milliseconds (1000 to 2147483647) while `astro dev`
   * runs (a conditional request: an unchanged feed costs a 304) and refresh the collections when it changed.
   * @default undefined (no polling)
   */
  pollIntervalMs?: number | undefined;
  /**
   * The content loader names to refresh. Only this package's loaders are refreshed, never the others; the answer
   * (`{ "refreshed": [...] }`) names those that ran, that is those a collection of the project uses.
   * @default ["astro-content-publisher:articles", "astro-content-publisher:keywords", "astro-content-publisher:digest"]
   */
  loaders?: string[] | undefined;
  /**
   * At most one refresh per `minIntervalMs` milliseconds (0 to 2147483647): every refresh runs the loaders
   * (a list call each), and any local process (or LAN host with `--host`) can POST. A POST within the
   * interval gets 429 and Retry-After.
   * @default 30000
   */
  minIntervalMs?: number | undefined;
  /**
   * A shared secret (at least 16 characters) the POST must carry as `Authorization: Bearer <token>` (pass it
   * from the environment, not from the source). Without it, any process that reaches the dev server may
   * trigger a refresh.
   * @default undefined (no token required)
   */
  token?: string | undefined;
  /**
   * No refresh (so no list call) when the last X-RateLimit-Remaining a loader saw is at or below this: 429 with
   * Retry-After until the window's reset (X-RateLimit-Reset). A window cleared before its reset (a plan upgrade)
   * is noticed by a probe: a refused refresh runs anyway once that count is a minute old (one request per API key),
   * then after 2, 4, 8... minutes while the window stays low.
   * @default 5
   */
  reserve?: number | undefined;
}

/** The options of `publisher(options)`, the Astro integration. */
export interface PublisherOptions {
  /**
   * The service's id of the site whose feeds the blog serves (a positive integer).
   * @default Number(process.env.PUBLISHER_SITE_ID)
   */
  siteId?: number | undefined;
  /**
   * The service's base URL, without `/api/v1` (its public feeds live under `<baseUrl>/api/sites/<siteId>/`):
   * http(s), no credentials, no query string.
   * @default process.env.PUBLISHER_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * The sitemap route, or `false` for none.
   * @default { path: '/sitemap.xml', includeLocalPages: true, customPages: [], maxUrlsPerFile: 50000 }
   */
  sitemap?: false | SitemapOptions | undefined;
  /**
   * The RSS route, or `false` for none.
   * @default { path: '/rss.xml' }
   */
  rss?: false | RssOptions | undefined;
  /**
   * Serve `/robots.txt` (allow all, with a `Sitemap:` line naming the blog's sitemap) when the blog has
   * none of its own (no `public/robots.txt`, no `robots.txt` route). A robots.txt of the blog's own is never
   * replaced; it gets a warning when it does not name the sitemap. `false`: never serve one.
   * @default true
   */
  robotsTxt?: boolean | undefined;
  /**
   * The blog's route for one article, with `[slug]` where the article's slug goes. Used to map the
   * service's article URLs to the blog's own URLs (after `site` and `base`), in the sitemap, the feed and
   * the links inside articles.
   *
   * Multilingual blogs: `[lang]` where the article's language goes (`'/[lang]/blog/[slug]/'`), or one
   * pattern per language (`{ en: '/blog/[slug]/', fr: '/fr/blog/[slug]/' }`). The language is the one the
   * service's URL names (`/fr/blog/<slug>/`), else the article's `language`. An article in a language the
   * map does not name has no page on the blog: the sitemap and the feed leave it out, and links to it keep
   * the service's URL. Without `[lang]` or a map, every language goes to the one page of its slug, and only
   * the languages the `articlesLoader`s load (their `language` option) are listed.
   * @default '/blog/[slug]/'
   */
  articlePattern?: string | Readonly<Record<string, string>> | undefined;
  /**
   * Render the sitemap and RSS routes at build time (`true`) or per request (`false`, needs an adapter).
   * @default true for `output: 'static'`, false for `output: 'server'`
   */
  prerender?: boolean | undefined;
  /**
   * Timeout of one request to the service's public feeds, in milliseconds (100 to 2147483647).
   * The parts of an upstream sitemap index share one such deadline (fetched four at once, at most 16 MiB
   * together, else refused), so a visitor of a route with nothing cached waits at most about twice this;
   * once a copy is cached, an expired one is served at once while one refresh runs (stale-while-revalidate).
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Refresh this package's collections while `astro dev` runs, or `false` to disable.
   * @default { endpoint: '/_publisher/refresh' } (no polling)
   */
  devRefresh?: false | DevRefreshOptions | undefined;
  /**
   * Add the service's own origin (`baseUrl`: protocol, host and port, where its `/media/` images are served)
   * to Astro's `image.remotePatterns`, so article and featured images are optimised without editing
   * `image.domains`. Another host (a separate CDN) still goes in `image.domains`. `false`: only your own list.
   * The pattern always names the port (443 or 80 for a default-port origin), so no other port of that host
   * is fetched or proxied; Astro's own matcher reads an absent port as no port, so on a default-port service
   * Astro's `/_image` endpoint then proxies none of its URLs, and the loader's local copies are what is served.
   * @default true
   */
  allowServiceImages?: boolean | undefined;
  /**
   * Inject an endpoint that invalidates Astro's route cache by tag (`cache.provider`), for
   * `content-publisher watch --invalidate`: `true` (at `/_publisher/invalidate`), an object to move it, or
   * `false`. Needs an adapter; the token is read at request time from `PUBLISHER_INVALIDATE_TOKEN`
   * (`astro:env` secret, else `process.env`), and without one every request is refused.
   * @default false
   */
  invalidate?: boolean | InvalidateOptions | undefined;
}

export type SitemapOptionsMatchSchema = Proof<Documents<SitemapOptions, z.input<typeof sitemapOptionsSchema>>>;
export type RssOptionsMatchSchema = Proof<Documents<RssOptions, z.input<typeof rssOptionsSchema>>>;
export type InvalidateOptionsMatchSchema = Proof<Documents<InvalidateOptions, z.input<typeof invalidateOptionsSchema>>>;
export type DevRefreshOptionsMatchSchema = Proof<Documents<DevRefreshOptions, z.input<typeof devRefreshOptionsSchema>>>;
export type PublisherOptionsMatchSchema = Proof<Documents<PublisherOptions, z.input<typeof publisherOptionsSchema>>>;
