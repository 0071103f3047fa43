/**
 * What the executable loads before it runs a command: `--help` lists every command, so every command module
 * is loaded at start, and what they import is paid by every run (`me` included). The HTML sanitiser
 * (sanitize-html, with postcss, about 90 modules and 0.1 s of CPU) is used by the loader and the feed
 * rewriters, never by a command: `watch` parses the feeds, it does not rewrite them. The feed parsers and the
 * watch loop (fast-xml-parser and src/watch/, about 0.12 s of CPU) load only when `watch` runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;
let hook: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-startup-'));
  hook = join(dir, 'record-loads.mjs');
  // Node's synchronous module hooks (Node 24 from node_modules/.bin, put first by runCli): each module URL
  // loaded, printed on stderr when the process exits.
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

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const { stderr } = await runCli(args, { nodeArgs: ['--import', hook] });
  const line = stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (line === undefined) throw new Error(`no module list on stderr:\n${stderr}`);
  return JSON.parse(line.slice('LOADED '.length)) as string[];
}

const packageOf = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

describe('the executable at start', () => {
  it('`content-publisher --help` (every command module loaded) loads no HTML sanitiser', async () => {
    const urls = await modulesLoadedBy(['--help']);
    // The hook saw the executable's own modules (an empty list would pass for a reason of its own).
    expect(urls.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(urls.some((url) => url.endsWith('/dist/cli/commands/watch.js'))).toBe(true);
    const packages = new Set(urls.map(packageOf));
    expect(packages).not.toContain('sanitize-html');
    expect(packages).not.toContain('postcss');
    expect(packages).not.toContain('htmlparser2');
  });

  it('an API command (`me`) loads neither the feed parsers nor the watch loop; `watch` loads them when it runs', async () => {
    const me = await modulesLoadedBy(['me']);
    expect(me.some((url) => url.endsWith('/dist/cli/commands/watch.js'))).toBe(true);
    expect(new Set(me.map(packageOf))).not.toContain('fast-xml-parser');
    expect(me.filter((url) => /\/dist\/watch\/(?!hook-request\.js)/.test(url))).toEqual([]);
    // The positive control: `watch` without its options fails after its run is loaded.
    const watch = await modulesLoadedBy(['watch']);
    expect(watch.some((url) => url.endsWith('/dist/cli/commands/watch-run.js'))).toBe(true);
    expect(new Set(watch.map(packageOf))).toContain('fast-xml-parser');
    expect(watch.some((url) => url.endsWith('/dist/watch/index.js'))).toBe(true);
  });
});
