import { createHash } from 'node:crypto';
import type { AstroIntegrationLogger } from 'astro';
import { parseRssFeed } from '../../feeds/index.js';
import { fetchPublicFeed, type FeedValidators } from '../../client/public-feed.js';
import { RSS_MAX_BYTES } from '../proxy/feed-transform.js';

/**
 * The dev-only poll of the public RSS feed: a conditional request every `interval` ms (an unchanged feed
 * costs a 304), and `onChange` when the feed changed since the previous poll.
 */

export interface FeedPollSetup {
  rssUrl: string;
  interval: number;
  timeoutMs: number;
  logger: AstroIntegrationLogger;
  onChange: () => Promise<unknown>;
}

/**
 * What identifies the feed's content: its items (guid, link, title, pubDate, description, content), in
 * order. Channel-level fields such as `lastBuildDate` are left out: a feed that only rebuilt with the same
 * items is no reason to run the loaders (and spend the rate limit) again.
 * Throws the feeds' XmlSafetyError for a hostile or broken body (the poll logs it and tries again).
 */
export function feedDigest(body: string, url: string): string {
  const items = parseRssFeed(body, { url, maxBytes: RSS_MAX_BYTES }).items.map((item) => [
    item.guid ?? '',
    item.link ?? '',
    item.title ?? '',
    item.pubDate ?? '',
    item.description ?? '',
    item.contentEncoded ?? '',
  ]);
  return createHash('sha256').update(JSON.stringify(items)).digest('hex');
}

/** Starts polling; returns the function that stops it. */
export function startFeedPoll(setup: FeedPollSetup): () => void {
  const { rssUrl, logger } = setup;
  let validators: FeedValidators = {};
  let digest: string | undefined;
  let failing = false;
  const poll = async (): Promise<void> => {
    try {
      const fetched = await fetchPublicFeed(rssUrl, {
        timeoutMs: setup.timeoutMs,
        maxBytes: RSS_MAX_BYTES,
        conditional: validators,
      });
      failing = false;
      if (fetched.status === 304) return;
      const next = feedDigest(fetched.body, rssUrl);
      if (digest !== undefined && next !== digest) await setup.onChange();
      // Recorded only once the refresh succeeded: if it failed, the next poll sees the change again.
      validators = { etag: fetched.etag, lastModified: fetched.lastModified };
      digest = next;
    } catch (error) {
      // Log once per failure streak: a service that is down should not flood the dev console.
      if (!failing)
        logger.warn(`RSS poll failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      failing = true;
    }
  };

  // The next poll is scheduled when the current one has finished (not with setInterval): a slow or hung
  // upstream then never has two polls in flight. The first poll only records the feed's current state.
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async (): Promise<void> => {
    await poll();
    if (stopped) return;
    timer = setTimeout(() => void loop(), setup.interval);
    timer.unref();
  };
  void loop();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
