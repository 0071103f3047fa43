import { UpstreamFeedError } from '../../client/public-feed.js';
import { withoutPrefix } from '../../options/prefix.js';

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
