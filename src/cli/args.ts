/** Command-line parsing on top of util.parseArgs, with messages that name the argument and the fix. */
import { parseArgs } from 'node:util';
import { GLOBAL_OPTIONS, type CommandSpec, type ParsedArgs } from './command.js';
import { UsageError } from './usage-error.js';

export function parseCommandArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  const all = { ...GLOBAL_OPTIONS, ...spec.options };
  const options = Object.fromEntries(
    Object.entries(all).map(([name, option]) => [
      name,
      { type: option.type, ...(option.short && { short: option.short }) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error as Error & { code?: string }, Object.keys(all)), spec.name);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { values, positionals: parsed.positionals };
  if (parsed.positionals.length !== spec.positionals.length) {
    const expected =
      spec.positionals.length === 0 ? 'no arguments' : spec.positionals.map((name) => `<${name}>`).join(' ');
    const got = parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((p) => JSON.stringify(p)).join(' ');
    throw new UsageError(`\`${spec.name}\` takes ${expected} (got ${got}).`, spec.name);
  }
  return { values, positionals: parsed.positionals };
}

/**
 * util.parseArgs's refusal in our words: its unknown-option message ends in a broken quote (`as in '-- "--x"`)
 * and does not say which options the command has.
 */
function parseArgsMessage(error: Error & { code?: string }, known: string[]): string {
  const unknown = /^Unknown option '([^']*)'/.exec(error.message)?.[1];
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === undefined) return error.message;
  const options = known.map((name) => `--${name}`).join(', ');
  return `Unknown option '${unknown}' (this command takes ${options}). An argument that starts with '-' goes after '--', as in: -- "${unknown}".`;
}

/** A positive integer argument such as a site id or `--limit`. */
export function positiveInteger(text: string | undefined, name: string, command: string): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${name} must be a positive integer (got ${JSON.stringify(text ?? '')}).`, command);
  }
  return value;
}

/** A count that may be 0, such as `--offset`. */
export function nonNegativeInteger(text: string, name: string, command: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${name} must be a whole number, 0 or more (got ${JSON.stringify(text)}).`, command);
  }
  return value;
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredString(args: ParsedArgs, name: string, command: string): string {
  const value = stringOption(args, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`, command);
  return value;
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** The `<site>` positional every per-site command takes first. */
export function siteArgument(args: ParsedArgs, command: string): number {
  return positiveInteger(args.positionals[0], '<site>', command);
}
