// The browser tests find a Chromium on any machine, in a fixed order, and fail loudly where none can be had.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from './helpers/browser.js';
import { findChromium, INSTALL_COMMAND } from './helpers/find-chromium.js';

const work = mkdtempSync(join(tmpdir(), 'find-chromium-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An executable file named like a browser, in the work directory (which a test puts on PATH). */
function fakeBrowser(name: string): string {
  const file = join(work, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

const nowhere = (): string => join(work, 'no-playwright-browser');
const linux = { platform: 'linux' as const, arch: 'x64' };

describe('findChromium', () => {
  it('CHROMIUM_PATH first; a path that does not exist is an error naming it, not a fallback', async () => {
    const own = fakeBrowser('my-chrome');
    const playwright = fakeBrowser('playwright-chrome');
    fakeBrowser('chromium');
    await expect(
      findChromium({ ...linux, env: { CHROMIUM_PATH: own, PATH: work }, playwrightExecutable: () => playwright }),
    ).resolves.toMatchObject({ source: 'CHROMIUM_PATH', executablePath: own });
    await expect(
      findChromium({ ...linux, env: { CHROMIUM_PATH: '/nope/chrome' }, playwrightExecutable: nowhere }),
    ).rejects.toThrow(
      'CHROMIUM_PATH is set to /nope/chrome, which does not exist. Point it at a Chrome or Chromium binary, or unset it.',
    );
  });

  it("then Playwright's browser, then a system Chrome or Chromium on PATH", async () => {
    const playwright = fakeBrowser('playwright-chrome');
    const system = fakeBrowser('chromium-browser');
    await expect(
      findChromium({ ...linux, env: { PATH: work }, playwrightExecutable: () => playwright }),
    ).resolves.toMatchObject({ source: 'Playwright', executablePath: playwright });
    rmSync(join(work, 'chromium'), { force: true });
    await expect(
      findChromium({ ...linux, env: { PATH: `/nonexistent:${work}` }, playwrightExecutable: nowhere }),
    ).resolves.toMatchObject({ source: 'system', executablePath: system });
  });

  it('otherwise the Chromium inside @sparticuz/chromium, which launches here and renders a page', async () => {
    const found = await findChromium({ ...linux, env: { PATH: '' }, playwrightExecutable: nowhere });
    expect(found.source).toBe('@sparticuz/chromium');
    const browser = await chromium.launch({
      executablePath: found.executablePath,
      args: CHROMIUM_ARGS,
      env: { ...process.env, ...found.env },
    });
    try {
      const page = await browser.newPage();
      await page.setContent(
        '<h1 id="t">Bundled</h1><script>document.getElementById("t").textContent += " and scripted"</script>',
      );
      expect(await page.locator('h1').textContent()).toBe('Bundled and scripted');
    } finally {
      await browser.close();
    }
  });

  it('where none can be had: fails with the install command', async () => {
    const error = findChromium({ platform: 'freebsd', arch: 'x64', env: { PATH: '' }, playwrightExecutable: nowhere });
    await expect(error).rejects.toThrow(`found none on freebsd-x64`);
    await expect(error).rejects.toThrow(`Install one with \`${INSTALL_COMMAND}\``);
  });
});
