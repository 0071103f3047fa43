/**
 * How a failure reaches the user: one line on stderr that says what failed and what to do (the client's
 * hint, from the one table of the API document's suggested actions in src/client/error-map.ts), and under
 * --json also a JSON document on stdout, so a script that parses stdout still gets something parseable.
 */
import { GENERATE_IN_DOUBT } from '../client/resources/generate.js';
import { escapeControls } from './terminal-text.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import type { CommandContext } from './context.js';
import { withoutPrefix } from '../options/prefix.js';

interface ErrorShape {
  name: string;
  message: string;
  code?: string;
  status?: number;
  method?: string;
  path?: string;
  apiMessage?: string;
  hint?: string;
  option?: string;
}

/**
 * The client's hints name its options (`apiKey`, `baseUrl`, `timeoutMs`, `allowInsecureHttp`); the command
 * line has flags and variables instead, so these say what to do here.
 */
const CLI_HINTS = {
  401: 'The service refused the API key (unknown or revoked): create one in the dashboard at /account/api-keys (it starts with btb_) and pass it with --api-key-file FILE or PUBLISHER_API_KEY.',
  timeout: 'Retry later.',
  reachable: '(--base-url or PUBLISHER_BASE_URL)',
  cleartext: 'Use an https:// address: the command line sends the key over plain http only to this machine.',
  baseUrl: 'Pass the service address without /api/v1, like --base-url https://publisher.example.com.',
  apiKey:
    'Copy the token created in the dashboard at /account/api-keys into PUBLISHER_API_KEY or the file of --api-key-file.',
  publicFeed404: 'Check the site id (--site): the service has no public feed for it (an unknown or inactive site).',
} as const;

const GENERATE_PATH = /^\/api\/v1\/sites\/(\d+)\/generate\/$/;
/** The public feeds (`watch` reads them without a key): a 404 there is about the site, not about a token. */
const PUBLIC_FEED_PATH = /^\/api\/sites\/\d+\/(?:rss|sitemap)\.xml$/;

/**
 * generate is not idempotent: without its answer, or with a 5xx, the article may still have been published.
 * The client's hint says so (unless the connection was refused: then nothing reached the service); this is its
 * command-line wording.
 */
function generateInDoubt(e: ErrorShape): string | undefined {
  // A malformed 2xx answer means the service took the call: as much in doubt as a 5xx (not a redirect or a 4xx).
  const malformed2xx = e.code === 'bad_response' && typeof e.status === 'number' && e.status >= 200 && e.status < 300;
  if (!e.hint?.includes(GENERATE_IN_DOUBT) && !malformed2xx) return undefined;
  const site = e.method === 'POST' ? GENERATE_PATH.exec(e.path ?? '')?.[1] : undefined;
  if (site === undefined) return undefined;
  return `${GENERATE_IN_DOUBT}: check \`content-publisher articles ${site}\` before running generate again.`;
}

/** The client's message without its trailing hint (written for code), so the CLI can give its own. */
function withoutHint(e: ErrorShape): string {
  return e.hint && e.message.endsWith(e.hint) ? e.message.slice(0, -e.hint.length).trimEnd() : e.message;
}

/**
 * The client's messages that still name one of its options, in the command line's terms: `baseUrl` is
 * --base-url, and the response-size caps (`maxResponseBytes`, `maxFeedBytes`) have no flag to raise.
 */
export function inCliTerms(line: string): string {
  return line
    .replaceAll('`baseUrl`', '--base-url (or PUBLISHER_BASE_URL)')
    .replaceAll('the API key goes in `apiKey`', 'the API key goes in PUBLISHER_API_KEY or --api-key-file')
    .replaceAll('as listed by client.articles(siteId)', 'as listed by `content-publisher articles <site>`')
    .replace(/the (\d+)-byte cap of `max(?:Response|Feed)Bytes`/, "the command line's $1-byte cap")
    .replace(/; if this answer really is that big, raise `max(?:Response|Feed)Bytes` \(now \d+\)/, '');
}

/** The one line printed on stderr (without the `content-publisher:` prefix). */
export function errorLine(error: unknown): string {
  return inCliTerms(lineOf(error));
}

