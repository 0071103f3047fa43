/**
 * Elapsed seconds on stderr while a long call runs (generate takes 60 to 120 s): rewritten in place on a
 * terminal, one line every 15 s otherwise (CI logs should not fill with carriage returns). The returned
 * function ends the line, once: "done in N s", "interrupted after N s" or "failed after N s" when told so.
 */
import type { OutStream } from './context.js';

export function startProgress(stderr: OutStream, label: string): (outcome?: 'done' | 'interrupted' | 'failed') => void {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1_000);
  const tty = stderr.isTTY === true;
  const timer = setInterval(
    () => {
      if (tty) stderr.write(`\r${label}… ${seconds()} s`);
      else stderr.write(`${label}… ${seconds()} s\n`);
    },
    tty ? 1_000 : 15_000,
  );
  timer.unref();
  let ended = false;
  return (outcome = 'done') => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    const end = outcome === 'done' ? `done in ${seconds()} s` : `${outcome} after ${seconds()} s`;
    // On a terminal: back to the line's start and clear it (a ^C echo may follow the count).
    stderr.write(`${tty ? '\r\x1b[2K' : ''}${label}: ${end}\n`);
  };
}
