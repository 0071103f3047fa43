import { z } from 'zod';
import { baseUrlSchema, durationMsSchema, siteIdSchema } from '../../options/fields.js';

/**
 * The options of `publisher(options)`: one strict schema, from which the types are derived.
 * Environment fallbacks (`PUBLISHER_SITE_ID`, `PUBLISHER_BASE_URL`) are applied in `resolve-options.ts`,
 * so the schema itself stays a pure description of what the user may write.
 */

const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/;

/** An article route: from the base, `[slug]` once, `[lang]` at most once, no query, fragment or space. */
function isArticlePattern(value: string): boolean {
  return (
    value.startsWith('/') &&
    value.split('[slug]').length === 2 &&
    value.split('[lang]').length <= 2 &&
    !/[?#\s]/.test(value)
  );
}

/** A route path served by the blog: absolute, ends in `.xml`, no query, no `..`. */
const xmlRoutePath = (option: string) =>
  z
    .string({ error: `\`${option}\` must be a string path such as "/sitemap.xml".` })
    .regex(/^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*\/)*[A-Za-z0-9_~-][A-Za-z0-9._~-]*\.xml$/, {
      error: (issue) =>
        `\`${option}\` must be an absolute path ending in ".xml" without query or "..", such as "/sitemap.xml" (got ${JSON.stringify(issue.input)}).`,
    });

/** An endpoint's path: absolute, no query; `example` is its default, shown in the errors. */
const endpointPath = (option: string, example: string) =>
  z
    .string({ error: `\`${option}\` must be a string path such as "${example}".` })
    .regex(/^\/[A-Za-z0-9._~/-]+$/, {
      error: (issue) =>
        `\`${option}\` must be an absolute path without query, such as "${example}" (got ${JSON.stringify(issue.input)}).`,
    })
    .default(example);

export const sitemapOptionsSchema = z.strictObject({
  /**
   * Where the blog serves its sitemap. Parts of a split sitemap are served beside it
   * (`/sitemap.xml` -> `/sitemap-1.xml`, `/sitemap-2.xml`, ...).
   * @default '/sitemap.xml'
   */
  path: xmlRoutePath('sitemap.path').default('/sitemap.xml'),
  /**
   * Called with the absolute URL of each of the blog's own pages (pages Astro builds that are not service
   * articles); return `false` to leave the page out. The service's published articles are always listed.
   * @default undefined (every page is listed)
   */
  filter: z
    .custom<(url: string) => boolean>((value) => typeof value === 'function', {
      error: '`sitemap.filter` must be a function (url: string) => boolean.',
    })
    .optional(),
  /**
   * Add the blog's own pages (home, about, tag pages, ...) to the sitemap, besides the service's articles.
   * @default true
   */
  includeLocalPages: z.boolean({ error: '`sitemap.includeLocalPages` must be true or false.' }).default(true),
  /**
   * Absolute URLs to add to the sitemap besides the service's articles and the pages Astro builds (pages
   * served by another app on the same domain, on-demand pages with parameters). Not passed to `filter`.
   * @default []
   */
  customPages: z
    .array(
      z.url({
        protocol: /^https?$/,
        error: (issue) =>
          `\`sitemap.customPages\` must hold absolute http(s) URLs such as "https://blog.example.com/shop/" (got ${JSON.stringify(issue.input)}).`,
      }),
      { error: '`sitemap.customPages` must be an array of absolute URLs.' },
    )
    .default([]),
  /**
   * The most URLs in one sitemap file; above it `/sitemap.xml` becomes a sitemap index. The protocol's
   * limit is 50,000 (and 50 MB, which is always enforced).
   * @default 50000
   */
  maxUrlsPerFile: z
    .number({ error: '`sitemap.maxUrlsPerFile` must be a number.' })
    .int({ error: '`sitemap.maxUrlsPerFile` must be a whole number.' })
    .min(1, { error: '`sitemap.maxUrlsPerFile` must be at least 1.' })
    .max(50_000, { error: '`sitemap.maxUrlsPerFile` must be at most 50000 (the sitemap protocol limit).' })
    .default(50_000),
});

export const rssOptionsSchema = z.strictObject({
  /**
   * Where the blog serves the RSS feed.
   * @default '/rss.xml'
   */
  path: xmlRoutePath('rss.path').default('/rss.xml'),
  /**
   * The channel's `<title>` (a theme's site title, say).
   * @default the service's channel title
   */
  title: z.string({ error: '`rss.title` must be a string.' }).optional(),
  /**
   * The channel's `<description>`.
   * @default the service's channel description
   */
  description: z.string({ error: '`rss.description` must be a string.' }).optional(),
  /**
   * Only the service's articles in this language (as the loaders recorded them, e.g. `'en'`), with the
   * channel's `<language>`. For one feed per language, or items of the blog's own, use `rssHandler()`.
   * @default undefined (every language)
   */
  language: z.string({ error: '`rss.language` must be a language code such as "en".' }).optional(),
});

