// The origins of the service's article URLs seen in this process, per site: a prerendered feed route's links (a
// static build without an articles loader knows them from nowhere else, and sends the feed's links to articles it
// did not build back there: settleBuiltFeeds), and the articles liveArticlesLoader fetched (an on-demand blog
// without an articles loader points its pages' links at its own article pages with them). One record per process
// (processRecord): the routes' bundle, the loaders and the integration may be copies of the package.
import { processRecord } from './process-record.js';

function serviceOrigins(): Map<number, Set<string>> {
  return processRecord('feed-origins', () => new Map<number, Set<string>>());
}

/** Records origins of `siteId`'s article URLs (a feed's channel and item links, an article's `url`). */
export function noteServiceOrigins(siteId: number, origins: readonly string[]): void {
  const seen = serviceOrigins().get(siteId) ?? new Set<string>();
  for (const origin of origins) seen.add(origin);
  serviceOrigins().set(siteId, seen);
}

/** The origins recorded for `siteId`. */
export function serviceOriginsSeen(siteId: number): string[] {
  return [...(serviceOrigins().get(siteId) ?? [])];
}
