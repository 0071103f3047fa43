import { cacheTags, STALE_MAX_AGE_SECONDS, STALE_TAG } from '../../loader/process/cache-tags.js';
import { FeedCache, type CacheOutcome } from '../cache/feed-cache.js';
import { FeedBuildError } from '../cache/feed-build-error.js';
import { noteStale } from '../cache/last-good.js';
import {
  buildRss,
  buildSitemap,
  fetchSitemapPart,
  RSS_MAX_BYTES,
  SITEMAP_MAX_BYTES,
  type SitemapFiles,
} from '../proxy/feed-transform.js';
import { robotsTxtBody } from '../blog/conflicts.js';
import { knownArticlesKey } from '../blog/known-articles.js';
import { liveArticlesSeen } from '../../loader/process/live-articles-seen.js';
import { blogUrl, type RouteConfig } from '../settings/route-config.js';
import { tagRouteCache } from '../cache/route-cache-tags.js';

/**
 * The request handling of the two routes, apart from Astro's route modules so it can be tested directly.
 * The upstream URL comes only from the RouteConfig: nothing of the visitor's request (path, query,
 * headers) reaches the upstream request.
 */

const XML_TYPE = 'application/xml; charset=utf-8';
const RSS_TYPE = 'application/rss+xml; charset=utf-8';
/** What browsers and CDNs in front of the blog may cache: the service's own feed cache time. */
const PUBLIC_CACHE = 'public, max-age=3600';

/** The route context fields the handlers use (a subset of Astro's APIContext). */
export interface FeedRouteContext {
  params: Record<string, string | undefined>;
  isPrerendered: boolean;
  /** Astro's route cache of the request (Astro 7, on demand): a copy kept through an outage is tagged STALE_TAG. */
  cache?: Parameters<typeof tagRouteCache>[0]['cache'];
}

// One cache per upstream URL, shared by the sitemap route and its parts route (same bundle, same module), with the
// variant of what the blog has that it was built for.
const caches = new Map<string, { variant: string; cache: FeedCache<unknown> }>();

/**
 * At build time (prerendering) every build fetches afresh: Node keeps the route module, and so its cache,
 * between programmatic builds in one process, and a build must never publish a copy of an earlier build.
 */
function cacheFor<T>(
  feed: string,
  create: () => FeedCache<T>,
  context: FeedRouteContext,
  config: RouteConfig,
): FeedCache<T> {
  if (context.isPrerendered && !config.dev) return create();
  // What the blog has, as the feed's mapping read it: the loaders' record under `astro dev`, the live list on demand.
  const variant = `${knownArticlesKey(config)}${liveListKey(config)}`;
  const kept = caches.get(feed);
  if (kept) {
    // A copy made for another variant is not served again: it is made anew from the upstream body it was made
    // from (after a conditional request), which an outage then still has (FeedCache.remake).
    if (kept.variant !== variant) {
      kept.cache.remake();
      kept.variant = variant;
    }
    return kept.cache as FeedCache<T>;
  }
  const cache = create();
  caches.set(feed, { variant, cache: cache as FeedCache<unknown> });
  return cache;
}

/**
 * On demand, the feeds map their links by liveArticlesLoader's last list (feed-transform.ts): a new list is a new
 * copy, also when the service answers 304 to the next request (its feed the same, the blog's articles not).
 */
function liveListKey(config: RouteConfig): string {
  const live = liveArticlesSeen(config.siteId);
  return live === undefined ? '' : ` live#${live.generation}`;
}

/** The route cache tags of a feed route: the site's and the feed's own (see cache-tags.ts). */
export function feedTags(config: RouteConfig, feed: 'sitemap' | 'rss'): string[] {
  return [cacheTags.site(config.siteId), cacheTags[feed](config.siteId)];
}

function warnStale(error: Error): void {
  console.warn(`${error.message} Serving the last good copy.`);
}

function sitemapCache(config: RouteConfig, context: FeedRouteContext): FeedCache<SitemapFiles> {
  return cacheFor(
    `sitemap ${config.sitemapUrl}`,
    () =>
      new FeedCache({
        url: config.sitemapUrl,
        timeoutMs: config.timeoutMs,
        maxBytes: SITEMAP_MAX_BYTES,
        transform: (body, kept) =>
          buildSitemap(body, config, config.localPages, (part, limits) =>
            kept(part, () => fetchSitemapPart(part, config, limits)),
          ),
        onStale: warnStale,
        staleWhileRevalidate: true,
        tags: feedTags(config, 'sitemap'),
      }),
    context,
    config,
  );
}

