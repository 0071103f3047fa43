/** A wrong command line: printed with the command's usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose usage line to show (`content-publisher <command> --help`). */
    readonly command?: string,
  ) {
    super(message);
  }
}
