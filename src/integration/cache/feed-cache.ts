import { onLocalInvalidation } from '../../loader/process/local-invalidation.js';
import { fetchPublicFeed, UpstreamFeedError, type FetchedFeed, type FeedValidators } from '../../client/public-feed.js';
import { isOutage } from './last-good.js';

/**
 * An in-memory cache of one upstream feed and what was made from it, for on-demand routes:
 * - fresh for the upstream `Cache-Control: max-age` (at most, and by default, one hour; at least one minute,
 *   even under `no-store`: otherwise every visitor's request, and a query string bypasses any CDN, costs
 *   a full download and rewrite): no request;
 * - then revalidated with a conditional request (If-None-Match / If-Modified-Since): a 304 reuses it;
 * - when the upstream fails (network, 5xx, hostile or broken XML), the last good copy is served
 *   (stale-if-error) and the upstream is not asked again for `errorRetryMs`;
 * - with no good copy yet, the failure itself is kept and thrown again for `errorRetryMs`, so a cold
 *   route does not send every visitor's request to an upstream that is down;
 * - concurrent requests share one upstream request;
 * - stale-while-revalidate: once a copy has expired, a request gets that copy at once while one refresh
 *   runs in the background (a slow upstream, or a sitemap index of many parts, never holds a visitor who
 *   could be served); only a cold cache (nothing good yet) makes a request wait for the upstream.
 * `get()` throws only when there is no good copy at all (the last failure, until `errorRetryMs` passed).
 */

export const ONE_HOUR_MS = 3_600_000;
/** The shortest time a copy is served without asking the upstream again, whatever the upstream says. */
export const MIN_LIFETIME_MS = 60_000;

/**
 * How a transform gets the other documents the feed names (a sitemap index's parts): `fetch` gets one; the cache
 * keeps what it got with the copy, and gives it back when the copy is made again (`remake`).
 */
export type PartSource = (url: string, fetch: () => Promise<string>) => Promise<string>;

export interface FeedCacheOptions<T> {
  url: string;
  timeoutMs: number;
  maxBytes: number;
  /** Makes the served value from the upstream body (and its parts); throwing marks the body as unusable. */
  transform: (body: string, part: PartSource) => T | Promise<T>;
  /** @default one hour: the service's own CDN cache time. */
  maxAgeMs?: number;
  /** The floor of the lifetime (an upstream `no-store` or `max-age=0` is raised to it). @default 60 s */
  minAgeMs?: number;
  /** How long to serve a stale copy before asking a failing upstream again. @default 30 s */
  errorRetryMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  onStale?: (error: Error) => void;
  /**
   * Serve an expired copy while one refresh runs in the background (outcome `refreshing`); `false` makes
   * the request wait for the refresh. The routes turn it on; a bare cache waits.
   * @default false
   */
  staleWhileRevalidate?: boolean;
  /**
   * Route cache tags of what is made from this feed: an invalidation of one of them (the integration's
   * endpoint) makes the copy expire, so the next request revalidates it upstream.
   * @default [] (expires by time only)
   */
  tags?: readonly string[];
  /**
   * A static build's copies across builds (last-good.ts): a fresh body that made a value is kept in `dir`, and
   * an outage with nothing cached in memory takes the kept copy, said through `warn`.
   */
  lastGood?: { dir: string; warn: (message: string) => void } | undefined;
}

export type CacheOutcome = 'fresh' | 'fetched' | 'revalidated' | 'stale' | 'refreshing';

interface Entry<T> extends FeedValidators {
  value: T;
  expiresAt: number;
  /** The upstream body the value was made from, and the parts the transform got (by URL). */
  source: { body: string; parts: Map<string, string> };
}

/** Parts got by `fetch`, kept in `parts`. */
function recording(parts: Map<string, string>): PartSource {
  return async (url, fetch) => {
    const body = await fetch();
    parts.set(url, body);
    return body;
  };
}

/** The parts kept with a copy; one it did not get is fetched (a transform that reads another part now). */
function replaying(parts: ReadonlyMap<string, string>): PartSource {
  return async (url, fetch) => parts.get(url) ?? fetch();
}

/** Parts fetched, not kept (a static build's copy from an earlier build). */
const fetching: PartSource = (_url, fetch) => fetch();

export class FeedCache<T> {
  readonly #options: FeedCacheOptions<T>;
  #entry: Entry<T> | undefined;
  #retryAfter = 0;
  /** The last failure while nothing good was cached, rethrown until `#retryAfter`. */
  #lastFailure: Error | undefined;
  #inFlight: Promise<{ value: T; outcome: CacheOutcome }> | undefined;
  /** The value must be made again from its source (`remake`): what it was made for no longer holds. */
  #remake = false;
  /** Counts `expire` (and `remake`) calls: a refresh that began before one makes no value that counts as current. */
  #generation = 0;
  /** The generation the refresh in flight began at. */
  #inFlightAt = 0;

  constructor(options: FeedCacheOptions<T>) {
    this.#options = options;
    const tags = new Set(options.tags ?? []);
    if (tags.size > 0)
      onLocalInvalidation(this, (invalidated) => {
        if ([...invalidated].some((tag) => tags.has(tag))) this.expire();
      });
  }

