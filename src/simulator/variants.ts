import { z } from 'zod';

/**
 * What `API.md` leaves open ("not shown"), as selectable behaviours of the simulator. The defaults are the
 * simulator's original answers; every other value is one a real service could give without breaking the
 * document. Set them with `startSimulator({ variants })`, `--variant key=value`, `--profile name`, or at run
 * time with `PUT /__simulator/variants`.
 */
export const serviceVariantsSchema = z.strictObject({
  /**
   * How many articles the list returns when no `limit` is sent (`'none'`: all of them).
   * @default the `listMax` value
   */
  listDefault: z.union([z.number().int().positive(), z.literal('none')]).optional(),
  /**
   * The largest `limit` honoured; larger values are clamped, not refused (`'none'`: no maximum).
   * @default 1000
   */
  listMax: z.union([z.number().int().positive(), z.literal('none')]).default(1000),
  /**
   * Paging beyond one list page: `'none'` (older articles cannot be listed), `'next-count'` (the response
   * carries `count` and a `next` URL), `'offset'` (an `offset` parameter) or `'page'` (a 1-based `page`
   * parameter, pages of the page size). Parameters are ignored unless the variant accepts them.
   * @default 'none'
   */
  paging: z.enum(['none', 'next-count', 'offset', 'page']).default('none'),
  /**
   * The sitemap's `<lastmod>`: the update time (`'updated'`), its date only (`'date'`), the publication
   * date (`'published'`, so edits never move it) or no `<lastmod>` at all (`'absent'`).
   * @default 'updated'
   */
  sitemapLastmod: z.enum(['updated', 'date', 'published', 'absent']).default('updated'),
  /**
   * What an RSS item carries: the whole article in `content:encoded` (`'full'`), a teaser (the first
   * paragraph and a "read more" link) in `content:encoded` (`'teaser'`), only the `description`
   * (`'description'`), or neither (`'none'`).
   * @default 'full'
   */
  rssContent: z.enum(['full', 'teaser', 'description', 'none']).default('full'),
  /**
   * What the sitemap lists besides the articles: nothing (`'articles'`), or the site's other pages too
   * (`'site'`: its home page and blog index first, a tag page per keyword last), as a site's standard
   * sitemap often does.
   * @default 'articles'
   */
  sitemapPages: z.enum(['articles', 'site']).default('articles'),
  /**
   * Feeds served from a CDN copy up to this many seconds old (`0`: always fresh). The copy is refreshed
   * when it is older than this.
   * @default 0
   */
  feedCdnMaxAgeSeconds: z.number().int().min(0).max(3600).default(0),
  /**
   * The same slug in several languages: seeded `fr` articles reuse the slug of the `en` article before
   * them, the admin API accepts a published slug again in another language, article URLs carry the
   * language (`/fr/blog/slug/`), and the detail endpoint answers with the oldest article of that slug.
   * @default false
   */
  sharedSlugs: z.boolean().default(false),
  /**
   * `X-RateLimit-Reset` as epoch seconds (`'epoch'`, the document's sample), epoch milliseconds
   * (`'epoch-ms'`), seconds until the reset (`'delta'`), an HTTP date (`'http-date'`) or not sent (`'absent'`).
   * @default 'epoch'
   */
  rateLimitReset: z.enum(['epoch', 'epoch-ms', 'delta', 'http-date', 'absent']).default('epoch'),
  /**
   * `Retry-After` of a 429: seconds until a slot frees (`'seconds'`), `0` (`'zero'`), or an HTTP date
   * (`'http-date'`, one second in the past: some servers round down).
   * @default 'seconds'
   */
  retryAfter: z.enum(['seconds', 'zero', 'http-date']).default('seconds'),
  /**
   * The list's `status` parameter: filtered on (`'honoured'`) or ignored, every status answered (`'ignored'`).
   * @default 'honoured'
   */
  listStatus: z.enum(['honoured', 'ignored']).default('honoured'),
  /**
   * The list's `language` parameter: filtered on (`'honoured'`) or ignored, every language answered (`'ignored'`).
   * @default 'honoured'
   */
  listLanguage: z.enum(['honoured', 'ignored']).default('honoured'),
  /**
   * The list's `limit` parameter: honoured up to `listMax` (`'honoured'`) or ignored (`'ignored'`: the page is
   * the one sent without `limit`, so more than asked).
   * @default 'honoured'
   */
  listLimit: z.enum(['honoured', 'ignored']).default('honoured'),
  /**
   * Which articles the list shows: only `published` ones (`'published'`), or those of every status too
   * (`'all'`: drafts, scheduled ones, any word the admin API set) unless `status` filters them out. The feeds
   * only ever show published articles.
   * @default 'published'
   */
  listStatuses: z.enum(['published', 'all']).default('published'),
  /**
   * The detail of an article whose status is not `published`: `404` (as if absent) or `200` (the article,
   * its `status` in the body).
   * @default 404
   */
  draftDetail: z.literal([404, 200]).default(404),
  /**
   * The detail's `language` parameter (with `sharedSlugs`): ignored, the oldest article of the slug answered
   * (`'ignored'`), or that language's article of the slug (`'honoured'`, 404 when there is none).
   * @default 'ignored'
   */
  detailLanguage: z.enum(['ignored', 'honoured']).default('ignored'),
  /**
   * A second CDN edge whose copy of each feed may be up to this many seconds old (`0`: one edge): successive
   * requests alternate between the edge `feedCdnMaxAgeSeconds` describes and this one, each with its own
   * `Age` and `Last-Modified`.
   * @default 0
   */
  feedStaleEdgeSeconds: z.number().int().min(0).max(3600).default(0),
  /**
   * RSS `content:encoded` cut past this many characters (and ` […]` added) for the articles longer than that,
   * the others whole (`'none'`: never cut). Only with `rssContent: 'full'`.
   * @default 'none'
   */
  rssTruncateAt: z.union([z.number().int().positive(), z.literal('none')]).default('none'),
  /**
   * The sitemap: the articles now (`'live'`), a valid but empty `<urlset>` (`'empty'`), or a copy older than
   * the list (`'stale'`: taken at a request and served until `sitemapStaleSeconds` old, so it lacks what was
   * published since and still lists what was removed), while the RSS feed stays fresh.
   * @default 'live'
   */
  sitemapState: z.enum(['live', 'empty', 'stale']).default('live'),
  /**
   * How long a `'stale'` sitemap copy is served before the next request takes a new one.
   * @default 3600
   */
  sitemapStaleSeconds: z.number().int().min(1).max(3600).default(3600),
  /**
   * Whether an image's bytes can change under the same URL, and what the image CDN's answers say about it:
   * `'immutable'` (a changed image gets a new URL; `Cache-Control: public, max-age=31536000, immutable` and an
   * ETag), `'revalidate'` (an image may be replaced in place, `POST /__simulator/media`; `Cache-Control:
   * no-cache` with an ETag and a Last-Modified that follow the bytes) or `'none'` (replaced in place, and no
   * caching header nor validator at all).
   * @default 'immutable'
   */
  imageCaching: z.enum(['immutable', 'revalidate', 'none']).default('immutable'),
});

