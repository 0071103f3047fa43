/**
 * What the executable loads before it runs a command: every command is listed by `--help`, so every command
 * module is loaded at start, and what they import is paid by every run (`me` included). The HTML sanitiser
 * (sanitize-html, with postcss, about 90 modules and 0.1 s of CPU) is used by the loader and the feed
 * rewriters, never by a command: `watch` parses the feeds, it does not rewrite them.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from './run-cli.js';

let hook: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cli-startup-'));
  hook = join(dir, 'record-loads.mjs');
  // Node's synchronous module hooks: each module URL loaded, printed on stderr when the process exits.
  await writeFile(
    hook,
    [
      "import { registerHooks } from 'node:module';",
      'const loaded = [];',
      'registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });',
      "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(loaded) + '\\n'));",
    ].join('\n'),
  );
});

async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const child = spawn('node', ['--import', hook, BIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  await new Promise((resolve) => child.once('close', resolve));
  const line = stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (line === undefined) throw new Error(`no module list on stderr:\n${stderr}`);
  return JSON.parse(line.slice('LOADED '.length)) as string[];
}

const packageOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

describe('the executable at start', () => {
  it.each(['--help', 'me --help', 'watch --help'])(
    '`content-publisher %s` loads no HTML sanitiser',
    async (command) => {
      const urls = await modulesLoadedBy(command.split(' '));
      // The hook saw the executable's own modules (an empty list would pass for a reason of its own).
      expect(urls.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      const packages = new Set(urls.map(packageOf));
      expect(packages).not.toContain('sanitize-html');
      expect(packages).not.toContain('postcss');
      expect(packages).not.toContain('htmlparser2');
    },
  );
});
