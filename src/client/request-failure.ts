// What a failed exchange with the service says: its own message in an error body, whether a connection error
// means the request never left this machine, and the cause in one line for the error the client throws.

/** The service's own message in an error body (`{"error": "..."}`), if it sent one. */
export function apiMessageOf(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
      return (body as { error: string }).error;
    }
  } catch {
    // An HTML error page from a proxy carries no service message.
  }
  return undefined;
}

/** Connection errors raised before the request left this machine: the service never saw it. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function neverSent(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause;
  const code = (cause as { code?: unknown })?.code ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' && NEVER_SENT.has(code);
}

/** The cause of a failed fetch in one line, with its error code when the message leaves it out. */
export function causeText(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const source = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  if (!source) return String(error);
  const code = (source as { code?: unknown }).code;
  return typeof code === 'string' && !source.message.includes(code) ? `${source.message} (${code})` : source.message;
}
