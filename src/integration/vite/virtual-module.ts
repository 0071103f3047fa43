import { VIRTUAL_CONFIG_ID, type RouteConfig } from '../settings/route-config.js';

const RESOLVED_ID = `\0${VIRTUAL_CONFIG_ID}`;

/** The part of a Vite plugin this package uses (typed here so the package does not depend on vite). */
export interface ConfigPlugin {
  name: string;
  resolveId(id: string): string | undefined;
  load(id: string): string | undefined;
}

/**
 * Serves the routes' settings as JSON. Read lazily: the blog's own pages are known only after
 * `astro:routes:resolved`, which runs after `astro:config:setup` but before the routes are bundled.
 */
export function routeConfigPlugin(getConfig: () => RouteConfig): ConfigPlugin {
  return {
    name: 'astro-content-publisher:route-config',
    resolveId: (id) => (id === VIRTUAL_CONFIG_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? `export default ${JSON.stringify(getConfig())};\n` : undefined),
  };
}
