/** A yes/no question on the terminal (stderr, so stdout stays clean for --json). */
import { createInterface } from 'node:readline/promises';
import type { CliIo } from './context.js';

export function canPrompt(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

export async function confirm(io: CliIo, question: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: true });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
