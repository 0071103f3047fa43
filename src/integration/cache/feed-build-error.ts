/**
 * The error a build stops with when it cannot write its sitemap or feed: the upstream failure, and what to check
 * as its hint (Astro prints both), by what went wrong.
 */
import { UpstreamFeedError } from '../../client/public-feed.js';
import { XmlSafetyError } from '../../feeds/errors.js';
import { withoutPrefix } from '../../options/prefix.js';
import { isOutage } from './last-good.js';

/**
 * Why a build stopped without its sitemap or feed, and what to check, by what went wrong: an outage with no
 * kept copy, a 404 (the site), a redirect or an answer that is not a usable feed (the address, or the
 * service's feed itself).
 */
export function feedFailureHint(error: unknown, feed: 'sitemap' | 'rss'): string {
  const off = `or set publisher({ ${feed}: false })`;
  const what = feed === 'sitemap' ? 'sitemap' : 'feed';
  const stops = `The build stops rather than publish a broken ${what}`;
  if (isOutage(error))
    return `${stops}, and no earlier build kept a copy of it: retry once the service answers, ${off}.`;
  if (error instanceof UpstreamFeedError && error.reason === 'status' && error.status === 404)
    return `${stops}. Check \`siteId\` (the site must exist and be active) and \`baseUrl\`, ${off}.`;
  if (error instanceof UpstreamFeedError && error.reason === 'redirect')
    return `${stops}. Check \`baseUrl\`: it must be the service's own address, not one that redirects elsewhere; ${off}.`;
  if (error instanceof XmlSafetyError || (error instanceof UpstreamFeedError && error.reason === 'too-large'))
    return `${stops}. Check that \`baseUrl\` is the service's address; if it is, the service's ${what} is broken: retry once it is whole again, ${off}.`;
  return `${stops}. Check \`siteId\` and \`baseUrl\`, that the service is up, and retry; ${off}.`;
}

/**
 * A sitemap or feed that failed a build: the upstream's failure in its message and as `upstream` (not as `cause`,
 * which Astro would print again), what to do as its hint.
 */
export class FeedBuildError extends Error {
  override readonly name = 'FeedBuildError';
  readonly hint: string;
  readonly upstream: unknown;

  constructor(error: unknown, feed: 'sitemap' | 'rss') {
    const message = error instanceof Error ? error.message : String(error);
    super(
      `[astro-content-publisher] The ${feed === 'sitemap' ? 'sitemap' : 'RSS feed'} was not built: ${withoutPrefix(message)}`,
    );
    this.upstream = error;
    this.hint = feedFailureHint(error, feed);
  }
}
