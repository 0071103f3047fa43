/**
 * Wiring of the invalidation endpoint (`publisher({ invalidate })`) into the Astro config: kept apart from
 * integration.ts so that the hooks stay short. The endpoint itself is ./invalidate-handler.ts.
 */
import type { AstroConfig, InjectedRoute } from 'astro';
import { AstroError } from 'astro/errors';
import { withPrefix } from '../../options/prefix.js';
import type { ParsedPublisherOptions } from '../options/options.js';

const ENTRYPOINT = new URL('../routes/invalidate.js', import.meta.url);

/** Injects the endpoint (on demand); a project without an adapter cannot serve it, which fails the build. */
export function injectInvalidateRoute(
  invalidate: ParsedPublisherOptions['invalidate'],
  config: Pick<AstroConfig, 'adapter'>,
  injectRoute: (route: InjectedRoute) => void,
): void {
  if (invalidate === false) return;
  if (!config.adapter)
    throw new AstroError(
      withPrefix('`invalidate` serves an endpoint on demand, and this project has no adapter.'),
      'Add an adapter (such as @astrojs/node) and a cache provider (`cache: { provider: memoryCache() }`), or remove `invalidate`.',
    );
  injectRoute({ pattern: invalidate.path, entrypoint: ENTRYPOINT, prerender: false });
}

/** Said once the config is final (an adapter may set the provider): without one there is no route cache. */
export function invalidateWithoutProvider(
  invalidate: ParsedPublisherOptions['invalidate'],
  config: Pick<AstroConfig, 'cache'>,
): string | undefined {
  if (invalidate === false || config.cache?.provider) return undefined;
  return withPrefix(
    "`invalidate` is on but no `cache.provider` is configured: pages are not cached by Astro, so the endpoint only drops the live loader's and the feed routes' own copies. Set cache: { provider: memoryCache() } (or your host's provider).",
  );
}
