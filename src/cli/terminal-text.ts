/**
 * Text from the service (titles, messages, feed items) reaches the terminal through the CLI and `watch`.
 * Raw control characters there are commands to the terminal: `ESC ] 0 ;` sets the window title, `ESC [ 2 J`
 * clears the screen, a CR or a newline inside a title forges a `triggered` line of `watch`. Every human output
 * goes through `escapeControls`; fields printed inside one line go through `oneLine`; JSON output gets the
 * characters JSON.stringify leaves raw (DEL and C1) as \u escapes, so it stays valid JSON.
 */

/** C0 controls except tab and newline, DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const JSON_RAW_CONTROLS = /[\u007f-\u009f]/g;

const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/** Visible `\xNN` in place of every control character a terminal would act on (tab and newline kept). */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => `\\x${hex(char)}`);
}

/** A value printed inside one line: newlines become visible too, so it cannot start a line of its own. */
export function oneLine(text: string): string {
  return escapeControls(text).replace(/\n/g, '\\n');
}

/** JSON text with DEL and C1 escaped as `\u00NN` (JSON.stringify escapes C0 itself). */
export function jsonSafe(json: string): string {
  return json.replace(JSON_RAW_CONTROLS, (char) => `\\u00${hex(char)}`);
}
