#!/usr/bin/env node
/** The `content-publisher` executable (package.json `bin`). */
import { redactText } from '../client/redact.js';
import { main } from './main.js';
import { oneLine } from './terminal-text.js';

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
