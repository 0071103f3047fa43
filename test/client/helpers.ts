/** Shared helpers for the client tests: a simulator per file, its admin API, and error capture. */
import { createServer } from 'node:net';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';

export type { Simulator };

export async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ generateDelayMs: 0, ...options });
}

async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${sim.url}/__simulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Content, quotas, windows, faults and stats back to the start. */
export async function reset(sim: Simulator): Promise<void> {
  await admin(sim, 'POST', 'reset');
}

export async function fault(sim: Simulator, spec: Record<string, unknown>): Promise<void> {
  await admin(sim, 'POST', 'faults', spec);
}

/** Status -> count for one route key, as the simulator saw it. */
export function routeCounts(sim: Simulator, routeKey: string): Record<string, number> {
  return sim.stats().routes[routeKey] ?? {};
}

export function totalRequests(sim: Simulator): number {
  const stats = sim.stats();
  return stats.authenticated + stats.public;
}

export function proClient(sim: Simulator, options: Partial<ClientOptions> = {}): Client {
  return createClient({ baseUrl: sim.url, apiKey: sim.tokens.pro, ...options });
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, it succeeded');
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T | undefined; error: unknown }> {
  const started = performance.now();
  try {
    const result = await fn();
    return { ms: performance.now() - started, result, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, result: undefined, error };
  }
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
