// Where the playground's content comes from: a real account (PUBLISHER_* set) or the embedded simulator.
// Shared by demo.mjs, the end-to-end tests and the benchmarks, so they all build the blog the same way.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator } from 'astro-content-publisher/simulator';

/** Articles in the demo site: enough for pagination and language pages, small enough for a quick cold build. */
export const DEMO_ARTICLES = 300;

/**
 * Image downloads allowed in one demo build: every image of the demo site (about four per article), so the
 * first build localises them all. With the default (500 per build) the rest would keep the simulator's URL,
 * and the simulator stops with `--build-only`: those images would point at a dead port.
 */
export const DEMO_IMAGE_DOWNLOADS = DEMO_ARTICLES * 10;

/** Where the demo remembers its simulator's port, beside the data store it describes. */
const PORT_FILE = 'demo-simulator.json';

function rememberedPort(stateDir) {
  try {
    const { port } = JSON.parse(readFileSync(join(stateDir, PORT_FILE), 'utf8'));
    return Number.isInteger(port) && port > 0 && port < 65_536 ? port : 0;
  } catch {
    return 0;
  }
}

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
 * Starts the simulator and returns it with the environment that points the playground at the Agence user's
 * first site (its 600 requests an hour let a cold build of the demo fit).
 *
 * With `stateDir` (the playground's cacheDir, where the loader's store lives), the simulator gets the port of
 * the previous run: the simulator's URLs (article links, image and feed URLs) are part of the content the
 * store holds, so a simulator on another port changes every article that names one (50 detail calls where a
 * warm build costs one list call). The first run takes a free port and remembers it; when that port is taken,
 * a free one is used and the message says what it costs.
 * @param {import('astro-content-publisher/simulator').SimulatorOptions & { stateDir?: string, log?: (line: string) => void }} [options]
 */
export async function startDemoSimulator(options = {}) {
  const { stateDir, log = console.log, ...simulatorOptions } = options;
  const port = stateDir === undefined ? 0 : rememberedPort(stateDir);
  let simulator;
  try {
    simulator = await startSimulator({ articles: DEMO_ARTICLES, port, ...simulatorOptions });
  } catch (error) {
    if (port === 0 || !/already in use/.test(String(error))) throw error;
    simulator = await startSimulator({ articles: DEMO_ARTICLES, ...simulatorOptions, port: 0 });
    log(
      `[playground] port ${port} of the previous run is taken: the simulator runs on ${new URL(simulator.url).port}, ` +
        'so this build fetches again the articles whose content names the old address.',
    );
  }
  if (stateDir !== undefined) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, PORT_FILE), `${JSON.stringify({ port: Number(new URL(simulator.url).port) })}\n`);
  }
  const siteId = simulator.sites.agence[0];
  if (siteId === undefined) {
    await simulator.close();
    throw new Error('[playground] the simulator has no Agence site to build from.');
  }
  return {
    simulator,
    siteId,
    env: {
      PUBLISHER_BASE_URL: simulator.url,
      PUBLISHER_API_KEY: simulator.tokens.agence,
      PUBLISHER_SITE_ID: String(siteId),
      // Enough budget for every article of the demo site in one cold build (600 requests an hour allow it).
      PLAYGROUND_MAX_REQUESTS: String(DEMO_ARTICLES + 50),
      PLAYGROUND_MAX_IMAGE_DOWNLOADS: String(DEMO_IMAGE_DOWNLOADS),
    },
  };
}
