// The build of the inner loop (`npm run test:quick`): `npm run build` when dist/ cannot stand for src/ (missing,
// or a file of src/ newer than it: staleDist), else none. The build is about 15 s of the loop's minute; a build
// setting that changed (tsconfig, package.json) or a source file removed goes unseen: `npm run build` then.
import { spawnSync } from 'node:child_process';
import { staleDist } from './installed-copy.mjs';

const stale = staleDist();
if (stale === undefined) {
  console.log('dist/ is newer than every file of src/: no build');
} else {
  console.log(`${stale}: npm run build`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
}