function lineOf(error: unknown): string {
  if (!(error instanceof Error)) return `unexpected failure: ${String(error)}`;
  const e = error as ErrorShape;
  if (e.name === 'UsageError' || e.name === 'StateFileError') return e.message;
  if (e.name === 'XmlSafetyError') return withoutPrefix(e.message);
  if (e.name === 'MissingApiKeyError')
    return 'no API key: set PUBLISHER_API_KEY or pass --api-key-file FILE (a token from /account/api-keys, starting with btb_).';
  const inDoubt = generateInDoubt(e);
  // Before the status: a malformed 200 response carries status 200.
  if (e.code === 'bad_response')
    return `unexpected response from the service: ${e.message}${inDoubt === undefined ? '' : ` ${inDoubt}`}`;
  const where = e.method && e.path ? `${e.method} ${e.path}` : undefined;
  if (typeof e.status === 'number') {
    // The hint of a 429 already says how long to wait (Retry-After).
    const detail = [where, e.apiMessage].filter(Boolean).join(': ');
    const hint =
      e.status === 401
        ? CLI_HINTS[401]
        : e.status === 404 && PUBLIC_FEED_PATH.test(e.path ?? '')
          ? CLI_HINTS.publicFeed404
          : inDoubt
            ? `${e.hint!.slice(0, e.hint!.indexOf(GENERATE_IN_DOUBT))}${inDoubt}` // what failed, then what to check
            : (e.hint ?? '');
    return `${e.status}: ${hint}${detail ? ` [${detail}]` : ''}`;
  }
  if (e.code === 'network' || e.code === 'timeout') {
    const kind = e.code === 'timeout' ? 'timeout' : 'network error';
    // The client's message may name the kind already ("[GET] /api/v1/me/: network error: ..."): said once.
    const body = withoutHint(e);
    const what = body.includes(kind) ? body : `${kind}: ${body}`;
    if (inDoubt) return `${what} ${inDoubt}`;
    const hint = e.code === 'timeout' ? CLI_HINTS.timeout : (e.hint ?? '').replace('(baseUrl)', CLI_HINTS.reachable);
    return `${what} ${hint}`.trimEnd();
  }
  if (e.code === 'invalid_option' && e.option === 'baseUrl') {
    const problem = withoutHint(e).replace(/^`baseUrl`/, '--base-url (or PUBLISHER_BASE_URL)');
    // A problem that names its fix already (drop the /api/v1, as in "<address>") needs no second example.
    if (problem.includes('drop the /api/v1')) return `${problem}${problem.endsWith('.') ? '' : '.'}`;
    return `${problem}${problem.endsWith('.') ? '' : '.'} ${/cleartext/.test(problem) ? CLI_HINTS.cleartext : CLI_HINTS.baseUrl}`;
  }
  if (e.code === 'invalid_option' && e.option === 'apiKey') {
    const problem = withoutHint(e).replace(/^`apiKey`/, 'The API key (PUBLISHER_API_KEY or --api-key-file)');
    return `${problem} ${CLI_HINTS.apiKey}`;
  }
  if (e.code === 'invalid_option') return e.message;
  return `unexpected failure: ${e.message}`;
}

/** Prints the error and returns its exit code. */
export function reportError(
  context: CommandContext | undefined,
  io: { stderr: { write(text: string): unknown } },
  error: unknown,
  redact: (text: string) => string,
): number {
  const code = exitCodeFor(error);
  const line = errorLine(error);
  const usageHint =
    error instanceof Error && error.name === 'UsageError' && (error as { command?: string }).command
      ? `\nRun \`content-publisher ${(error as { command?: string }).command} --help\` for the usage and an example.`
      : '';
  io.stderr.write(escapeControls(redact(`content-publisher: ${line}${usageHint}\n`)));
  if (context?.json) {
    const e = error instanceof Error ? (error as ErrorShape) : undefined;
    context.printJson({
      error: {
        code: e?.code ?? (code === EXIT.usage ? 'usage' : 'unexpected'),
        status: e?.status,
        message: line,
        exitCode: code,
      },
    });
  }
  return code;
}
