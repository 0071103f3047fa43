/**
 * What a command runs with: the streams (everything written goes through redaction of the API key),
 * the environment, and a lazily created client. Injected so that tests can run commands in-process.
 */
import { readFile } from 'node:fs/promises';
import { createClient, type Client } from '../client/index.js';
import { redactText } from '../options/redact.js';
import { stringOption, flag } from './args.js';
import type { ParsedArgs } from './command.js';
import { json } from './format.js';
import { escapeControls, jsonSafe } from './terminal-text.js';
import { UsageError } from './usage-error.js';
import { withoutPrefix } from '../options/prefix.js';

export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

export class CommandContext {
  readonly json: boolean;
  readonly verbose: boolean;
  private apiKey: string | undefined;
  private keyLoaded = false;
  private clientInstance: Client | undefined;
  /** Aborts the client's requests in flight (Ctrl-C during generate). */
  private readonly requests = new AbortController();

  constructor(
    readonly io: CliIo,
    readonly command: string,
    private readonly args: ParsedArgs,
  ) {
    this.json = flag(args, 'json');
    this.verbose = flag(args, 'verbose');
    // Known before any file is read: redaction must also cover an env key that a command never uses.
    this.apiKey = io.env.PUBLISHER_API_KEY?.trim() || undefined;
  }

  redact(text: string): string {
    return redactText(text, this.apiKey);
  }

  /** Human output on stdout (terminal control characters from upstream text made visible). */
  print(text: string): void {
    this.io.stdout.write(escapeControls(this.redact(text)));
  }

  /** The one JSON document of `--json`. */
  printJson(value: unknown): void {
    this.io.stdout.write(jsonSafe(this.redact(json(value))));
  }

  /** One JSON line (the events of `watch --json`). */
  printJsonLine(value: unknown): void {
    this.io.stdout.write(`${jsonSafe(this.redact(JSON.stringify(value)))}\n`);
  }

  /** Progress, logs and errors on stderr (terminal control characters made visible). */
  log(text: string): void {
    this.io.stderr.write(escapeControls(this.redact(text.endsWith('\n') ? text : `${text}\n`)));
  }

  /** A client's log line (it names the package): in the command's name, as the command's own lines are. */
  private clientLog(message: string): void {
    this.log(`content-publisher: ${withoutPrefix(message)}`);
  }

  baseUrl(): string {
    const value = stringOption(this.args, 'base-url') ?? this.io.env.PUBLISHER_BASE_URL;
    if (!value || value.trim() === '') {
      throw new UsageError('No service URL: pass --base-url URL or set PUBLISHER_BASE_URL.', this.command);
    }
    return value.trim();
  }

  /** The key from --api-key-file, else PUBLISHER_API_KEY; `undefined` when neither is set. */
  async loadApiKey(): Promise<string | undefined> {
    if (this.keyLoaded) return this.apiKey;
    const file = stringOption(this.args, 'api-key-file');
    if (file !== undefined) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(
          `Cannot read --api-key-file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path.`,
          this.command,
        );
      }
      const key = text.trim();
      if (key === '')
        throw new UsageError(
          `--api-key-file ${file} is empty. Put the token (it starts with btb_) in it.`,
          this.command,
        );
      this.apiKey = key;
    }
    this.keyLoaded = true;
    return this.apiKey;
  }

  /** Aborts the requests of `client()` in flight: they reject with `reason`. */
  abortRequests(reason: Error): void {
    this.requests.abort(reason);
  }

  /** The client for authenticated commands (a missing key fails at the first call, with exit code 4). */
  async client(): Promise<Client> {
    if (this.clientInstance) return this.clientInstance;
    const apiKey = await this.loadApiKey();
    this.clientInstance = createClient({
      baseUrl: this.baseUrl(),
      ...(apiKey !== undefined && { apiKey }),
      userAgent: 'content-publisher-cli',
      signal: this.requests.signal,
      // Warnings (retries, a fallback) always show; request-level debug lines only with --verbose.
      logger: {
        warn: (message: string) => this.clientLog(message),
        ...(this.verbose && { debug: (message: string) => this.clientLog(message) }),
      },
    });
    return this.clientInstance;
  }

  /**
   * A client for the public feeds only: no key is read or sent. Its retry notices show while `showRetries()`
   * says so (watch leaves them out during an outage), and always with --verbose.
   */
  publicClient(options: { showRetries?: () => boolean } = {}): Client {
    return createClient({
      baseUrl: this.baseUrl(),
      userAgent: 'content-publisher-watch',
      logger: {
        warn: (message: string) => {
          if (this.verbose || (options.showRetries?.() ?? true)) this.clientLog(message);
        },
        ...(this.verbose && { debug: (message: string) => this.clientLog(message) }),
      },
    });
  }
}
