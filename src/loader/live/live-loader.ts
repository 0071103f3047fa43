import type { LiveLoader } from 'astro/loaders';
import {
  type Client,
  NotFoundError,
  RateLimitError,
  type ArticleListItem,
  type ArticleQuery,
  type PublisherError,
} from '../../client/index.js';
import { sanitizeArticle, type Heading } from '../../html/index.js';
import { dataFromDetail, dataFromListItem, listItemOf, toDate } from '../entries/entries.js';
import { safeEntry, safeEntryData } from '../entries/entry-safety.js';
import { cacheTags, parseCacheTag, STALE_TAG } from '../process/cache-tags.js';
import { callRefusal, TtlCache } from './live-guard.js';
import { FAILURE_PAUSE_MS, throttledWarning } from './live-warning.js';
import { onLocalInvalidation } from '../process/local-invalidation.js';
import { parseOptions, withEnvDefaults, type LiveArticlesLoaderOptions } from '../options/options.js';
import { liveApiKey, liveBaseUrl, liveLoaderConstructionSchema, liveSiteId } from '../options/astro-secret.js';
import { createClientWithHints } from '../../client/client.js';
import { LOADER_HINTS } from '../budget/clients.js';
import { knownRemaining, recordRemaining } from '../budget/rate-window.js';
import { liveArticlesSeen, noteLiveArticles } from '../process/live-articles-seen.js';
import { noteServiceOrigins, serviceOriginsSeen } from '../process/service-origins.js';
import { linkedServiceArticles } from '../../html/linked-articles.js';
import { describeError } from '../errors/warnings.js';

/**
 * The most articles an entry's tags name besides its own (those it links to, in the order of the links): a CDN
 * takes a limited number of tags per response (Vercel 128), and an article links to a few others.
 */
const MAX_LINKED_TAGS = 32;

/** The cache key of the unfiltered list, whose slugs are the known ones. */
const KNOWN = JSON.stringify({});

/** Filters of `getLiveCollection('articles', filter)`: the list call's own query parameters (the client's type). */
export type LiveArticlesFilter = ArticleQuery;

/** `getLiveEntry('articles', 'my-slug')` passes `{ id }`; `{ slug }` is accepted too. */
export interface LiveArticleEntryFilter {
  id?: string;
  slug?: string;
}

/** Live entry data: the article fields, plus `headings` (live entries carry only `rendered.html`). */
export type LiveArticleData = Record<string, unknown> & { slug: string; title: string; headings?: Heading[] };

/** One live entry as returned to Astro, or null for a slug the service does not have. */
type LiveEntryAnswer = {
  id: string;
  data: LiveArticleData;
  rendered: { html: string };
  cacheHint: { tags: string[]; lastModified?: Date };
} | null;

/** A copy kept from an earlier answer, served because the service failed: tagged so it is not cached for long. */
function staleCopy(answer: LiveEntryAnswer): Exclude<LiveEntryAnswer, null> | undefined {
  if (answer === null) return undefined;
  return { ...answer, cacheHint: { ...answer.cacheHint, tags: [...answer.cacheHint.tags, STALE_TAG] } };
}

/**
 * A live loader (Astro live collections, `src/live.config.ts`) for on-demand pages. Every uncached call is
 * one authenticated request of the owner's hourly budget, and anonymous visitors choose the slugs, so:
 * - a slug outside the known list (one list call, reused for `cacheSeconds`) is "not found" without a call;
 * - answers (found and not found) and lists are reused for `cacheSeconds`; a stale copy beats an error (tagged
 *   `STALE_TAG`: the integration caches its page for a minute at most), a failed call is not sent again for
 *   10 s, and a reader of an uncached page waits for the call another reader sent;
 * - no call when the last X-RateLimit-Remaining seen is at or below `reserve`, nor while a 429's
 *   Retry-After runs; a visitor never waits for Retry-After (the client does not retry a 429).
 * Errors come back as values (`{ error }`) as Astro expects; an unknown slug gives `undefined` (not found).
 * The key, and the service address and the site when neither the option nor its environment variable
 * (PUBLISHER_BASE_URL, PUBLISHER_SITE_ID) is set at import, are read at the first call (an edge adapter's
 * environment exists only then): one still missing is that call's `ConfigError`, not a throw in live.config.ts
 * (which would fail every page that imports `astro:content`).
 *
 * Cache hints for Astro's route cache (`Astro.cache.set(cacheHint)`): an entry is tagged with the site's tag, its
 * own (`publisher:site-12`, `publisher:site-12:<slug>`, `lastModified` from `updated_at`) and those of the articles
 * it links to (32 at most: a page whose link goes nowhere once one of them is unpublished is invalidated with it),
 * a collection with the site's and the list tag (`publisher:site-12/articles`); see `cacheTags`. An invalidation
 * through the integration's endpoint (`publisher({ invalidate: true })`) also drops this loader's reuse of what it
 * names.
 */
