// The headless Chromium that @sparticuz/chromium ships brotli-compressed in its npm tarball (built for
// serverless Linux x64; it needs only glibc: NSS, NSPR and expat come in its al2023 archive, fonts too).
// Unpacked once per version into node_modules/.cache/, atomically: test files launch browsers in parallel,
// and the package's own executablePath() unpacks into the shared /tmp with no guard against a half-written
// binary.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// Runs in a child process whose TMPDIR is the staging directory: the package unpacks into os.tmpdir().
// executablePath() unpacks chromium, its fonts and SwiftShader; the al2023 libraries it unpacks only on
// Amazon Linux, so they are asked for by name.
const UNPACK = `
const [binDir] = process.argv.slice(1);
const { default: Chromium, inflate } = await import('@sparticuz/chromium');
await Chromium.executablePath(binDir);
await inflate(binDir + '/al2023.tar.br');
`;

export interface BundledChromium {
  executablePath: string;
  env: Record<string, string>;
}

/** Unpacks (or finds unpacked) the package's Chromium and returns how to launch it. */
export async function unpackBundledChromium(): Promise<BundledChromium> {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    throw new Error('@sparticuz/chromium is not installed (a devDependency of this project): run `npm install`.');
  }
  const packageDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = join(REPO_ROOT, 'node_modules', '.cache', `sparticuz-chromium-${version}`);

  if (!existsSync(join(dir, 'chromium'))) {
    const staging = `${dir}.partial-${process.pid}-${Date.now()}`;
    await mkdir(staging, { recursive: true });
    try {
      await run(process.execPath, ['--input-type=module', '-e', UNPACK, join(packageDir, 'bin')], {
        cwd: REPO_ROOT,
        env: { ...process.env, TMPDIR: staging },
      });
      // The package's fonts.conf names /tmp/fonts; this one names where the fonts are.
      await writeFile(
        join(staging, 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
      );
      await rename(staging, dir);
    } catch (error) {
      // Another test file may have finished first: its copy is as good as ours.
      if (!existsSync(join(dir, 'chromium'))) throw error;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  return {
    executablePath: join(dir, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  };
}