export type ServiceVariants = z.input<typeof serviceVariantsSchema>;
export type ResolvedServiceVariants = z.output<typeof serviceVariantsSchema>;

/** Named combinations seen in real services (`--profile`). `current` is the default behaviour. */
export const PROFILES = {
  /** The simulator's original answers. */
  current: {},
  /** A small default page with next/count paging and feeds from a CDN (a typical REST framework). */
  paged: { listDefault: 50, listMax: 100, paging: 'next-count', feedCdnMaxAgeSeconds: 3600 },
  /** Teaser feeds, date-only lastmods and no paging at a small cap: the loader has the least to go on. */
  sparse: { listDefault: 20, listMax: 20, paging: 'none', sitemapLastmod: 'date', rssContent: 'teaser' },
  /** One slug per language, language-prefixed URLs, delta resets and Retry-After 0. */
  multilingual: { sharedSlugs: true, rateLimitReset: 'delta', retryAfter: 'zero' },
  /**
   * A service that answers more than it is asked and from old copies: list parameters ignored, every status
   * listed and its detail answered, resets in milliseconds, a stale CDN edge, cut feed bodies, a stale sitemap.
   */
  lax: {
    listStatus: 'ignored',
    listLanguage: 'ignored',
    listLimit: 'ignored',
    listStatuses: 'all',
    draftDetail: 200,
    rateLimitReset: 'epoch-ms',
    feedStaleEdgeSeconds: 3600,
    rssTruncateAt: 2000,
    sitemapState: 'stale',
  },
} as const satisfies Record<string, ServiceVariants>;

export type ProfileName = keyof typeof PROFILES;
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

/** The variants as `simulator --help` lists them. */
export const VARIANTS_HELP = `Profiles (--profile): current (the default), paged, sparse, multilingual (one slug in several
languages; PATCH and DELETE /__simulator/articles/<site>/<slug> take ?language=xx to pick one), lax (list
parameters ignored, every status listed, resets in ms, stale CDN edge and sitemap, cut feed bodies).

Variants (what the API document leaves open; defaults in brackets), e.g. --variant listMax=50:
  listDefault=N|none [listMax]  listMax=N|none [1000]  paging=none|next-count|offset|page [none]
  sitemapLastmod=updated|date|published|absent [updated]  rssContent=full|teaser|description|none [full]
  sitemapPages=articles|site [articles]  feedCdnMaxAgeSeconds=0..3600 [0]  sharedSlugs=true|false [false]
  rateLimitReset=epoch|epoch-ms|delta|http-date|absent [epoch]  retryAfter=seconds|zero|http-date [seconds]
  imageCaching=immutable|revalidate|none [immutable]  listStatus=honoured|ignored [honoured]
  listLanguage=honoured|ignored [honoured]  listLimit=honoured|ignored [honoured]  listStatuses=published|all [published]
  draftDetail=404|200 [404]  detailLanguage=ignored|honoured [ignored]  feedStaleEdgeSeconds=0..3600 [0]
  rssTruncateAt=N|none [none]  sitemapState=live|empty|stale [live]  sitemapStaleSeconds=1..3600 [3600]`;

/** The list page size when the request sends `limit` (or not), under the variants. */
export function pageSize(variants: ResolvedServiceVariants, limit: number | undefined): number {
  // `listLimit: 'ignored'`: the page a request without `limit` gets, whatever was asked.
  if (variants.listLimit === 'ignored') limit = undefined;
  const max = variants.listMax === 'none' ? Number.POSITIVE_INFINITY : variants.listMax;
  if (limit !== undefined) return Math.min(limit, max);
  const fallback = variants.listDefault ?? variants.listMax;
  return fallback === 'none' ? max : Math.min(fallback, max);
}
