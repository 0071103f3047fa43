/**
 * The names of this package's build-time loaders: fixed, so that the integration's dev refresh can pass them
 * to `refreshContent({ loaders })`, which matches names exactly, without reading the content config. Several
 * loaders of one kind (sites, languages) share a name: a refresh reloads them all, and each keeps its own
 * state (under its key in the collection's `meta`) and log label (`<name>:<key>`).
 * Live loaders have nothing to refresh.
 */
export const LOADER_NAMES = {
  articles: 'astro-content-publisher:articles',
  keywords: 'astro-content-publisher:keywords',
  digest: 'astro-content-publisher:digest',
} as const;

export const BUILD_TIME_LOADER_NAMES: readonly string[] = Object.values(LOADER_NAMES);
