import { UpstreamFeedError } from '../client/public-feed.js';
import { XmlSafetyError } from '../feeds/errors.js';
import { withoutPrefix } from '../options/prefix.js';

/**
 * The last good body of each public feed a static build used (the RSS feed, the sitemap and its parts), kept in
 * Astro's cacheDir (last-good-files.ts): when the service is down during a later build, that build writes its
 * feed and sitemap from this copy (filtered by the articles and pages of this build, as a fresh body would be)
 * and warns, rather than failing while the loaders kept their articles. Only an outage falls back (no answer, a
 * timeout, a 5xx, 429 or 408): a 404, a redirect elsewhere or a body that is not a feed fails the build as
 * before, since those point at the configuration or at the service's content, which a copy would hide. This
 * module has no file access: the routes' bundle runs on edge runtimes too.
 */

/** An upstream failure that a copy may stand in for: the service did not answer, or answered that it is unwell. */
export function isOutage(error: unknown): error is UpstreamFeedError {
  if (!(error instanceof UpstreamFeedError)) return false;
  if (error.reason === 'network' || error.reason === 'timeout') return true;
  const status = error.status ?? 0;
  return error.reason === 'status' && (status >= 500 || status === 429 || status === 408);
}

// The prerendered feed route has no Astro logger: it leaves its notice here (a global symbol, as the loaders'
// record: the routes' bundle and the integration may be two copies of the package in the build's process), and
// the integration logs it when the build is done.
const STALE_NOTES = Symbol.for('astro-content-publisher.stale-feeds');

/** Leaves a stale-copy notice for the integration to log at the end of the build. */
export function noteStale(message: string): void {
  const global = globalThis as Record<symbol, unknown>;
  const notes = Array.isArray(global[STALE_NOTES]) ? (global[STALE_NOTES] as string[]) : [];
  notes.push(message);
  global[STALE_NOTES] = notes;
}

/** The notices left since the last call (emptied). */
export function takeStaleNotes(): string[] {
  const global = globalThis as Record<symbol, unknown>;
  const notes = Array.isArray(global[STALE_NOTES]) ? (global[STALE_NOTES] as string[]) : [];
  global[STALE_NOTES] = [];
  return notes;
}

/** What a build says when it used a copy: the failure, the copy's date, and that the next build asks again. */
export function staleMessage(error: Error, keptAt: Date): string {
  return `${withoutPrefix(error.message)} This build used the copy an earlier build kept (${keptAt.toISOString()}), filtered by this build's articles; the next build asks the service again.`;
}

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

/** A feed route that failed a build: the upstream's failure, with what to do as its hint (Astro prints both). */
export class FeedBuildError extends Error {
  override readonly name = 'FeedBuildError';
  readonly hint: string;

  constructor(error: unknown, feed: 'sitemap' | 'rss') {
    const message = error instanceof Error ? error.message : String(error);
    super(
      `[astro-content-publisher] The ${feed === 'sitemap' ? 'sitemap' : 'RSS feed'} was not built: ${withoutPrefix(message)}`,
      { cause: error },
    );
    this.hint = feedFailureHint(error, feed);
  }
}
