/**
 * The names of this package's build-time loaders, on a global Set that the integration's dev refresh reads
 * (src/integration/dev-refresh.ts, LOADER_NAMES_REGISTRY): `refreshContent({ loaders })` needs the exact
 * names, which carry the site and filters. A global symbol, not a module variable, because the content
 * config and the integration may load two copies of the package (Vite's module graph and Node's).
 * Live loaders are not registered: they have nothing to refresh.
 */
export const LOADER_NAMES_REGISTRY = Symbol.for('astro-content-publisher.loader-names');

export function registerLoaderName(name: string): void {
  const global = globalThis as Record<symbol, unknown>;
  const existing = global[LOADER_NAMES_REGISTRY];
  const names = existing instanceof Set ? (existing as Set<string>) : new Set<string>();
  names.add(name);
  global[LOADER_NAMES_REGISTRY] = names;
}
