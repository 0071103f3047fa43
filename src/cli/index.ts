// The content-publisher command line: arguments, the commands, their output and exit codes (bin.ts runs main).
export { main } from './main.js';
export { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
export { COMMANDS } from './registry.js';
export type { CliIo } from './context.js';