export function liveArticlesLoader(
  options: LiveArticlesLoaderOptions = {},
): LiveLoader<LiveArticleData, LiveArticleEntryFilter, LiveArticlesFilter, PublisherError> {
  // The key from the environment is read (and checked) at the first request, not here: a malformed one is that
  // request's error (the page's 503 and one log line), not a throw in live.config.ts that answers every page 500.
  const { PUBLISHER_API_KEY: _keyAtImport, ...importEnv } = process.env;
  const opts = parseOptions(
    liveLoaderConstructionSchema,
    'liveArticlesLoader',
    withEnvDefaults({ ...options }, importEnv),
  );
  // The key, and the service address and the site when missing at import, are read at the first request
  // (astro:env's getSecret, then process.env): edge adapters have no environment at import, and a missing one is
  // then the call's error.
  let apiKey = opts.apiKey;
  let baseUrl = opts.baseUrl;
  let siteId = opts.siteId;
  let client: Client | undefined;
  let connecting: Promise<{ client: Client; siteId: number }> | undefined;
  const connect = () =>
    (connecting ??= liveBaseUrl(opts.baseUrl, opts.allowInsecureHttp)
      .then(async (url) => ({ url, key: await liveApiKey(opts.apiKey), site: await liveSiteId(opts.siteId) }))
      .then(
        ({ url, key, site }) => {
          baseUrl = url;
          apiKey = key;
          siteId = site;
          client = createClientWithHints(
            {
              baseUrl: url,
              apiKey: key,
              timeoutMs: opts.timeoutMs,
              userAgent: 'astro-content-publisher (liveArticlesLoader)',
              retries: 1,
              maxRetryAfterMs: 0,
              allowInsecureHttp: opts.allowInsecureHttp,
            },
            LOADER_HINTS,
          );
          return { client, siteId: site };
        },
        (error: unknown) => {
          connecting = undefined; // a key or address set later (a new deployment's secret) is used by the next request
          throw error;
        },
      ));
  const ttlMs = opts.cacheSeconds * 1000;
  const answers = new TtlCache<LiveEntryAnswer>(ttlMs, 1_000);
  const lists = new TtlCache<ArticleListItem[]>(ttlMs, 100);
  // An invalidation by tag (the integration's endpoint) also ends this loader's own reuse of what it names, so
  // that the page rendered again shows the new content; the old copies stay as the fallback of a failed call.
  const expireInvalidated = (tags: ReadonlySet<string>): Promise<void> | undefined => {
    if (siteId === undefined) return undefined; // no call yet: nothing reused
    if (tags.has(cacheTags.site(siteId))) {
      answers.expireAll();
      lists.expireAll();
    } else {
      if (tags.has(cacheTags.list(siteId))) lists.expireAll();
      for (const tag of tags) {
        const parsed = parseCacheTag(tag);
        if (parsed?.kind !== 'article' || parsed.siteId !== siteId) continue;
        // A long slug's tag names only its digest: the slugs held are matched by their tag.
        const named = (slug: string) =>
          parsed.slug !== undefined ? slug === parsed.slug : cacheTags.article(siteId!, slug) === tag;
        for (const slug of parsed.slug !== undefined ? [parsed.slug] : answers.keys().filter(named))
          answers.expire(slug);
        // A new article is not among the known slugs yet: without a fresh list it would stay "not found".
        if (!lists.get(KNOWN)?.value.some((item) => named(item.slug))) lists.expire(KNOWN);
      }
    }
    // The unfiltered list says which articles the blog serves, and the feeds and the pages' links read it: listed
    // again now (the call the next page would send), and the endpoint answers after it, so that a feed rendered
    // right after the invalidation does not link an article the service just stopped publishing.
    // Only the loader whose list the feeds read: an older one (before live.config.ts was evaluated again) does not.
    const known = lists.get(KNOWN);
    if (known === undefined || known.fresh || liveArticlesSeen(siteId)?.lister?.deref() !== loader) return undefined;
    return list({}).then(
      () => undefined,
      () => undefined,
    );
  };
  const inFlight = new Map<string, Promise<ArticleListItem[]>>();
  // One detail call per slug at a time: a burst of readers of an uncached page waits for the same answer.
  const entriesInFlight = new Map<string, Promise<LiveEntryAnswer>>();
  // A call that failed is not sent again for FAILURE_PAUSE_MS: while the service is down, every uncached view
  // would otherwise send one (two, with the client's retry) for the same error.
  const failures = new Map<string, { at: number; error: unknown }>();
  const recentFailure = (key: string): unknown => {
    const failure = failures.get(key);
    return failure !== undefined && Date.now() - failure.at < FAILURE_PAUSE_MS ? failure.error : undefined;
  };
  const failed = (key: string, error: unknown): void => {
    failures.set(key, { at: Date.now(), error });
    if (failures.size > 1_000) failures.delete(failures.keys().next().value as string);
  };
  const warn = throttledWarning(() => `liveArticlesLoader (site ${siteId ?? 'not set yet'})`);
  let blockedUntil = 0;

  /** Sends one call if the gate is open; records what the service said about the window. */
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const remaining = knownRemaining(baseUrl ?? '', apiKey ?? '') ?? client?.rateLimit?.remaining;
    const refusal = callRefusal({ remaining, reserve: opts.reserve, blockedUntil, now: Date.now() });
    if (refusal) {
      const hint = 'Cache the on-demand pages, raise `cacheSeconds`, or lower `reserve` of liveArticlesLoader.';
      throw new RateLimitError({
        method: 'GET',
        path: what,
        message: `[astro-content-publisher] liveArticlesLoader sent no request for ${what}: ${refusal}. ${hint}`,
        hint,
      });
    }
    try {
      return await run();
    } catch (error) {
      if (error instanceof RateLimitError) blockedUntil = Date.now() + (error.retryAfter ?? 60) * 1000;
      throw error;
    } finally {
      recordRemaining(baseUrl ?? '', apiKey ?? '', client?.rateLimit);
    }
  };

  /**
   * The list for a query: reused while fresh, one call at a time per query, the stale copy on failure (with the
   * failure: an entry missing from a stale list may have been published since).
   */
  const list = async (query: ArticleQuery): Promise<{ items: ArticleListItem[]; failure?: unknown }> => {
    const key = JSON.stringify(query);
    const cached = lists.get(key);
    if (cached?.fresh) return { items: cached.value };
    let pending = inFlight.get(key);
    const paused = recentFailure(`list ${key}`);
    if (!pending && paused === undefined) {
      pending = call('GET /api/v1/sites/<id>/articles/', async () => {
        const session = await connect();
        return session.client.articles(session.siteId, query);
      }).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    try {
      if (pending === undefined) throw paused;
      const items = (await pending).map((item) => safeEntryData(item, apiKey));
      lists.set(key, items);
      // The unfiltered list says which article pages the blog serves: links in its pages go to the blog for these.
      if (key === KNOWN && siteId !== undefined) noteLiveArticles(siteId, items, loader);
      return { items };
    } catch (error) {
      // Only what the service answered (or did not) pauses: a key set after the server started is used at once.
      if (pending !== undefined && client !== undefined) failed(`list ${key}`, error);
      warn(`list ${describeError(error)}`, `the article list failed: ${describeError(error)}`, cached !== undefined);
      if (cached) return { items: cached.value, failure: error };
      throw error;
    }
  };

  /** fetchEntry, one call per slug at a time (readers of one uncached page share it). */
  const fetchEntryOnce = (slug: string): Promise<LiveEntryAnswer> => {
    let pending = entriesInFlight.get(slug);
    if (!pending) {
      pending = fetchEntry(slug).finally(() => entriesInFlight.delete(slug));
      entriesInFlight.set(slug, pending);
    }
    return pending;
  };

  const fetchEntry = async (slug: string): Promise<LiveEntryAnswer> => {
    try {
      const session = await connect();
      const detail = await call('GET /api/v1/sites/<id>/articles/<slug>/', () =>
        session.client.article(session.siteId, slug),
      );
      const site = session.siteId;
      const { data, html: content } = safeEntry(dataFromDetail(listItemOf(detail), detail), detail.content, apiKey); // no secret, no non-http(s) url/featuredImage
      const url = typeof data.url === 'string' ? data.url : undefined;
      // The site's domain on the service: links to its articles in the blog's pages point at the blog (the middleware).
      if (url) noteServiceOrigins(site, [url]);
      const { html, headings } = sanitizeArticle(content, {
        ...(opts.sanitize ? { sanitize: opts.sanitize } : {}),
        ...(url ? { articleUrl: url } : {}),
      });
      const lastModified = toDate(detail.updated_at);
      return {
        id: detail.slug,
        data: { ...data, slug: detail.slug, title: detail.title, headings },
        rendered: { html },
        cacheHint: {
          tags: [
            cacheTags.site(site),
            cacheTags.article(site, detail.slug),
            // The articles it links to: the page's links change when one of them leaves the service.
            ...linkedServiceArticles(html, serviceOriginsSeen(site), detail.slug, MAX_LINKED_TAGS).map((slug) =>
              cacheTags.article(site, slug),
            ),
          ],
          ...(lastModified ? { lastModified } : {}),
        },
      };
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  };

  const loader: LiveLoader<LiveArticleData, LiveArticleEntryFilter, LiveArticlesFilter, PublisherError> = {
    name: `astro-content-publisher:live-articles${opts.siteId === undefined ? '' : `:site-${opts.siteId}`}`,
    async loadCollection({ filter }) {
      try {
        const query = Object.fromEntries(
          Object.entries({
            status: filter?.status ?? opts.status,
            language: filter?.language ?? opts.language,
            limit: filter?.limit ?? opts.limit,
          }).filter(([, v]) => v !== undefined),
        );
        const { items, failure } = await list(query);
        // The session that filled the list (now or earlier): settled, so no call.
        const { siteId: site } = await connect();
        // No tag per entry: Astro merges the entries' tags into the page's, and a list of 1,000 articles would
        // send 1,000 tags (beyond what CDNs accept in one header). The list tag is invalidated on any change.
        const entries = items.map((item) => ({ id: item.slug, data: dataFromListItem(item) }));
        const newest = items.map((i) => toDate(i.published_at)?.getTime() ?? 0).reduce((a, b) => Math.max(a, b), 0);
        const tags = [cacheTags.site(site), cacheTags.list(site)];
        return {
          entries,
          cacheHint: {
            tags: failure === undefined ? tags : [...tags, STALE_TAG],
            ...(newest ? { lastModified: new Date(newest) } : {}),
          },
        };
      } catch (error) {
        return { error: error as PublisherError };
      }
    },
    async loadEntry({ filter }) {
      const slug = filter.slug ?? filter.id ?? '';
      const cached = answers.get(slug);
      if (cached?.fresh) return cached.value ?? undefined;
      try {
        // The known slugs (every status: the unfiltered list) answer unknown slugs without a call.
        const known = await list({}); // cached under KNOWN
        if (!known.items.some((item) => item.slug === slug)) {
          // A stale list cannot say a slug is not published: it may be newer than the list. An error, not a 404.
          if (known.failure !== undefined) throw known.failure;
          return undefined;
        }
        const paused = recentFailure(`entry ${slug}`);
        if (paused !== undefined) throw paused;
        let answer: LiveEntryAnswer;
        try {
          answer = await fetchEntryOnce(slug);
        } catch (error) {
          if (client !== undefined) failed(`entry ${slug}`, error);
          throw error;
        }
        answers.set(slug, answer);
        return answer ?? undefined;
      } catch (error) {
        warn(
          `entry ${describeError(error)}`,
          `the article "${slug}" could not be loaded: ${describeError(error)}`,
          cached !== undefined,
        );
        if (cached) return staleCopy(cached.value);
        return { error: error as PublisherError };
      }
    },
  };
  // Kept as long as Astro keeps this loader: a live.config.ts evaluated again (astro dev) leaves the old one's
  // listener and copies to the garbage collector.
  onLocalInvalidation(loader, expireInvalidated);
  return loader;
}
