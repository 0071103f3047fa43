// Builds an Astro site against a simulator and serves the output on 127.0.0.1 with Astro's preview server,
// the same way `npm run demo` does.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'astro';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const PLAYGROUND_ROOT = join(REPO_ROOT, 'playground');

export interface BuiltSite {
  url: string;
  outDir: string;
  close(): Promise<void>;
}

/**
 * Builds `root` into a temporary outDir (with its own cacheDir, so builds never share a data store) with
 * `env` set only while the config is loaded (build and preview), then serves it.
 */
export async function buildAndServe(root: string, env: Record<string, string>): Promise<BuiltSite> {
  const work = mkdtempSync(join(tmpdir(), 'acp-e2e-'));
  // The outDir stays inside the working directory: for an outDir outside it, Astro puts its prerender
  // chunks in <cwd>/.astro/.prerender/, which concurrent builds would then share and clobber.
  mkdirSync(join(REPO_ROOT, 'test/e2e/dist'), { recursive: true });
  const outDir = mkdtempSync(join(REPO_ROOT, 'test/e2e/dist/site-'));
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let server: Awaited<ReturnType<typeof preview>>;
  try {
    await build({ root, outDir, cacheDir: join(work, 'cache'), logLevel: 'warn' });
    // preview() loads the Astro config again, which reads the same environment.
    server = await preview({ root, outDir, logLevel: 'warn', server: { host: '127.0.0.1', port: 0 } });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return {
    url: `http://127.0.0.1:${server.port}`,
    outDir,
    async close() {
      await server.stop();
      rmSync(work, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
