// Headless Chromium (Debian's package) driven by playwright-core.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * Launches Chromium, or explains loudly why it cannot. On CI (process.env.CI set) a missing browser is a
 * failure: the end-to-end guarantees must not silently disappear. Locally the caller skips with the message.
 */
export async function launchChromium(): Promise<{ browser: Browser } | { missing: string }> {
  if (!existsSync(CHROMIUM_PATH)) {
    const message =
      `\n!!! END-TO-END BROWSER TESTS NOT RUN: Chromium is missing at ${CHROMIUM_PATH}.\n` +
      '!!! Install it with `sudo apt-get install chromium` (Debian/Ubuntu) or set CHROMIUM_PATH.\n';
    if (process.env.CI) throw new Error(message);
    console.warn(message);
    return { missing: message };
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return { browser };
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
