/**
 * `generate` on a terminal: it asks before spending quota and shows the elapsed seconds while it waits.
 * A pseudo-terminal comes from util-linux `script`, so stdin/stderr are real TTYs for the CLI.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { admin, BIN, cleanEnv, waitFor } from './run-cli.js';

let sim: Simulator;

beforeAll(async () => {
  // Slow enough for the per-second progress line to show.
  sim = await startSimulator({ generateDelayMs: 1_300 });
});

afterAll(async () => {
  await sim?.close();
});

/** The environment of a person at a terminal: no `CI`, even when these tests run in CI. */
function terminalEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv({ PUBLISHER_BASE_URL: sim.url, PUBLISHER_API_KEY: sim.tokens.pro, ...extra });
  if (extra.CI === undefined) delete env.CI;
  return env;
}

async function onTerminal(answer: string): Promise<{ code: number | null; screen: string }> {
  const child = spawn('script', ['-qec', `node ${BIN} generate 12 --topic "On a terminal"`, '/dev/null'], {
    env: terminalEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  await waitFor(() => screen.includes('[y/N]'), 15_000, 'the confirmation prompt');
  child.stdin.write(`${answer}\r`);
  const code = await closed;
  return { code, screen };
}

it('generate: asks on a terminal; "n" spends nothing (exit 3), "y" generates with a progress line (exit 0)', async () => {
  sim.resetStats();
  const no = await onTerminal('n');
  expect(no.screen).toMatch(/Quota: \d+ of 30 articles left this month/);
  expect(no.screen).toMatch(/Generate and publish "On a terminal" on site 12\? It takes 60 to 120 s\. \[y\/N\]/);
  expect(no.screen).toMatch(/Cancelled: nothing was generated\./);
  expect(no.code).toBe(3);
  expect(sim.stats().routes['POST /api/v1/sites/:id/generate/']).toBeUndefined();

  const yes = await onTerminal('y');
  expect(yes.code).toBe(0);
  expect(yes.screen).toMatch(/Generating on site 12… 1 s/);
  expect(yes.screen).toMatch(/Post count: \d+/);
  expect(sim.stats().routes['POST /api/v1/sites/:id/generate/']).toEqual({ 200: 1 });
});

it('generate: Ctrl-C while it waits ends the progress line and says the article may still be published (exit 130)', async () => {
  sim.resetStats();
  // Published at once, answered 5 s later: the interrupt lands while the service is still answering.
  await admin(sim.url, 'POST', 'faults', { route: 'POST /api/v1/sites/:id/generate/', delayMs: 5_000, times: 1 });
  const child = spawn('script', ['-qec', `node ${BIN} generate 12 --topic "Interrupted" --yes`, '/dev/null'], {
    env: terminalEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  await waitFor(() => screen.includes('Generating on site 12… 1 s'), 15_000, 'the progress line');
  // What the terminal sends on Ctrl-C: its line discipline turns it into SIGINT for the CLI.
  child.stdin.write('\x03');
  expect(await closed).toBe(130);
  // Back to the line's start and cleared (ESC [2K), then the end of the progress line.
  expect(screen).toContain('\r\u001b[2KGenerating on site 12: interrupted after ');
  expect(screen).toMatch(/Generating on site 12: interrupted after \d+ s\r?\n/);
  expect(screen).toMatch(
    /Interrupted: the service may still generate and publish the article \(and use one quota unit or credit\): check `content-publisher articles 12` before running generate again\./,
  );
  expect(screen).not.toMatch(/Post count/);
  await admin(sim.url, 'DELETE', 'faults');
});

it('generate: CI=true on a pseudo-terminal is not interactive: without --yes it stops before any request (exit 2)', async () => {
  sim.resetStats();
  const child = spawn('script', ['-qec', `node ${BIN} generate 12 --topic "In CI"`, '/dev/null'], {
    env: terminalEnv({ CI: 'true' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  // Before the fix it waited at the prompt: end the pseudo-terminal's input after a while, as CI would never answer.
  const guard = setTimeout(() => child.stdin.end(), 10_000);
  const code = await closed;
  clearTimeout(guard);
  expect(screen).not.toMatch(/\[y\/N\]/);
  expect(screen).toMatch(
    /pass --yes to confirm when not running in a terminal \(CI is set: no question is asked in CI\)\./,
  );
  expect(code).toBe(2);
  expect(sim.stats().authenticated).toBe(0);
});
