/**
 * A record shared by every copy of this package loaded in one process: the integration, the loaders (bundled by
 * Vite with the content config) and the routes' bundle may each load their own copy of a module, so a module
 * variable would be one record per copy. Kept on `globalThis` under a registered symbol
 * (`astro-content-publisher.<name>`), made by `create` on first use.
 */
export function processRecord<T extends object>(name: string, create: () => T): T {
  const global = globalThis as Record<symbol, unknown>;
  return (global[Symbol.for(`astro-content-publisher.${name}`)] ??= create()) as T;
}
