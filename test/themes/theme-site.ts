/** A theme copy built with its own `build` script and served by `astro preview`, for the real-theme tests. */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Simulator } from 'astro-content-publisher/simulator';
import { checkSiteUrls, startPreview, type SiteUrlCheck } from './site-urls.js';
import { serviceSiteOrigin } from './theme-checks.js';
import { baseEnv, runScript } from './theme-project.js';

export const SITE = 'https://example.com';

/** The service's address, key and site for a theme's loaders. */
export function serviceEnv(simulator: Simulator, siteId: number): NodeJS.ProcessEnv {
  return {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.agence,
    PUBLISHER_SITE_ID: String(siteId),
  };
}

/** Runs `check` with the built site served by `astro preview` at `local`, then stops the server. */
export async function whileServed<T>(
  dir: string,
  env: NodeJS.ProcessEnv,
  check: (local: string) => Promise<T>,
): Promise<T> {
  const preview = await startPreview(dir, { ...baseEnv, ...env });
  try {
    return await check(preview.local);
  } finally {
    preview.stop();
  }
}

/** Builds with the theme's own `build` script, serves and checks every URL; prints the figure of the closing note. */
export async function buildAndCheck(
  label: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  simulator: Simulator,
  siteId: number,
  feeds: string[],
): Promise<{ log: string; check: SiteUrlCheck }> {
  const log = await runScript(dir, 'build', env);
  expect(log).not.toContain(simulator.tokens.agence);
  const serviceOrigin = await serviceSiteOrigin(simulator, siteId);
  const check = await whileServed(dir, env, (local) =>
    checkSiteUrls({ local, outDir: join(dir, 'dist'), site: SITE, serviceOrigin, feeds }),
  );
  const external = [...check.external].map(([origin, n]) => `${origin} ${n}`).join(', ');
  console.log(
    `[${label}] ${check.checked} URLs checked, ${check.failures.length} not 200 (${check.pages} pages; not requested, other hosts: ${external || 'none'})`,
  );
  for (const failure of check.failures.slice(0, 10)) {
    console.log(`[${label}]   ${failure.status} ${failure.url} (named by ${failure.from})`);
  }
  return { log, check };
}
