/**
 * The documented types of the loaders' options: what an editor shows on hover. Each is proven equal to its
 * schema's input in ./options.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { SanitizeOptions } from '../../html/index.js';
import type { Documents, Proof } from '../../options/documented.js';
import type { imagesOptionSchema } from '../images/image-options.js';
import type {
  articlesLoaderOptionsSchema,
  budgetSchema,
  dataLoaderOptionsSchema,
  liveArticlesLoaderOptionsSchema,
} from './options.js';

/** The request budget of one build. */
export interface BudgetOptions {
  /**
   * The most authenticated requests this loader may send in one build (the list call included), 1 to 100000.
   * Each loader has its own (a project with one loader per language spends up to this many per loader); the
   * loaders on one key share the hourly window, and none goes below `reserve`.
   * @default 20
   */
  maxRequests?: number | undefined;
  /**
   * Requests left untouched in the hourly window (read from X-RateLimit-Remaining) for other tools.
   * @default 5
   */
  reserve?: number | undefined;
}

/** `articlesLoader({ images })`: article images through Astro's image pipeline. */
export interface ImagesOptions {
  /**
   * Largest image accepted, in bytes (1024 to 104857600); a larger one keeps its remote URL with a warning.
   * @default 10485760 (10 MiB)
   */
  maxBytes?: number | undefined;
  /**
   * Largest image accepted, in pixels (1 to 1000000000) as Astro's image service will decode it: the canvas
   * its decoder reads (a GIF's frames can grow it past the header's size) times the frames of an animation,
   * read before Astro sees it; a larger one (a small file can declare a canvas that takes gigabytes and tens
   * of seconds to decode) keeps its remote URL with a warning. A body whose header cannot be read is refused the same
   * way and never cached, so the next build asks again.
   * @default 40000000 (40 megapixels)
   */
  maxPixels?: number | undefined;
  /**
   * At most this many image downloads per build (the rest keep their remote URL and are fetched
   * next build), and as many revalidations of stale copies (the rest are used as they are, asked first next build).
   * @default 500
   */
  maxDownloads?: number | undefined;
  /**
   * Pixels Astro's image service may decode in one build for the images this build downloads or finds replaced
   * (1 to 100000000000, counted as `maxPixels` counts them); past it an image keeps its remote URL, with one
   * warning, and comes in a later build. Images cached by earlier builds cost nothing.
   * @default 1000000000 (1,000 megapixels: `maxDownloads` photos of 2 MP)
   */
  maxPixelsPerBuild?: number | undefined;
  /**
   * Bytes the image copies in the cache directory may take in all (1048576 to 1099511627776). As a build ends,
   * the copies no stored entry names are deleted; past this bound a new image keeps its remote URL with a warning.
   * @default 2147483648 (2 GiB)
   */
  maxCacheBytes?: number | undefined;
  /**
   * Timeout of one image download, in milliseconds (100 to 600000).
   * @default 15000
   */
  timeoutMs?: number | undefined;
  /**
   * Downloads running at once (1 to 32).
   * @default 4
   */
  concurrency?: number | undefined;
}

/** Options shared by every loader that talks to the service. */
export interface ConnectionOptions {
  /**
   * The site whose content is loaded (a positive integer).
   * @default Number(process.env.PUBLISHER_SITE_ID)
   */
  siteId?: number | undefined;
  /**
   * The service's base URL, without `/api/v1` (http or https, no credentials, no query string).
   * @default process.env.PUBLISHER_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * The API key (`btb_...`). Never written to the store, the output or the logs.
   * @default process.env.PUBLISHER_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * Accept a plain `http://` baseUrl to a host other than this machine (the key then travels in cleartext):
   * only for a trusted private network. Loopback is always accepted.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Timeout of one request (list, detail, keywords, digest, public feeds), in milliseconds (1 to
   * 2147483647). A request that has no complete answer by then fails like any transient error: the stored
   * content is kept with a warning (`strict` fails).
   * @default 30000
   */
  timeoutMs?: number | undefined;
}

