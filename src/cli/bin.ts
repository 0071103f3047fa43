#!/usr/bin/env node
/** The `content-publisher` executable (package.json `bin`). */
import { redactText } from '../options/redact.js';
import { EXIT } from './exit-codes.js';
import { main } from './main.js';
import { oneLine } from './terminal-text.js';

// The reader of stdout went away (`... | head -c 0`): nothing more can be delivered, so stop quietly, as a Unix
// tool does on SIGPIPE (Node ignores that signal and raises an unhandled EPIPE error with a stack trace instead).
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(EXIT.brokenPipe);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // main() reports every failure itself; reaching this is a bug, still never print the key.
    process.stderr.write(
      `content-publisher: unexpected failure: ${oneLine(redactText(String((error as Error)?.message ?? error)))}\n`,
    );
    process.exitCode = 1;
  },
);
