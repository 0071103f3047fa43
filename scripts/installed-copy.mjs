// This package as a user's project has it: a copy of package.json and dist/ in
// `<nodeModules>/astro-content-publisher`. The test fixtures (test/support/installed-copy.ts) and the benchmark
// blogs (bench/run.mjs, bench/build-site.mjs) build with it instead of the repository itself (Node's
// self-reference, which a package.json of their own ends): Vite transforms any folder outside node_modules,
// while a package in node_modules is left to Node where the package asks for it
// (src/integration/no-external-plugin.ts), as in a user's build.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** Makes the copy again from the current dist/ (run `npm run build` first); returns its folder. */
export function installCopy(nodeModules) {
  if (!existsSync(join(repo, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` and `npm run bench` do it).');
  const copy = join(nodeModules, 'astro-content-publisher');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(join(repo, 'package.json'), join(copy, 'package.json'));
  cpSync(join(repo, 'dist'), join(copy, 'dist'), { recursive: true });
  return copy;
}