/** The options of `articlesLoader(options)`. */
export interface ArticlesLoaderOptions extends ConnectionOptions {
  /**
   * The statuses built: one (sent as the list call's `status` filter) or several (the list is asked unfiltered).
   * Every list item's and detail's status is checked whatever the service did with the filter: another status
   * is never stored. API.md documents only `published`; widen it explicitly, e.g. `['published', 'scheduled']`.
   * @default 'published'
   */
  status?: string | string[] | undefined;
  /**
   * Only articles in this language (the list call's `language` filter), e.g. `'fr'`.
   * @default undefined (all)
   */
  language?: string | undefined;
  /**
   * At most this many articles (the list call's `limit`, 1..1000).
   * @default undefined (all, up to the service's maximum)
   */
  limit?: number | undefined;
  /**
   * The request budget of one build.
   * @default { maxRequests: 20, reserve: 5 }
   */
  budget?: BudgetOptions | undefined;
  /**
   * Extensions of the sanitising policy (allow-lists only; sanitising cannot be switched off).
   * @default undefined (the base policy)
   */
  sanitize?: SanitizeOptions | undefined;
  /**
   * `'force'` re-fetches every article (oldest checked first) within the budget.
   * @default 'auto'
   */
  refresh?: 'auto' | 'force' | undefined;
  /**
   * Turn every warning (stale content kept, request failed, removal withheld) into a build failure. A lasting
   * condition (a list cut short, a repeated slug), which later builds say as an info line after its first
   * warning, fails every build while it holds.
   * @default false
   */
  strict?: boolean | undefined;
  /**
   * Accept a list that comes back empty or without more than half of the stored articles. Without it such a
   * list is treated as suspect: nothing is removed and the build warns.
   * @default false
   */
  allowMassRemoval?: boolean | undefined;
  /**
   * Leftover budget re-fetches articles last checked longer ago than this (oldest first); `false` turns it off.
   * @default 24
   */
  revalidateAfterHours?: number | false | undefined;
  /**
   * How long a renamed article's old slug is remembered (days): the blog redirects its old URL to the new one
   * (a redirect page, the host's `_redirects`, or a 301 on demand) and points links at the new URL meanwhile.
   * `0` forgets a move at the next build.
   * @default 365
   */
  movesKeptDays?: number | undefined;
  /**
   * Article images through Astro's image pipeline: each allowed image (Astro's `image.domains` /
   * `remotePatterns`) is downloaded once into the cache directory and optimised by Astro; `false` leaves
   * every image on the service's CDN.
   * @default { maxBytes: 10485760, maxPixels: 40000000, maxDownloads: 500, maxPixelsPerBuild: 100000000, maxCacheBytes: 2147483648, timeoutMs: 15000, concurrency: 4 }
   */
  images?: false | ImagesOptions | undefined;
}

/** The options of `keywordsLoader(options)` and `digestLoader(options)`. */
export interface DataLoaderOptions extends ConnectionOptions {
  /**
   * Skip the request when the stored copy is younger than this many minutes (0: one request every build).
   * @default 0
   */
  maxAgeMinutes?: number | undefined;
  /**
   * The same budget as articlesLoader's. A data loader sends at most one request, so `maxRequests` (at least 1)
   * never binds; `reserve` does: no request when the last X-RateLimit-Remaining seen for this key (by any
   * loader of this process) is at or below it.
   * @default { maxRequests: 20, reserve: 5 }
   */
  budget?: BudgetOptions | undefined;
  /**
   * Turn a failed or skipped request (stale copy kept) into a build failure.
   * @default false
   */
  strict?: boolean | undefined;
}

/** The options of `liveArticlesLoader(options)`. */
export interface LiveArticlesLoaderOptions extends ConnectionOptions {
  /**
   * Default `status` filter of `getLiveCollection` (a filter passed there wins).
   * @default undefined (the service's default)
   */
  status?: string | undefined;
  /**
   * Default `language` filter of `getLiveCollection`.
   * @default undefined (all)
   */
  language?: string | undefined;
  /**
   * Default `limit` of `getLiveCollection`.
   * @default undefined (all, up to the service's maximum)
   */
  limit?: number | undefined;
  /**
   * Extensions of the sanitising policy.
   * @default undefined (the base policy)
   */
  sanitize?: SanitizeOptions | undefined;
  /**
   * No call when the last X-RateLimit-Remaining seen is at or below this: visitors cannot spend the
   * requests that builds, the watcher and the CLI need (cached answers are still served).
   * @default 5
   */
  reserve?: number | undefined;
  /**
   * How long answers (found and not found), lists and the known slugs are reused without a call, in
   * seconds (1 to 86400). A slug outside the known list is answered "not found" without a call.
   * @default 60
   */
  cacheSeconds?: number | undefined;
}

export type ImagesOptionsMatchSchema = Proof<Documents<false | ImagesOptions, z.input<typeof imagesOptionSchema>>>;
export type BudgetOptionsMatchSchema = Proof<Documents<BudgetOptions, z.input<typeof budgetSchema>>>;
export type ArticlesLoaderOptionsMatchSchema = Proof<
  Documents<ArticlesLoaderOptions, Partial<z.input<typeof articlesLoaderOptionsSchema>>>
>;
export type DataLoaderOptionsMatchSchema = Proof<
  Documents<DataLoaderOptions, Partial<z.input<typeof dataLoaderOptionsSchema>>>
>;
export type LiveArticlesLoaderOptionsMatchSchema = Proof<
  Documents<LiveArticlesLoaderOptions, Partial<z.input<typeof liveArticlesLoaderOptionsSchema>>>
>;
