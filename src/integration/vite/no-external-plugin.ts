/**
 * Keeps this package bundled (not externalised) in the server-side Vite environments that render pages, not
 * only `ssr`: Astro renders static pages in a `prerender` environment, where `ssr.noExternal` does not apply.
 * An endpoint of the blog's own that imports `astro-content-publisher/rss` would otherwise be loaded by Node
 * as it is, and its import of the routes' virtual config module would fail.
 *
 * Not in Astro's `astro` environment, which only loads `content.config.ts` (for `astro sync`, each build's
 * content sync and the dev server): the build-time loaders need nothing of Vite, and Vite transforming the
 * ~70 modules they import cost about 0.8 s of every build. There Node loads the package as it is, the same
 * copy as the integration's. (Our package.json's `"astro": { "external": true }` keeps Astro from treating
 * the package as one of its own, which would mark it `noExternal` everywhere.)
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
      name === 'client' || name === 'astro' || options.consumer === 'client'
        ? undefined
        : { resolve: { noExternal: [packageName] } },
  };
}
