// Headless Chromium driven by playwright-core; which Chromium: ./find-chromium.ts.
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from './find-chromium.js';

// --no-sandbox: containers and CI runners as root have no user namespaces for Chromium's sandbox; the pages
// are the tests' own. The rest keep the browser off the network and quiet: no QUIC, no first-run, update,
// sync or background requests, no GPU.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium, found as ./find-chromium.ts says, or throws with the command that installs one: the
 * end-to-end guarantees must never disappear silently, so there is no skipping.
 */
export async function launchChromium(): Promise<Browser> {
  const found = await findChromium();
  console.info(`[e2e] Chromium from ${found.source}: ${found.executablePath}`);
  return chromium.launch({
    executablePath: found.executablePath,
    args: CHROMIUM_ARGS,
    env: { ...process.env, ...found.env },
  });
}

const TRANSPARENT_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Keeps a page on loopback: requests to any other origin (CDN images, video embeds) are answered locally
 * with an empty image or document. The tests need no network, and a blocked request cannot show up as a
 * console error that would hide a real one.
 */
export async function isolateFromNetwork(page: Page, origin: string): Promise<string[]> {
  const external: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('about:')) return route.continue();
    external.push(url);
    if (route.request().resourceType() === 'image') {
      return route.fulfill({ status: 200, contentType: 'image/gif', body: TRANSPARENT_GIF });
    }
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>stub</title>' });
  });
  return external;
}

/** Console errors and uncaught exceptions of a page, collected from now on. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}
