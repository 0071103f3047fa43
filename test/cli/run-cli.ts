/** Spawns the built executable (`node dist/cli/bin.js`) with Node 24 from node_modules/.bin. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
const PATH = `${ROOT}node_modules/.bin:${process.env.PATH ?? ''}`;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment without the developer's own publisher settings, so tests see only what they pass. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH };
  delete env.PUBLISHER_API_KEY;
  delete env.PUBLISHER_BASE_URL;
  delete env.PUBLISHER_SITE_ID;
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function startCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; processGroup?: boolean; nodeArgs?: string[] } = {},
): ChildProcess & { result: Promise<CliResult>; output: { stdout: string; stderr: string } } {
  // processGroup: the CLI leads its own process group, so a test can signal the group as a terminal's Ctrl-C does.
  // nodeArgs: flags for Node itself, before the executable (`--import` of a module hook, say).
  const child = spawn('node', [...(options.nodeArgs ?? []), BIN, ...args], {
    env: cleanEnv(options.env),
    cwd: options.cwd ?? ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.processGroup === true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  // `output` is a live view (a getter) for tests that wait for a log line.
  Object.defineProperty(child, 'output', { get: () => ({ stdout, stderr }) });
  return Object.assign(child as ChildProcess & { output: { stdout: string; stderr: string } }, { result });
}

export async function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string; nodeArgs?: string[] } = {},
): Promise<CliResult> {
  const child = startCli(args, options);
  child.stdin?.end(options.input ?? '');
  return child.result;
}

/** Polls `check` until it returns true (or fails after `timeoutMs`). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function admin(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}/__simulator/${path}`, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}
