/**
 * Elapsed seconds on stderr while a long call runs (generate takes 60 to 120 s): rewritten in place on a
 * terminal, one line every 15 s otherwise (CI logs should not fill with carriage returns).
 */
import type { OutStream } from './context.js';

export function startProgress(stderr: OutStream, label: string): () => void {
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
  return () => {
    clearInterval(timer);
    stderr.write(`${tty ? '\r' : ''}${label}: done in ${seconds()} s\n`);
  };
}
