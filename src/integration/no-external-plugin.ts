/**
 * Keeps this package bundled (not externalised) in every server-side Vite environment, not only `ssr`:
 * Astro renders static pages in a `prerender` environment, where `ssr.noExternal` does not apply. An
 * endpoint of the blog's own that imports `astro-content-publisher/rss` would otherwise be loaded by Node
 * as it is, and its import of the routes' virtual config module would fail.
 */
export interface NoExternalPlugin {
  name: string;
  configEnvironment(
    name: string,
    options: { consumer?: 'client' | 'server' },
  ): { resolve: { noExternal: string[] } } | undefined;
}

export function noExternalPlugin(packageName: string): NoExternalPlugin {
  return {
    name: 'astro-content-publisher:no-external',
    configEnvironment: (name, options) =>
      name === 'client' || options.consumer === 'client' ? undefined : { resolve: { noExternal: [packageName] } },
  };
}
