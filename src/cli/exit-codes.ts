/**
 * One exit code per class of failure, so a script can branch on `$?` without parsing stderr.
 * The table is documented in https://www.npmjs.com/package/astro-content-publisher#exit-codes; tests pin every value.
 */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  unchanged: 3,
  unauthorized: 4,
  forbidden: 5,
  quota: 6,
  notFound: 7,
  rateLimited: 8,
  cmsUnavailable: 9,
  serverError: 10,
  network: 11,
  badResponse: 12,
  triggerFailed: 13,
  badRequest: 14,
  /** Ctrl-C (SIGINT) stopped the wait for an answer: 128 + 2, as a shell reports it. */
  interrupted: 130,
  /** The reader of stdout went away (`| head`): 128 + 13 (SIGPIPE), as a shell reports a Unix tool it stopped. */
  brokenPipe: 141,
} as const satisfies Record<string, number>;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Client error `code` -> exit code (the client's error classes carry a stable `code`). */
const BY_ERROR_CODE: Record<string, ExitCode> = {
  unauthorized: EXIT.unauthorized,
  forbidden: EXIT.forbidden,
  quota_exhausted: EXIT.quota,
  not_found: EXIT.notFound,
  rate_limited: EXIT.rateLimited,
  cms_unavailable: EXIT.cmsUnavailable,
  server_error: EXIT.serverError,
  network: EXIT.network,
  timeout: EXIT.network,
  bad_response: EXIT.badResponse,
  bad_request: EXIT.badRequest,
  invalid_option: EXIT.usage,
};

export function exitCodeFor(error: unknown): ExitCode {
  if (!(error instanceof Error)) return EXIT.unexpected;
  // A missing key is an authentication problem for the user, whatever class carries it.
  if (error.name === 'MissingApiKeyError') return EXIT.unauthorized;
  if (error.name === 'UsageError' || error.name === 'StateFileError') return EXIT.usage;
  if (error.name === 'XmlSafetyError') return EXIT.badResponse;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in BY_ERROR_CODE) return BY_ERROR_CODE[code] ?? EXIT.unexpected;
  return EXIT.unexpected;
}
