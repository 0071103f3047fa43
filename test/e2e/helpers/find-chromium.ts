// Which Chromium the browser tests drive. In this order: CHROMIUM_PATH, a browser Playwright installed, a
// system Chrome or Chromium, and otherwise the headless Chromium inside @sparticuz/chromium's npm tarball
// (a devDependency, Linux x64), so that `npm install && npm test` needs nothing but Node and npm.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from 'playwright-core';
import { unpackBundledChromium } from './bundled-chromium.js';

export interface ChromiumFound {
  /** Where it came from, for the log line and the tests. */
  source: 'CHROMIUM_PATH' | 'Playwright' | 'system' | '@sparticuz/chromium';
  executablePath: string;
  /** Extra environment the browser needs (the bundled one: its libraries and fonts). */
  env: Record<string, string>;
}

export interface FindChromiumOptions {
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** @default process.arch */
  arch?: string;
  /** Where Playwright installs its Chromium. @default playwright-core's chromium.executablePath() */
  playwrightExecutable?: () => string;
}

export const INSTALL_COMMAND = 'npx playwright-core install chromium';

// Names a system browser goes by on PATH (Debian, Ubuntu, Fedora, Arch; Google's packages).
const LINUX_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];
// Where the installers put them on macOS and Windows, which do not add them to PATH.
const FIXED_PATHS: Partial<Record<NodeJS.Platform, (env: NodeJS.ProcessEnv) => string[]>> = {
  darwin: () => [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: (env) =>
    [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA]
      .filter((dir): dir is string => Boolean(dir))
      .map((dir) => join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe')),
};

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function systemChromium(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const names = platform === 'win32' ? [] : LINUX_NAMES;
  const candidates = [
    ...onPath.flatMap((dir) => names.map((name) => join(dir, name))),
    ...(FIXED_PATHS[platform]?.(env) ?? []),
  ];
  return candidates.find(isExecutable);
}

function playwrightChromium(playwrightExecutable: () => string): string | undefined {
  try {
    const path = playwrightExecutable();
    return existsSync(path) ? path : undefined;
  } catch {
    // playwright-core throws on a platform it has no build for: then there is no Playwright browser.
    return undefined;
  }
}

/** Finds a Chromium (see the order above), or fails with the command that installs one. */
export async function findChromium(options: FindChromiumOptions = {}): Promise<ChromiumFound> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;

  if (env.CHROMIUM_PATH) {
    // Asked for by name: a wrong path is an error, not a reason to pick another browser.
    if (!existsSync(env.CHROMIUM_PATH)) {
      throw new Error(
        `CHROMIUM_PATH is set to ${env.CHROMIUM_PATH}, which does not exist. Point it at a Chrome or Chromium binary, or unset it.`,
      );
    }
    return { source: 'CHROMIUM_PATH', executablePath: env.CHROMIUM_PATH, env: {} };
  }
  const playwright = playwrightChromium(options.playwrightExecutable ?? (() => chromium.executablePath()));
  if (playwright) return { source: 'Playwright', executablePath: playwright, env: {} };
  const system = systemChromium(env, platform);
  if (system) return { source: 'system', executablePath: system, env: {} };
  if (platform === 'linux' && arch === 'x64') {
    const bundled = await unpackBundledChromium();
    return { source: '@sparticuz/chromium', ...bundled };
  }
  throw new Error(
    `The browser tests need Chromium and found none on ${platform}-${arch}: no CHROMIUM_PATH, no browser installed by ` +
      `Playwright, no Chrome or Chromium on PATH, and @sparticuz/chromium ships Linux x64 only. Install one with ` +
      `\`${INSTALL_COMMAND}\` (or set CHROMIUM_PATH to a Chrome or Chromium binary), then run the tests again.`,
  );
}
