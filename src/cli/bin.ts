#!/usr/bin/env node
/** The `content-publisher` executable (package.json `bin`). */
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // main() reports every failure itself; reaching this is a bug, still never print the key.
    process.stderr.write(`content-publisher: unexpected failure: ${String((error as Error)?.message ?? error).replace(/btb_[A-Za-z0-9_\-.~+/=]+/g, 'btb_[redacted]')}\n`);
    process.exitCode = 1;
  },
);