function rssCache(config: RouteConfig, context: FeedRouteContext): FeedCache<string> {
  // A static build keeps the feed it used, for a later build during an outage (last-good.ts).
  const lastGood =
    context.isPrerendered && !config.dev && config.lastGoodDir !== undefined
      ? { dir: config.lastGoodDir, warn: noteStale }
      : undefined;
  return cacheFor(
    `rss ${config.rssUrl}`,
    () =>
      new FeedCache({
        url: config.rssUrl,
        timeoutMs: config.timeoutMs,
        maxBytes: RSS_MAX_BYTES,
        transform: (body) => buildRss(body, config),
        onStale: warnStale,
        staleWhileRevalidate: true,
        tags: feedTags(config, 'rss'),
        lastGood,
      }),
    context,
    config,
  );
}

/**
 * The feeds are written from an allow-list (no XHTML, SVG, MathML or stylesheet instruction can come
 * out); these headers are the second wall for a browser that opens them: no type sniffing, and a CSP
 * sandbox with nothing allowed, so no script could run and no resource load even if markup got through.
 */
export const FEED_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
} as const;

/**
 * A feed's answer. Served from a copy kept while the service failed (`stale`): tagged STALE_TAG, so that the
 * route cache keeps it for at most STALE_MAX_AGE_SECONDS (the integration's middleware), as it does a page
 * rendered from such a copy, and browsers and CDNs for as long: the invalidation sent during the outage is
 * caught up once the service answers again. Under Astro's route cache, which `watch --invalidate` purges,
 * browsers revalidate (`no-cache`) rather than keep a copy for the hour the service allows.
 */
function xmlResponse(body: string, type: string, context: FeedRouteContext, outcome: CacheOutcome): Response {
  const stale = outcome === 'stale';
  if (stale) tagRouteCache(context, [STALE_TAG]);
  const cacheControl = stale
    ? `public, max-age=${STALE_MAX_AGE_SECONDS}`
    : context.cache?.enabled === true
      ? 'no-cache'
      : PUBLIC_CACHE;
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': type, 'Cache-Control': cacheControl, ...FEED_SECURITY_HEADERS },
  });
}

function plain(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** What a visitor sees when the upstream failed: nothing about the upstream (its URL, status or redirect target). */
export const VISITOR_502 = 'Bad Gateway: this feed is unavailable right now. Please try again later.';

/**
 * Nothing cached and the upstream failed: at build time this must fail the build (the error names the URL
 * and the reason); on demand the details go to the server log and the visitor gets a generic 502 (an
 * upstream that redirects to an internal address must not learn, through visitors, what answered there).
 */
function upstreamFailure(
  error: unknown,
  config: RouteConfig,
  context: FeedRouteContext,
  feed: 'sitemap' | 'rss',
): Response {
  if (context.isPrerendered && !config.dev) throw new FeedBuildError(error, feed);
  const message = error instanceof Error ? error.message : String(error);
  console.error(message);
  return plain(502, VISITOR_502);
}

export async function handleSitemap(config: RouteConfig, context: FeedRouteContext): Promise<Response> {
  const rawPart = context.params.part;
  let files: SitemapFiles;
  let outcome: CacheOutcome;
  try {
    ({ value: files, outcome } = await sitemapCache(config, context).get());
  } catch (error) {
    return upstreamFailure(error, config, context, 'sitemap');
  }
  if (rawPart === undefined) return xmlResponse(files.xml, XML_TYPE, context, outcome);
  const part = /^[1-9][0-9]{0,5}$/.test(rawPart) ? Number(rawPart) : 0;
  const xml = files.kind === 'index' ? files.parts[part - 1] : undefined;
  return xml === undefined
    ? plain(404, 'Not found: there is no such sitemap part.')
    : xmlResponse(xml, XML_TYPE, context, outcome);
}

/** Part numbers of the split sitemap, for prerendered parts routes (`getStaticPaths`). */
export async function sitemapPartNumbers(config: RouteConfig): Promise<number[]> {
  const files = (await sitemapCache(config, { params: {}, isPrerendered: false }).get()).value;
  return files.kind === 'index' ? files.parts.map((_, i) => i + 1) : [];
}

export async function handleRss(config: RouteConfig, context: FeedRouteContext): Promise<Response> {
  try {
    const { value, outcome } = await rssCache(config, context).get();
    return xmlResponse(value, RSS_TYPE, context, outcome);
  } catch (error) {
    return upstreamFailure(error, config, context, 'rss');
  }
}

/** `/robots.txt` when the blog has none: allow all, and name the blog's sitemap. */
export function handleRobots(config: RouteConfig): Response {
  if (config.sitemap === false) return plain(404, 'Not found.');
  return new Response(robotsTxtBody(blogUrl(config, config.sitemap.path)), {
    status: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': PUBLIC_CACHE },
  });
}
