/**
 * `content-publisher <command>`: dispatch, `--help`, and the one place where failures become a line on
 * stderr and an exit code. Returns the exit code instead of exiting, so tests run it in-process.
 */
import { createRequire } from 'node:module';
import { redactText } from '../options/redact.js';
import { parseCommandArgs } from './args.js';
import { CommandContext, processIo, type CliIo } from './context.js';
import { EXIT } from './exit-codes.js';
import { commandHelp, globalHelp } from './help.js';
import { COMMANDS } from './registry.js';
import { reportError } from './report-error.js';
import { UsageError } from './usage-error.js';

function version(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const redact = (text: string) => redactText(text, io.env.PUBLISHER_API_KEY?.trim() || undefined);
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(globalHelp(COMMANDS));
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `help <command>` is that command's help, as `<command> --help` is.
    const named = name === 'help' ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
    io.stdout.write(named ? commandHelp(named) : globalHelp(COMMANDS));
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const spec = COMMANDS.find((command) => command.name === name);
  if (!spec) {
    return reportError(
      undefined,
      io,
      new UsageError(
        `Unknown command ${JSON.stringify(name)}. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. Run \`content-publisher --help\`.`,
      ),
      redact,
    );
  }
  // A command that parses its own options (the simulator); only --help is answered from its spec here.
  if (spec.runRaw && !rest.includes('--help') && !rest.includes('-h')) return spec.runRaw([...rest]);

  let context: CommandContext | undefined;
  try {
    const args = parseCommandArgs(spec, [...rest]);
    // Without `run` (a runRaw command), only --help reaches this point.
    if (args.values.help || !spec.run) {
      io.stdout.write(commandHelp(spec));
      return EXIT.ok;
    }
    context = new CommandContext(io, spec.name, args);
    return await spec.run(context, args);
  } catch (error) {
    return reportError(context, io, error, context ? (text) => context!.redact(text) : redact);
  }
}
