// Vitest's globalSetup: the fixture sites under test/fixtures/ get this package as a user's project has it, a
// copy in test/fixtures/node_modules/ made again at the start of every run (scripts/installed-copy.mjs), not
// the repository through Node's self-reference (test/fixtures/package.json ends it). So their builds run the
// path users' builds run, and each is about a second faster: Vite leaves the content config's loaders to Node.
import { fileURLToPath } from 'node:url';
import { installCopy } from '../../scripts/installed-copy.mjs';

export default function setup(): void {
  installCopy(fileURLToPath(new URL('../fixtures/node_modules/', import.meta.url)));
}
