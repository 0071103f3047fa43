/**
 * The package's name in front of a message, added where the message is shown (a log line, the CLI's
 * stderr, an AstroError), never inside an error's own message, so that nothing has to strip it again.
 */
export const PREFIX = '[astro-content-publisher]';

export function withPrefix(message: string): string {
  return `${PREFIX} ${message}`;
}

/** A message without the package's name in front, for a place that names the package itself (Astro's logger label). */
export function withoutPrefix(message: string): string {
  return message.startsWith(`${PREFIX} `) ? message.slice(PREFIX.length + 1) : message;
}
