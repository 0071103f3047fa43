// Where the playground's content comes from: a real account (PUBLISHER_* set) or the embedded simulator.
// Shared by demo.mjs, the end-to-end tests and the benchmarks, so they all build the blog the same way.
import { startSimulator } from 'astro-content-publisher/simulator';

/** Articles in the demo site: enough for pagination and language pages, small enough for a quick cold build. */
export const DEMO_ARTICLES = 300;

/**
 * The account from the environment, or undefined when PUBLISHER_API_KEY is not set (then the simulator is
 * used). A key without a site or base URL is a mistake worth stopping for: building the simulator's content
 * while the user thinks they see their own would be confusing.
 * @returns {{ PUBLISHER_BASE_URL: string, PUBLISHER_API_KEY: string, PUBLISHER_SITE_ID: string } | undefined}
 */
export function accountFromEnv(env = process.env) {
  if (!env.PUBLISHER_API_KEY) return undefined;
  const missing = ['PUBLISHER_BASE_URL', 'PUBLISHER_SITE_ID'].filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `[playground] PUBLISHER_API_KEY is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not. ` +
        'Set PUBLISHER_BASE_URL (the service address, e.g. https://service.example.com) and PUBLISHER_SITE_ID ' +
        '(an id from `npx content-publisher sites`), or unset PUBLISHER_API_KEY to use the local simulator.',
    );
  }
  return {
    PUBLISHER_BASE_URL: String(env.PUBLISHER_BASE_URL),
    PUBLISHER_API_KEY: String(env.PUBLISHER_API_KEY),
    PUBLISHER_SITE_ID: String(env.PUBLISHER_SITE_ID),
  };
}

/**
 * Starts the simulator on a free port of 127.0.0.1 and returns it with the environment that points the
 * playground at the Agence user's first site (its 600 requests an hour let a cold build of the demo fit).
 * @param {import('astro-content-publisher/simulator').SimulatorOptions} [options]
 */
export async function startDemoSimulator(options = {}) {
  const simulator = await startSimulator({ articles: DEMO_ARTICLES, ...options });
  const siteId = simulator.sites.agence[0];
  if (siteId === undefined) throw new Error('[playground] the simulator has no Agence site to build from.');
  return {
    simulator,
    siteId,
    env: {
      PUBLISHER_BASE_URL: simulator.url,
      PUBLISHER_API_KEY: simulator.tokens.agence,
      PUBLISHER_SITE_ID: String(siteId),
      // Enough budget for every article of the demo site in one cold build (600 requests an hour allow it).
      PLAYGROUND_MAX_REQUESTS: String(DEMO_ARTICLES + 50),
    },
  };
}
