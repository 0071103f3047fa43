/** How every command that reads or creates something on the service ends. */
import type { CommandContext } from './context.js';
import { EXIT } from './exit-codes.js';

/**
 * `--json` prints the service's document as it came (for jq and scripts, so no field is lost to the
 * human rendering); otherwise `render` turns it into tables and lines. Both are a success (exit 0).
 */
export function printResult<T>(context: CommandContext, value: T, render: (value: T) => string): number {
  if (context.json) context.printJson(value);
  else context.print(render(value));
  return EXIT.ok;
}
