// The origins of the service's site seen in this process, per site: a prerendered feed route's links (a static
// build without an articles loader knows them from nowhere else, and sends the feed's links to articles it did not
// build back there: settleBuiltFeeds), and the articles liveArticlesLoader fetched (an on-demand blog without an
// articles loader points its pages' links at its own article pages with them). One record per process
// (processRecord): the routes' bundle, the loaders and the integration may be copies of the package.
//
// The link middleware re-points every page's links on these origins, the owner's own links included, so an origin
// counts only where the service's own site answers for it: the home its feed declares (the channel's <link>), or a
// host of at least a quarter of the distinct article URLs it named (articleHosts, the loader's rule). One article
// or feed item on https://competitor.example/ would otherwise send the owner's links there to the blog.
import { processRecord } from './process-record.js';
import { articleHosts } from './published-articles.js';

/** Distinct article URLs counted per origin, and origins per site: bounds on what a hostile service can grow. */
const MAX_URLS_PER_ORIGIN = 10_000;
const MAX_ORIGINS = 64;

interface SeenOrigins {
  /** The site's home as its feed declares it. */
  homes: Set<string>;
  /** Per origin, the distinct article URLs named on it. */
  urls: Map<string, Set<string>>;
}

function record(siteId: number): SeenOrigins {
  const all = processRecord('feed-origins-v2', () => new Map<number, SeenOrigins>());
  let seen = all.get(siteId);
  if (seen === undefined) {
    seen = { homes: new Set(), urls: new Map() };
    all.set(siteId, seen);
  }
  return seen;
}

function originOf(url: string): string | undefined {
  const parsed = URL.parse(url);
  return parsed && (parsed.protocol === 'https:' || parsed.protocol === 'http:') ? parsed.origin : undefined;
}

/** Records article URLs of `siteId` (a feed's item links, an article's `url`): their hosts, by count. */
export function noteServiceOrigins(siteId: number, urls: readonly string[]): void {
  const seen = record(siteId);
  for (const url of urls) {
    const origin = originOf(url);
    if (origin === undefined) continue;
    let named = seen.urls.get(origin);
    if (named === undefined) {
      if (seen.urls.size >= MAX_ORIGINS) continue;
      named = new Set();
      seen.urls.set(origin, named);
    }
    if (named.size < MAX_URLS_PER_ORIGIN) named.add(url);
  }
}

/** Records the site's home as the service's feed declares it (its channel `<link>`). */
export function noteServiceHome(siteId: number, url: string | undefined): void {
  const origin = url === undefined ? undefined : originOf(url);
  if (origin !== undefined && record(siteId).homes.size < MAX_ORIGINS) record(siteId).homes.add(origin);
}

/** The origins the service's site answers for, as recorded for `siteId`. */
export function serviceOriginsSeen(siteId: number): string[] {
  const seen = record(siteId);
  const counts = new Map([...seen.urls].map(([origin, urls]) => [origin, urls.size]));
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return [...new Set([...seen.homes, ...articleHosts(counts, total)])].sort();
}
