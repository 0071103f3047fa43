/** Shared helpers for the simulator's own tests: plain fetch over HTTP, no client in between. */
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';

export type { Simulator };

export function start(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ generateDelayMs: 0, articles: 12, ...options });
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One request; `token` null sends no Authorization header. */
export async function call(
  sim: Simulator,
  path: string,
  init: { method?: string; token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? sim.tokens.pro : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sim.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

export async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<Reply> {
  return call(sim, `/__simulator/${path}`, { method, token: null, body });
}