  /** The copy is revalidated on the next `get()` (a conditional request), and a failure is not waited out. */
  expire(): void {
    // A refresh already running fetched before this: the next get() waits for one of its own.
    this.#generation += 1;
    if (this.#entry) this.#entry.expiresAt = Number.NEGATIVE_INFINITY;
    this.#retryAfter = 0;
  }

  /**
   * What the value is made for changed (on demand: the articles the blog has): it is not served again, and the
   * next `get()` makes it anew, after a conditional request, from the new body or (a 304, or an upstream that
   * fails) from the kept one and its parts. So a copy kept through an outage survives the change.
   */
  remake(): void {
    if (this.#entry) this.#remake = true;
    this.expire();
  }

  async #remade(entry: Entry<T>): Promise<T> {
    const generation = this.#generation;
    entry.value = await this.#options.transform(entry.source.body, replaying(entry.source.parts));
    this.#remake = this.#generation !== generation;
    return entry.value;
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #lifetime(upstreamMaxAgeMs: number | undefined): number {
    const cap = this.#options.maxAgeMs ?? ONE_HOUR_MS;
    const floor = Math.min(this.#options.minAgeMs ?? MIN_LIFETIME_MS, cap);
    return Math.max(floor, Math.min(upstreamMaxAgeMs ?? cap, cap));
  }

  async get(): Promise<{ value: T; outcome: CacheOutcome }> {
    // A value made for what no longer holds is never served (`remake`).
    const entry = this.#remake ? undefined : this.#entry;
    const now = this.#now();
    if (entry && now < entry.expiresAt) return { value: entry.value, outcome: 'fresh' };
    if (now < this.#retryAfter) {
      if (entry) return { value: entry.value, outcome: 'stale' };
      if (this.#lastFailure) throw this.#lastFailure;
    }
    // A refresh that began before a `remake` runs to its end; a new one follows it (its value counts).
    if (this.#inFlight === undefined || this.#inFlightAt !== this.#generation) {
      const before = this.#inFlight?.catch(() => undefined) ?? Promise.resolve();
      this.#inFlightAt = this.#generation;
      const run: Promise<{ value: T; outcome: CacheOutcome }> = before
        .then(() => this.#refresh())
        .finally(() => {
          if (this.#inFlight === run) this.#inFlight = undefined;
        });
      this.#inFlight = run;
    }
    // #refresh never rejects while a copy exists (a failure serves that copy), so the background one is safe.
    // An invalidated copy (expire(): the owner asked for the new content) is not served while it refreshes.
    const invalidated = entry?.expiresAt === Number.NEGATIVE_INFINITY;
    if (entry && !invalidated && this.#options.staleWhileRevalidate === true) {
      this.#inFlight.catch(() => undefined); // in the background: its failure is the next caller's to see
      return { value: entry.value, outcome: 'refreshing' };
    }
    return this.#inFlight;
  }

  async #refresh(): Promise<{ value: T; outcome: CacheOutcome }> {
    const entry = this.#entry;
    const generation = this.#generation;
    const parts = new Map<string, string>();
    let fetched: FetchedFeed;
    let value: T;
    try {
      fetched = await fetchPublicFeed(this.#options.url, {
        timeoutMs: this.#options.timeoutMs,
        maxBytes: this.#options.maxBytes,
        conditional: entry ? { etag: entry.etag, lastModified: entry.lastModified } : undefined,
        fetch: this.#options.fetch,
      });
      if (fetched.status === 304) {
        if (!entry)
          throw new UpstreamFeedError({
            url: this.#options.url,
            reason: 'status',
            status: 304,
            detail: 'the service answered 304 to an unconditional request.',
          });
        if (this.#remake) await this.#remade(entry);
        entry.expiresAt = this.#now() + this.#lifetime(fetched.maxAgeMs);
        if (fetched.etag) entry.etag = fetched.etag;
        if (fetched.lastModified) entry.lastModified = fetched.lastModified;
        return { value: entry.value, outcome: 'revalidated' };
      }
      value = await this.#options.transform(fetched.body, recording(parts));
      const lastGood = this.#options.lastGood;
      // Loaded only here: the module reads and writes files, and the routes' bundle also runs on edge runtimes.
      if (lastGood) (await import('./last-good-files.js')).keepLastGood(lastGood.dir, this.#options.url, fetched.body);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#retryAfter = this.#now() + (this.#options.errorRetryMs ?? 30_000);
      const lastGood = this.#options.lastGood;
      const copy =
        !entry && lastGood && isOutage(failure)
          ? (await import('./last-good-files.js')).copyOnOutage(lastGood.dir, this.#options.url, failure)
          : undefined;
      if (lastGood && copy) {
        const stale = await this.#options.transform(copy.body, fetching);
        lastGood.warn(copy.notice);
        return { value: stale, outcome: 'stale' };
      }
      // A copy to remake is made again from what it was made from: no copy when that fails too.
      const kept =
        entry && this.#remake
          ? await this.#remade(entry).then(
              () => entry,
              () => undefined,
            )
          : entry;
      if (!kept) {
        this.#lastFailure = failure;
        throw failure;
      }
      this.#options.onStale?.(failure);
      return { value: kept.value, outcome: 'stale' };
    }
    this.#entry = {
      value,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      expiresAt: this.#now() + this.#lifetime(fetched.maxAgeMs),
      source: { body: fetched.body, parts },
    };
    // Made for what held when the refresh began: made again at the next get() if a remake came meanwhile.
    this.#remake = this.#generation !== generation;
    this.#retryAfter = 0;
    this.#lastFailure = undefined;
    return { value, outcome: 'fetched' };
  }
}
