/** `--help` texts, generated from the command specs so that they cannot drift from the parser. */
import { GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './command.js';
import { EXIT } from './exit-codes.js';

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, option]) => {
    const short = option.short ? `-${option.short}, ` : '';
    return [`${short}--${name}${option.placeholder ? ` ${option.placeholder}` : ''}`, option.description] as const;
  });
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: content-publisher ${spec.name}${spec.usage ? ` ${spec.usage}` : ''}`, '', spec.summary];
  if (spec.details) lines.push('', spec.details);
  if (Object.keys(spec.options).length > 0) lines.push('', 'Options:', ...optionLines(spec.options));
  // A command that parses its own arguments (the simulator) takes none of the global options but --help.
  const globals = spec.runRaw ? { help: GLOBAL_OPTIONS.help! } : GLOBAL_OPTIONS;
  lines.push('', 'Global options:', ...optionLines(globals));
  lines.push(
    '',
    spec.examples.length > 1 ? 'Examples:' : 'Example:',
    ...spec.examples.map((example) => `  $ ${example}`),
  );
  return `${lines.join('\n')}\n`;
}

export function globalHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const codes = Object.entries(EXIT)
    .map(([name, code]) => `${code}=${name}`)
    .join(', ');
  return [
    'Usage: content-publisher <command> [options]',
    '',
    'Drive the content-publishing service API from scripts; watch its RSS feed to trigger rebuilds.',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'Environment: PUBLISHER_BASE_URL, PUBLISHER_API_KEY (never printed).',
    `Exit codes: ${codes}.`,
    '',
    'Example:',
    '  $ PUBLISHER_API_KEY=btb_... content-publisher articles 12 --language en --limit 5',
    '',
    'Run `content-publisher <command> --help` for the options of a command.',
    '',
  ].join('\n');
}
