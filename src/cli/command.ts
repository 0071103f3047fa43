/**
 * The shape of one command: its options (util.parseArgs config plus help text), its usage line and
 * examples (rendered by `--help`), and `run` or `runRaw`, which returns the exit code.
 */
import type { CommandContext } from './context.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** One line for `--help`. */
  description: string;
  /** Shown after the option name in `--help`, like `N` in `--limit N`. */
  placeholder?: string;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

interface CommandInfo {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Arguments after the command name, like `<site> [--status S]`. */
  usage: string;
  /** Extra paragraphs for `--help`. */
  details?: string;
  options: Record<string, OptionSpec>;
  /** Number of positional arguments the command takes (exactly). */
  positionals: string[];
  examples: string[];
}

/**
 * A command runs on the arguments parsed by its spec (`run`), or, when it owns its parsing (the simulator),
 * on the raw ones (`runRaw`); `--help` is answered from the spec either way.
 */
export type CommandSpec = CommandInfo &
  (
    | { run(context: CommandContext, args: ParsedArgs): Promise<number>; runRaw?: undefined }
    | { runRaw(argv: string[]): Promise<number>; run?: undefined }
  );

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  'base-url': { type: 'string', placeholder: 'URL', description: 'the service URL (default: PUBLISHER_BASE_URL)' },
  'api-key-file': {
    type: 'string',
    placeholder: 'FILE',
    description: 'read the API key from FILE (default: PUBLISHER_API_KEY); the key is never printed',
  },
  json: { type: 'boolean', description: 'print one JSON document on stdout instead of tables' },
  verbose: { type: 'boolean', short: 'v', description: 'log each request on stderr (the key is redacted)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};
