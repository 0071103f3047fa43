/**
 * Secret redaction. The API key must never reach a message, a log line or anything an error carries,
 * even when the service (or a proxy in front of it) echoes it back in an error body.
 */

/**
 * Token-shaped strings: the service's tokens all start with `btb_`. `%` and the pair `\/` too, so that a token
 * echoed percent-encoded (`+` as `%2B`, in a URL or a form) or JSON-escaped (`/` as `\/`) is hidden whole. Not a
 * lone `\`: in JSON text (the CLI redacts its --json output) it escapes the quote that ends the value.
 */
const TOKEN_PATTERN = /btb_(?:[A-Za-z0-9_\-.~+/=%]|\\\/)+/g;

export const REDACTED = 'btb_[redacted]';

/** Replaces the exact key (when known) and any token-shaped string. */
export function redactText(text: string, apiKey?: string): string {
  let out = text;
  // The exact key first, as sent and as an echo may encode it: it may contain characters outside the pattern.
  if (apiKey && apiKey.length > 0)
    for (const form of new Set([apiKey, encodeURIComponent(apiKey), JSON.stringify(apiKey).slice(1, -1)]))
      out = out.split(form).join(REDACTED);
  return out.replace(TOKEN_PATTERN, REDACTED);
}

export type Redactor = (text: string) => string;

export function createRedactor(apiKey?: string): Redactor {
  return (text) => redactText(text, apiKey);
}

/**
 * "got ..." for a base URL that did not parse. Never the text itself: an unparseable URL can still hold
 * credentials (`http://user:secret@[bad`, or the backslash form), and no pattern finds them reliably.
 */
export function describeUnparsedUrl(value: string): string {
  return `a value that is not a URL (${value.length} characters, not shown: it may hold credentials)`;
}

/** A short, safe rendering of a user-supplied value for "got ..." in messages. */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    text = String(value);
  } else if (Array.isArray(value)) text = 'an array';
  else text = `a ${typeof value}`;
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return redactText(text);
}
