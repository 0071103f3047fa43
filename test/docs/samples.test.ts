/**
 * Every code sample of the README and of docs/ is built or type-checked: a sample is a fence whose previous
 * line is `<!-- sample: <project>/<path> -->` (or `... typecheck -->`). The samples of one page and project
 * are written over a copy of a base site (the official blog starter for projects named `starter*`, else
 * test/fixtures/docs-site) and then
 * - built with Astro's `build()` against the simulator (the loaders really run; `.astro` samples are compiled),
 *   unless one of the project's samples says `typecheck`, in which case Astro's `sync()` generates the types
 *   only; in this process, one project after the other, as the loader tests build their fixtures: a process of
 *   its own per project spent seconds loading Astro and warming up its first build;
 * - type-checked by TypeScript under Astro's strict config (the `.ts`, `.js` and `.mjs` samples), in this process:
 *   the projects share the parsed declaration files of node_modules and dist/, which are the same for all of them.
 * A TypeScript, JavaScript or Astro fence without a marker fails the first test: no sample goes unchecked.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, sync } from 'astro';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { captured } from '../astro/loader-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = join(root, 'test/fixtures/.samples');
const CHECKED = new Set(['ts', 'js', 'mjs', 'astro', 'tsx']);

interface Sample {
  page: string;
  line: number;
  project: string;
  path: string;
  typecheckOnly: boolean;
  code: string;
}

function pages(): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    // The generated reference holds signatures, not samples.
    .filter((page) => !page.startsWith('docs/reference/'));
  return ['README.md', ...docs];
}

function samplesOf(page: string): { samples: Sample[]; unmarked: string[] } {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const samples: Sample[] = [];
  const unmarked: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    // An indented fence (inside a list item) counts too: it must be marked like any other.
    const open = /^\s*```(\w*)/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > i && line.trim() === '```');
    const marker = /^<!-- sample: ([\w-]+)\/(\S+)( typecheck)? -->$/.exec(lines[i - 1] ?? '');
    if (marker) {
      samples.push({
        page,
        line: i + 1,
        project: marker[1]!,
        path: marker[2]!,
        typecheckOnly: marker[3] !== undefined,
        code: `${lines.slice(i + 1, end).join('\n')}\n`,
      });
    } else if (CHECKED.has(open[1]!)) unmarked.push(`${page}:${i + 1} (\`\`\`${open[1]})`);
    i = end;
  }
  return { samples, unmarked };
}

const all = pages().map(samplesOf);
const projects = new Map<string, Sample[]>();
for (const sample of all.flatMap((p) => p.samples)) {
  const key = `${sample.page.replace(/[/.]/g, '-')}--${sample.project}`;
  projects.set(key, [...(projects.get(key) ?? []), sample]);
}

let simulator: Simulator;
beforeAll(async () => {
  // Every sample project's build is a cold one (about 8 requests each): more than a Pro hour allows together.
  simulator = await startSimulator({ articles: 6, seed: 3, rateLimitOverride: 100_000 });
  rmSync(work, { recursive: true, force: true });
});
afterAll(async () => {
  await simulator?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('documentation samples', () => {
  it('every TypeScript, JavaScript and Astro sample is marked, so that a test checks it', () => {
    expect(all.flatMap((p) => p.unmarked)).toEqual([]);
    expect(projects.size).toBeGreaterThanOrEqual(8);
  });

  it.each([...projects.keys()])('%s: builds and type-checks', (key) => check(key), 300_000);
});

async function check(key: string): Promise<void> {
  const samples = projects.get(key)!;
  const dir = join(work, key);
  const base = samples[0]!.project.startsWith('starter') ? 'test/fixtures/pack-starter' : 'test/fixtures/docs-site';
  cpSync(join(root, base), dir, {
    recursive: true,
    filter: (source) => !/[\\/](?:node_modules|dist|\.astro)$/.test(source),
  });
  for (const sample of samples) {
    mkdirSync(dirname(join(dir, sample.path)), { recursive: true });
    writeFileSync(join(dir, sample.path), sample.code);
  }
  const env = {
    PUBLISHER_BASE_URL: simulator.url,
    PUBLISHER_API_KEY: simulator.tokens.pro,
    PUBLISHER_SITE_ID: '12',
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  const command = samples.some((s) => s.typecheckOnly) ? 'sync' : 'build';
  const where = samples.map((s) => `${s.page}:${s.line}`).join(', ');
  const { logs, error } = await captured(env, () =>
    command === 'sync' ? sync({ root: dir, logLevel: 'info' }) : build({ root: dir, logLevel: 'info' }),
  );
  if (error)
    throw new Error(`astro ${command} of the samples at ${where} failed:\n${logs}\n${error.stack ?? error.message}`);
  const scripts = samples.filter((s) => /\.(?:ts|mts|js|mjs)$/.test(s.path)).map((s) => s.path);
  if (scripts.length === 0) return;
  writeFileSync(
    join(dir, 'tsconfig.samples.json'),
    JSON.stringify({
      extends: join(root, 'node_modules/astro/tsconfigs/strict.json'),
      compilerOptions: { noEmit: true, allowJs: true, checkJs: true, types: ['node'], skipLibCheck: true },
      files: ['.astro/types.d.ts', ...scripts],
    }),
  );
  const errors = typecheck(join(dir, 'tsconfig.samples.json'));
  if (errors) throw new Error(`the samples at ${where} do not type-check:\n${errors}`);
}

/**
 * Parsed declaration files outside the sample projects (TypeScript's libs, @types/node, Astro's and this
 * package's types), shared by every project's program as an editor's language service shares them: a `tsc`
 * process per project spent most of its time parsing these same files again.
 */
const declarations = new Map<string, ts.SourceFile>();

/** What `tsc -p <config>` reports for the project of `config`, in tsc's format; empty when it type-checks. */
function typecheck(config: string): string {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (fileName.startsWith(`${dirname(config)}/`)) return getSourceFile(fileName, languageVersion, ...rest);
    const key = `${fileName}|${JSON.stringify(languageVersion)}`;
    let file = declarations.get(key);
    if (!file) {
      file = getSourceFile(fileName, languageVersion, ...rest);
      if (file) declarations.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    configFileParsingDiagnostics: parsed.errors,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => dirname(config),
    getNewLine: () => '\n',
  });
}
