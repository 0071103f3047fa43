#!/usr/bin/env node
// `npm run demo`: build the playground blog and serve it; `npm run playground:build`: build only.
// Content comes from a real account when PUBLISHER_API_KEY (+ PUBLISHER_BASE_URL, PUBLISHER_SITE_ID) is set,
// otherwise from the embedded simulator on a free port of 127.0.0.1.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'astro';
import { accountFromEnv, DEMO_ARTICLES, startDemoSimulator } from './environment.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--build-only');
if (unknown.length > 0) {
  console.error(
    `[playground] unknown argument ${unknown.join(' ')}. Usage: node playground/scripts/demo.mjs [--build-only]`,
  );
  process.exit(2);
}
const buildOnly = args.includes('--build-only');

let simulator;
try {
  const account = accountFromEnv();
  if (account) {
    Object.assign(process.env, account);
    // The key itself is never printed.
    console.log(
      `[playground] building site ${account.PUBLISHER_SITE_ID} of ${account.PUBLISHER_BASE_URL} (key from PUBLISHER_API_KEY)`,
    );
  } else {
    // The port is remembered beside the loader's store (Astro's default cacheDir): the next run's simulator
    // has the same address, so the stored content stays valid and a warm build costs one list call.
    const started = await startDemoSimulator({ stateDir: join(root, 'node_modules', '.astro') });
    simulator = started.simulator;
    Object.assign(process.env, started.env);
    console.log(
      `[playground] no PUBLISHER_API_KEY: building from the local simulator at ${simulator.url} ` +
        `(site ${started.siteId}, ${DEMO_ARTICLES} articles)`,
    );
  }

  await build({ root, logLevel: 'info' });
  console.log(`[playground] built into ${join(root, 'dist')}`);
  if (simulator) {
    const requests = simulator.stats().authenticated;
    console.log(`[playground] the build sent ${requests} API request${requests === 1 ? '' : 's'} to the simulator`);
  }

  if (buildOnly) {
    await simulator?.close();
    process.exit(0);
  }

  const server = await preview({ root, logLevel: 'info' });
  const host = server.host && server.host !== '0.0.0.0' ? server.host : 'localhost';
  console.log(`\n[playground] the blog is served at http://${host}:${server.port}/ (Ctrl+C to stop)\n`);

  const stop = async () => {
    await server.stop();
    await simulator?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  await simulator?.close();
  process.exit(1);
}
