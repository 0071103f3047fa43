// The live loader's warnings on the server's log while the service fails, and the pause after a failed call
// that they announce.
import { STALE_MAX_AGE_SECONDS } from '../process/cache-tags.js';

/** How long a failed call is not sent again (its error, or the stale copy, answers meanwhile). */
export const FAILURE_PAUSE_MS = 10_000;

/**
 * A warning on the server's log at most once a minute per kind: an outage must show there (readers see only a
 * 503 or an old page), without a line per request.
 */
export function throttledWarning(who: () => string): (kind: string, what: string, stale: boolean) => void {
  const said = new Map<string, number>();
  return (kind, what, stale) => {
    const now = Date.now();
    if (now - (said.get(kind) ?? Number.NEGATIVE_INFINITY) < 60_000) return;
    said.set(kind, now);
    if (said.size > 100) said.delete(said.keys().next().value as string);
    console.warn(
      `[astro-content-publisher] ${who()}: ${what.replace(/\.$/, '')}. ${
        stale
          ? `Served the copy kept from before; with publisher() in the integrations, pages rendered from it are cached for at most ${STALE_MAX_AGE_SECONDS} s.`
          : 'The page gets the error (a 503 is the usual answer).'
      } Calls that fail are not sent again for ${FAILURE_PAUSE_MS / 1000} s.`,
    );
  };
}
