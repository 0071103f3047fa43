// Writes docs/reference/ from the code: the API reference by TypeDoc (typedoc.json: the public entry points'
// JSDoc, the one description of every option) and the command line's reference from the CLI's own --help
// texts (generated from the command specs). `--out DIR` writes elsewhere: the check test compares the two.
// Needs `npm run build` first (the CLI's help is read from dist/).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Application } from 'typedoc';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(root, 'docs/reference'));

rmSync(out, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({ options: join(root, 'typedoc.json'), out });
const project = await app.convert();
if (!project || app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('TypeDoc reported problems (above): the reference was not written.');
  process.exit(1);
}
await app.generateOutputs(project);

const { COMMANDS } = await import(join(root, 'dist/cli/registry.js'));
const { commandHelp, globalHelp } = await import(join(root, 'dist/cli/help.js'));
const sections = COMMANDS.map((spec) => `## ${spec.name}\n\n\`\`\`text\n${commandHelp(spec)}\`\`\`\n`);
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'cli.md'),
  [
    '# Command line reference',
    '',
    'Generated from the command specs by `npm run docs:reference` (the same text as `content-publisher <command> --help`).',
    '',
    '```text',
    globalHelp(COMMANDS).trimEnd(),
    '```',
    '',
    ...sections,
  ].join('\n'),
);
console.log(`reference written to ${out}`);
