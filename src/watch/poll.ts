/**
 * One conditional poll of the public feeds. Both are fetched with the validators of the last committed
 * state (ETag / Last-Modified): an unchanged feed answers 304 and costs no parsing. The feeds are public:
 * no API key is sent and nothing counts in the rate limit.
 */
import { ResponseFormatError } from '../client/index.js';
import type { FeedValidators } from '../client/public-feed.js';
// The parsers alone: the feeds' index also brings the rewriters and the HTML sanitiser, which watch never uses.
import { parseRssFeed } from '../feeds/rss-parse.js';
import { parseSitemapEntries } from '../feeds/sitemap-parse.js';
import { toItemRecord } from './detect.js';
import type { FeedItemRecord, WatchState } from './state.js';

/** What the client's `rss()`/`sitemap()` answer (structural, so tests can pass a stub). */
export type ConditionalFeedResponse =
  | { notModified: true; etag?: string; lastModified?: string; url: string }
  | { notModified: false; body: string; etag?: string; lastModified?: string; url: string };

export interface FeedFetcher {
  rss(siteId: number, conditional?: { etag?: string; lastModified?: string }): Promise<ConditionalFeedResponse>;
  sitemap(siteId: number, conditional?: { etag?: string; lastModified?: string }): Promise<ConditionalFeedResponse>;
}

type Validators = FeedValidators;

export type FeedObservation<T> = { notModified: true } | ({ notModified: false; data: T } & Validators);

export interface Observation {
  rss: FeedObservation<FeedItemRecord[]>;
  sitemap: FeedObservation<Record<string, string>>;
}

function validatorsOf(response: Validators): Validators {
  return {
    ...(response.etag !== undefined && { etag: response.etag }),
    ...(response.lastModified !== undefined && { lastModified: response.lastModified }),
  };
}

/**
 * A 304 to a request that sent no validators is a wrong answer from upstream (or a cache in between),
 * not a bug of ours: a bad-response error, which `watch --once` maps to exit 12 like a malformed feed.
 */
function unexpectedNotModified(url: string): ResponseFormatError {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // keep the text as given
  }
  const hint =
    'A cache or proxy between the watcher and the service is answering on its own: check its configuration, or retry later.';
  return new ResponseFormatError({
    message: `[GET] ${url}: 304 Not Modified to a request without If-None-Match/If-Modified-Since. ${hint}`,
    hint,
    method: 'GET',
    path,
    status: 304,
    endpoint: `GET ${path}`,
    fieldPath: '(status)',
  });
}

/** Polls both feeds. `state` undefined (first run) sends unconditional requests. */
export async function pollFeeds(
  fetcher: FeedFetcher,
  site: number,
  state: WatchState | undefined,
): Promise<Observation> {
  const [rssResponse, sitemapResponse] = await Promise.all([
    fetcher.rss(site, state ? validatorsOf(state.rss) : undefined),
    fetcher.sitemap(site, state ? validatorsOf(state.sitemap) : undefined),
  ]);
  let rss: Observation['rss'];
  if (rssResponse.notModified && state) rss = { notModified: true };
  else if (rssResponse.notModified) throw unexpectedNotModified(rssResponse.url);
  else {
    const feed = parseRssFeed(rssResponse.body, { url: rssResponse.url });
    const items = feed.items.map(toItemRecord).filter((item): item is FeedItemRecord => item !== undefined);
    rss = { notModified: false, data: items, ...validatorsOf(rssResponse) };
  }
  let sitemap: Observation['sitemap'];
  if (sitemapResponse.notModified && state) sitemap = { notModified: true };
  else if (sitemapResponse.notModified) throw unexpectedNotModified(sitemapResponse.url);
  else {
    const entries: Record<string, string> = {};
    for (const entry of parseSitemapEntries(sitemapResponse.body, { url: sitemapResponse.url }))
      entries[entry.loc] = entry.lastmod ?? '';
    sitemap = { notModified: false, data: entries, ...validatorsOf(sitemapResponse) };
  }
  return { rss, sitemap };
}

/** The state after this observation is committed (feeds that answered 304 keep their previous record). */
export function applyObservation(
  previous: WatchState | undefined,
  observation: Observation,
  base: { site: number; baseUrl: string; now: Date; triggered?: { changes: number } },
): WatchState {
  const rss = observation.rss.notModified
    ? (previous?.rss ?? { items: [] })
    : { ...validatorsOf(observation.rss), items: observation.rss.data };
  const sitemap = observation.sitemap.notModified
    ? (previous?.sitemap ?? { entries: {} })
    : { ...validatorsOf(observation.sitemap), entries: observation.sitemap.data };
  const lastTrigger = base.triggered
    ? { at: base.now.toISOString(), changes: base.triggered.changes }
    : previous?.lastTrigger;
  return {
    version: 1,
    site: base.site,
    baseUrl: base.baseUrl,
    rss,
    sitemap,
    ...(lastTrigger && { lastTrigger }),
    savedAt: base.now.toISOString(),
  };
}

/** True when committing the observation would change what is stored (new validators or records). */
export function observationDiffers(previous: WatchState, observation: Observation): boolean {
  const next = applyObservation(previous, observation, {
    site: previous.site,
    baseUrl: previous.baseUrl,
    now: new Date(0),
  });
  const strip = (state: WatchState) => JSON.stringify({ rss: state.rss, sitemap: state.sitemap });
  return strip(next) !== strip(previous);
}
