// This package as a user's project has it: a copy of package.json and dist/ in
// `<nodeModules>/astro-content-publisher`. The test fixtures (test/support/installed-copy.ts) and the benchmark
// blogs (bench/run.mjs, bench/build-site.mjs) build with it instead of the repository itself (Node's
// self-reference, which a package.json of their own ends): Vite transforms any folder outside node_modules,
// while a package in node_modules is left to Node where the package asks for it
// (src/integration/vite/no-external-plugin.ts), as in a user's build.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));

/** Every file under `dir` with its modification time. */
function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, mtimeMs: statSync(path).mtimeMs };
    });
}

/**
 * Why dist/ cannot stand for src/, or undefined. A fixture build run on a dist/ older than src/ tests the old
 * code and can pass: `npm run build` empties dist/ and writes every file again, so each of its files must be
 * newer than every file of src/ (an edit, a checkout or a rebase all move a source file's time forward).
 */
export function staleDist() {
  if (!existsSync(join(repo, 'dist/index.js'))) return 'dist/ is missing';
  const oldestBuilt = Math.min(...filesOf(join(repo, 'dist')).map((f) => f.mtimeMs));
  const newer = filesOf(join(repo, 'src')).filter((f) => f.mtimeMs > oldestBuilt);
  if (newer.length === 0) return undefined;
  const names = newer.slice(0, 3).map((f) => relative(repo, f.path));
  return `dist/ is older than src/ (${names.join(', ')}${newer.length > 3 ? ` and ${newer.length - 3} more` : ''} changed since the last build)`;
}

/** Makes the copy again from the current dist/ (run `npm run build` first); returns its folder. */
export function installCopy(nodeModules) {
  const stale = staleDist();
  if (stale !== undefined)
    throw new Error(
      `${stale}: run \`npm run build\` first (\`npm test\`, \`npm run test:quick\` and \`npm run bench\` do it), so that the fixture builds test the code in src/.`,
    );
  const copy = join(nodeModules, 'astro-content-publisher');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(join(repo, 'package.json'), join(copy, 'package.json'));
  cpSync(join(repo, 'dist'), join(copy, 'dist'), { recursive: true });
  return copy;
}
