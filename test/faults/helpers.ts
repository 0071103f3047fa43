/**
 * Shared by the fault tests: the simulator's fault API over HTTP, route keys, request counts and timing.
 * Every fault is posted to POST /__simulator/faults exactly as a user of the simulator would.
 */
import type { Simulator, SimulatorOptions, SimulatorStats } from '../../src/simulator/index.js';
import { useSimulatorLifecycle } from '../support/use-simulator.js';

export const ROUTES = {
  list: 'GET /api/v1/sites/:id/articles/',
  detail: 'GET /api/v1/sites/:id/articles/:slug/',
  sitemap: 'GET /api/sites/:id/sitemap.xml',
  rss: 'GET /api/sites/:id/rss.xml',
} as const;
export type Endpoint = keyof typeof ROUTES;

async function admin(sim: Simulator, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sim.url}/__simulator/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

export const addFault = (sim: Simulator, spec: Record<string, unknown>) => admin(sim, 'POST', 'faults', spec);
export const clearFaults = (sim: Simulator) => admin(sim, 'DELETE', 'faults');
export const resetSim = (sim: Simulator) => admin(sim, 'POST', 'reset');
export const publish = (sim: Simulator, body: Record<string, unknown>) =>
  admin(sim, 'POST', 'articles', body) as Promise<{ slug: string }>;
export const patchArticle = (sim: Simulator, site: number, slug: string, body: Record<string, unknown>) =>
  admin(sim, 'PATCH', `articles/${site}/${slug}`, body);
export const unpublish = (sim: Simulator, site: number, slug: string) =>
  admin(sim, 'DELETE', `articles/${site}/${slug}`);

/** Requests the simulator saw on one route, whatever their status. */
export function hits(stats: SimulatorStats, route: string): number {
  return Object.values(stats.routes[route] ?? {}).reduce((a, b) => a + b, 0);
}

/** The simulator records a request once it answered (after a delay fault): wait for the count to settle. */
export async function settledStats(
  sim: Simulator,
  route: string,
  atLeast: number,
  timeoutMs = 5_000,
): Promise<SimulatorStats> {
  const started = Date.now();
  for (;;) {
    const stats = sim.stats();
    if (hits(stats, route) >= atLeast || Date.now() - started > timeoutMs) return stats;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await run();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** One simulator per fault test file: faults cleared and stats zeroed before each test (content kept). */
export const useFaultSimulator = (options: SimulatorOptions): (() => Simulator) =>
  useSimulatorLifecycle(options, {
    beforeEach: async (sim) => {
      await clearFaults(sim);
      sim.resetStats();
    },
  });
