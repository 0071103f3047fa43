import type { RssItem } from '../../feeds/index.js';
import type { RssSignal } from '../evidence/change-signals.js';
import type { LoaderClients } from '../budget/clients.js';
import { readRss, readSitemap, type RssSignals, type SitemapSignals } from './feed-signals.js';
import type { SyncState } from '../state/state.js';
import { describeError } from '../errors/warnings.js';

/**
 * Step 2 of a build: the free signals (public sitemap and RSS feed, no key, outside the rate limit). They
 * are started before the list call and awaited after it; a failure costs precision only, with a warning.
 */

export interface FreeSignals {
  /** slug -> the sitemap's lastmod; undefined when the sitemap could not be read. */
  sitemap: Map<string, string> | undefined;
  /** Every slug the sitemap lists; undefined when it could not be read. */
  sitemapSlugs: Set<string> | undefined;
  /** slug -> the feed's item and the hash of its content:encoded (empty when unreadable or unchanged). */
  rss: Map<string, { item: RssItem; signal: RssSignal }>;
  /** Hash -> length of every feed item's content:encoded (all languages): evidence of what the feed carries. */
  rssHashes: Map<string, number>;
  /** The sitemap answered with a body (not a 304): something the service publishes may have changed. */
  sitemapChanged: boolean;
}

export type PendingSignals = Promise<[SitemapSignals | { error: unknown }, RssSignals | { error: unknown }]>;

/**
 * Starts both reads. `fullFeed`: skip the conditional GET of the RSS feed, because entries to re-render
 * need its content (a 304 carries none).
 */
export function startFreeSignals(
  clients: LoaderClients,
  siteId: number,
  state: SyncState,
  fullFeed: boolean,
  language?: string,
): PendingSignals {
  const sitemap = readSitemap(clients.list, siteId, state.sitemap, language).catch((error: unknown) => ({ error }));
  const rss = readRss(clients.list, siteId, fullFeed ? undefined : state.rss, language).catch((error: unknown) => ({
    error,
  }));
  return Promise.all([sitemap, rss]);
}

/** Awaits the reads, records their validators in `state`, and warns about what could not be read. */
export async function readFreeSignals(
  pending: PendingSignals,
  state: SyncState,
  site: string,
  warn: (message: string, error?: unknown) => void,
): Promise<FreeSignals> {
  const [sitemapR, rssR] = await pending;
  const signals: FreeSignals = {
    sitemap: undefined,
    sitemapSlugs: undefined,
    rss: new Map(),
    rssHashes: new Map(),
    sitemapChanged: false,
  };
  if ('error' in sitemapR) {
    warn(
      `The public sitemap of ${site} could not be read (${describeError(sitemapR.error)}); changes are detected from the list and the RSS feed only in this build.`,
      sitemapR.error,
    );
  } else {
    signals.sitemap = sitemapR.lastmods;
    signals.sitemapSlugs = sitemapR.slugs;
    signals.sitemapChanged = !sitemapR.notModified;
    if (sitemapR.state) state.sitemap = sitemapR.state;
  }
  if ('error' in rssR) {
    warn(
      `The public RSS feed of ${site} could not be read (${describeError(rssR.error)}); every changed article needs a detail call in this build.`,
      rssR.error,
    );
  } else {
    signals.rss = rssR.items;
    signals.rssHashes = rssR.hashes;
    if (rssR.state) state.rss = rssR.state;
  }
  return signals;
}
