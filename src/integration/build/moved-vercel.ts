/**
 * Renamed articles on Vercel (issue 38, item 1). Astro's `redirects` config is read before the loaders run, so a
 * move the build learns cannot go through it; but @astrojs/vercel writes the Build Output API's routes
 * (`.vercel/output/config.json`) in its astro:build:done, and the adapter is the first integration, so by ours the
 * file is there. The moves are added as 301 routes ahead of Vercel's filesystem phase (where the redirect page
 * would answer 200), after the adapter's own redirect and header routes. The redirect page stays as the fallback.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { MovedRedirect } from './moved-redirects.js';

export const VERCEL_ADAPTER = '@astrojs/vercel';

interface VercelRoute {
  src?: string;
  handle?: string;
  [key: string]: unknown;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The route that sends `from` (with or without its trailing slash) to the new URL's path. */
function redirectRoute({ from, to }: MovedRedirect): VercelRoute {
  const path = from.replace(/\/+$/, '');
  return { src: `^${escapeRegex(path)}/?$`, headers: { Location: new URL(to).pathname }, status: 301 };
}

/**
 * Adds the redirects to the Build Output API config under `root` (the project's root). Returns whether the file
 * was there to take them (no file: not a Vercel build, or the adapter wrote nothing).
 */
export function addVercelRedirects(root: URL, redirects: readonly MovedRedirect[]): boolean {
  const file = new URL('.vercel/output/config.json', root);
  if (redirects.length === 0 || !existsSync(file)) return false;
  const config = JSON.parse(readFileSync(file, 'utf8')) as { routes?: VercelRoute[] };
  const routes = config.routes ?? [];
  const phase = routes.findIndex((route) => route.handle !== undefined);
  const at = phase === -1 ? routes.length : phase;
  config.routes = [...routes.slice(0, at), ...redirects.map(redirectRoute), ...routes.slice(at)];
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return true;
}