export const devRefreshOptionsSchema = z.strictObject({
  /**
   * The dev-only endpoint that refreshes this package's collections on POST (for a webhook or a manual
   * `curl -X POST`).
   * @default '/_publisher/refresh'
   */
  endpoint: endpointPath('devRefresh.endpoint', '/_publisher/refresh'),
  /**
   * Poll the public RSS feed every `pollIntervalMs` milliseconds while `astro dev` runs (a conditional
   * request: an unchanged feed costs a 304) and refresh the collections when it changed.
   * @default undefined (no polling)
   */
  pollIntervalMs: durationMsSchema(1_000).optional(),
  /**
   * The content loader names to refresh. Only this package's loaders are refreshed, never the others; the answer
   * (`{ "refreshed": [...] }`) names those that ran, that is those a collection of the project uses.
   * @default ["astro-content-publisher:articles", "astro-content-publisher:keywords", "astro-content-publisher:digest"]
   */
  loaders: z
    .array(
      z.string().startsWith('astro-content-publisher', {
        error:
          '`devRefresh.loaders` may only name this package\'s loaders (names starting with "astro-content-publisher").',
      }),
    )
    .min(1, { error: '`devRefresh.loaders` must name at least one loader.' })
    .optional(),
  /**
   * At most one refresh per `minIntervalMs` milliseconds: every refresh runs the loaders (a list call each), and
   * any local process (or LAN host with `--host`) can POST. A POST within the interval gets 429 and Retry-After.
   * @default 30000
   */
  minIntervalMs: durationMsSchema(0).default(30_000),
  /**
   * A shared secret the POST must carry as `Authorization: Bearer <token>` (pass it from the environment, not
   * from the source). Without it, any process that reaches the dev server may trigger a refresh.
   * @default undefined (no token required)
   */
  token: z
    .string({ error: '`devRefresh.token` must be a string.' })
    .min(16, { error: '`devRefresh.token` must be at least 16 characters long (a random secret).' })
    .optional(),
  /**
   * No refresh (so no list call) when the last X-RateLimit-Remaining a loader saw is at or below this: 429 with
   * Retry-After until the window's reset (X-RateLimit-Reset). A window cleared before its reset (a plan upgrade)
   * is noticed by a probe: a refused refresh runs anyway once that count is a minute old (one request per API key),
   * then after 2, 4, 8... minutes while the window stays low.
   * @default 5
   */
  reserve: z
    .number({ error: '`devRefresh.reserve` must be a whole number of requests.' })
    .int({ error: '`devRefresh.reserve` must be a whole number of requests.' })
    .min(0, { error: '`devRefresh.reserve` must be 0 or more.' })
    .default(5),
});

export const invalidateOptionsSchema = z.strictObject({
  /**
   * The path of the invalidation endpoint (on demand): POST `{ "tags": [...] }` with
   * `Authorization: Bearer <PUBLISHER_INVALIDATE_TOKEN>`.
   * @default '/_publisher/invalidate'
   */
  path: endpointPath('invalidate.path', '/_publisher/invalidate'),
});

