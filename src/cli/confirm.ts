/** A yes/no question on the terminal (stderr, so stdout stays clean for --json). */
import { createInterface } from 'node:readline/promises';
import type { CliIo } from './context.js';

/** `CI` set (to anything but "", "0" or "false"): a CI runner, even one that gives the job a pseudo-terminal. */
export function inCi(env: CliIo['env']): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** Only a person at a terminal can answer; a CI job with a pseudo-terminal would wait forever. */
export function canPrompt(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true && !inCi(io.env);
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