export const publisherOptionsSchema = z.strictObject({
  /**
   * The service's id of the site whose feeds the blog serves.
   * @default Number(process.env.PUBLISHER_SITE_ID)
   */
  siteId: siteIdSchema().optional(),
  /**
   * The service's base URL (its public feeds live under `<baseUrl>/api/sites/<siteId>/`).
   * @default process.env.PUBLISHER_BASE_URL
   */
  baseUrl: baseUrlSchema().optional(),
  /**
   * The sitemap route, or `false` for none.
   * @default { path: '/sitemap.xml', includeLocalPages: true, maxUrlsPerFile: 50000 }
   */
  sitemap: z
    .union([z.literal(false), sitemapOptionsSchema], {
      error: '`sitemap` must be an object of sitemap options or false.',
    })
    .prefault({}),
  /**
   * The RSS route, or `false` for none.
   * @default { path: '/rss.xml' }
   */
  rss: z
    .union([z.literal(false), rssOptionsSchema], { error: '`rss` must be an object of RSS options or false.' })
    .prefault({}),
  /**
   * Serve `/robots.txt` (allow all, with a `Sitemap:` line naming the blog's sitemap) when the blog has
   * none of its own (no `public/robots.txt`, no `robots.txt` route). A robots.txt of the blog's own is never
   * replaced; it gets a warning when it does not name the sitemap. `false`: never serve one.
   * @default true
   */
  robotsTxt: z.boolean({ error: '`robotsTxt` must be true or false.' }).default(true),
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
  articlePattern: z
    .union(
      [
        z.string().refine(isArticlePattern, {
          error: (issue) =>
            `\`articlePattern\` must start with "/", contain "[slug]" exactly once and "[lang]" at most once, such as "/blog/[slug]/" or "/[lang]/blog/[slug]/" (got ${JSON.stringify(issue.input)}).`,
        }),
        z
          .record(
            z.string(),
            z.string().refine(isArticlePattern, {
              error: (issue) =>
                `\`articlePattern\` values must start with "/" and contain "[slug]" exactly once, such as "/fr/blog/[slug]/" (got ${JSON.stringify(issue.input)}).`,
            }),
          )
          .refine((map) => Object.keys(map).every((key) => LANGUAGE_CODE.test(key)), {
            error: (issue) =>
              `\`articlePattern\` keys must be language codes such as "en" or "pt-BR" (got ${JSON.stringify(Object.keys(issue.input as object).find((key) => !LANGUAGE_CODE.test(key)))}).`,
          })
          .refine((map) => Object.keys(map).length > 0, {
            error: '`articlePattern` must name at least one language, such as { en: "/blog/[slug]/" }.',
          }),
      ],
      {
        error:
          '`articlePattern` must be a string such as "/blog/[slug]/", or one pattern per language such as { en: "/blog/[slug]/", fr: "/fr/blog/[slug]/" }.',
      },
    )
    .default('/blog/[slug]/'),
  /**
   * Render the sitemap and RSS routes at build time (`true`) or per request (`false`, needs an adapter).
   * @default true for `output: 'static'`, false for `output: 'server'`
   */
  prerender: z.boolean({ error: '`prerender` must be true or false.' }).optional(),
  /**
   * Timeout of one request to the service's public feeds, in milliseconds.
   * The parts of an upstream sitemap index share one such deadline (fetched four at once, at most 16 MiB
   * together, else refused), so a visitor of a route with nothing cached waits at most about twice this;
   * once a copy is cached, an expired one is served at once while one refresh runs (stale-while-revalidate).
   * @default 30000
   */
  timeoutMs: durationMsSchema(100).default(30_000),
  /**
   * Refresh this package's collections while `astro dev` runs, or `false` to disable.
   * @default { endpoint: '/_publisher/refresh' } (no polling)
   */
  devRefresh: z
    .union([z.literal(false), devRefreshOptionsSchema], {
      error: '`devRefresh` must be an object of dev refresh options or false.',
    })
    .prefault({}),
  /**
   * Add the service's own host (the `baseUrl` origin: protocol, host and port, where its `/media/` images
   * are served) to Astro's `image.remotePatterns`, so article and featured images are optimised without
   * editing `image.domains`. Other hosts (a separate CDN) still go in `image.domains` yourself. `false`:
   * only your own `image.domains` / `image.remotePatterns` are allowed. The pattern always names the port
   * (443 or 80 for a default-port origin), so no other port of that host is fetched or proxied.
   * @default true
   */
  allowServiceImages: z.boolean({ error: '`allowServiceImages` must be true or false.' }).default(true),
  /**
   * Inject an endpoint that invalidates Astro's route cache by tag (`cache.provider`), for
   * `content-publisher watch --invalidate`: `true` (at `/_publisher/invalidate`), an object to move it, or
   * `false`. Needs an adapter; the token is read at request time from `PUBLISHER_INVALIDATE_TOKEN`
   * (`astro:env` secret, else `process.env`), and without one every request is refused.
   * @default false
   */
  invalidate: z
    .union([z.boolean(), invalidateOptionsSchema], {
      error: '`invalidate` must be true, false or an object such as { path: "/_publisher/invalidate" }.',
    })
    .default(false)
    .transform((value) => (value === true ? invalidateOptionsSchema.parse({}) : value)),
});

/** What the user may pass to `publisher()`: documented interfaces, proven equal to the schemas' input. */
export type {
  PublisherOptions,
  SitemapOptions,
  RssOptions,
  DevRefreshOptions,
  InvalidateOptions,
} from './options-docs.js';
/** The options after defaults. */
export type ParsedPublisherOptions = z.output<typeof publisherOptionsSchema>;
