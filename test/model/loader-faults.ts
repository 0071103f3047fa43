/**
 * The faults the loader model injects (POST /__simulator/faults), which of them reached a build, and which errors
 * each may cause: a build may fail only when a fault that reached it causes that kind of error.
 */
import fc from 'fast-check';
import {
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { ROUTES, type Endpoint } from '../faults/helpers.js';

/** The model's loaders give up on a request after this long; a `timeout` fault answers later. */
export const LOADER_TIMEOUT_MS = 1000;
/** How much later than the loader's timeout a `timeout` fault answers. */
export const TIMEOUT_OVERSHOOT_MS = 400;

export const FAULT_KINDS = [
  '500',
  '503',
  '429',
  '401',
  '403',
  '404',
  'timeout',
  'drop',
  'cut-transfer',
  'truncated',
  'html',
  'drift',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Drift renames or drops JSON fields: the feeds are XML, so it applies to the API only. */
export const kindsOf = (endpoint: Endpoint): readonly FaultKind[] =>
  endpoint === 'list' || endpoint === 'detail' ? FAULT_KINDS : FAULT_KINDS.filter((k) => k !== 'drift');

export interface ModelFault {
  endpoint: Endpoint | '*';
  kind: FaultKind;
  times: number;
  /** For a 429: the seconds of its Retry-After (written in the variant's form). */
  retryAfter: number;
  /** For drift: which change. */
  drift: 'omit-slug' | 'rename-content' | 'add-fields';
}

export const faultArb: fc.Arbitrary<ModelFault> = fc
  .constantFrom<Endpoint>('list', 'detail', 'sitemap', 'rss')
  .chain((endpoint) =>
    fc.record({
      endpoint: fc.constant(endpoint),
      kind: fc.constantFrom(...kindsOf(endpoint)),
      times: fc.integer({ min: 1, max: 3 }),
      retryAfter: fc.constantFrom(1, 2),
      drift: fc.constantFrom('omit-slug' as const, 'rename-content' as const, 'add-fields' as const),
    }),
  );

export const labelOf = (fault: ModelFault) => `fault ${fault.endpoint} ${fault.kind}`;

function specOf(fault: ModelFault): Record<string, unknown> {
  const base = { route: fault.endpoint === '*' ? '*' : ROUTES[fault.endpoint], times: fault.times };
  switch (fault.kind) {
    case '429':
      return { ...base, status: 429, retryAfter: fault.retryAfter, rateLimited: true };
    case 'timeout':
      return { ...base, delayMs: LOADER_TIMEOUT_MS + TIMEOUT_OVERSHOOT_MS };
    case 'drop':
      return { ...base, drop: 'before-headers' };
    case 'cut-transfer':
      return { ...base, drop: 'mid-body' };
    case 'truncated':
    case 'html':
      return { ...base, body: fault.kind };
    case 'drift':
      return {
        ...base,
        drift:
          fault.drift === 'omit-slug'
            ? { omit: ['slug'] }
            : fault.drift === 'rename-content'
              ? { rename: { content: 'body' } }
              : { add: { extra_field: 'ignored', nested: { a: 1 } } },
      };
    default:
      return { ...base, status: Number(fault.kind) };
  }
}

/** Posts the fault; returns its id. */
export async function inject(sim: Simulator, fault: ModelFault): Promise<string> {
  const response = await fetch(`${sim.url}/__simulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(specOf(fault)),
  });
  if (response.status !== 201) throw new Error(`fault ${JSON.stringify(fault)}: ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/** How often each active fault applied so far (an exhausted one is gone from the list). */
export async function appliedCounts(sim: Simulator): Promise<Map<string, number>> {
  const response = await fetch(`${sim.url}/__simulator/faults`);
  const { faults } = (await response.json()) as { faults: Array<{ id: string; applied: number }> };
  return new Map(faults.map((f) => [f.id, f.applied]));
}

/** Faults that applied to at least one request between the two counts. */
export function reached(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...before].filter(([id, applied]) => !after.has(id) || after.get(id)! > applied).map(([id]) => id);
}

/** Thrown from inside a build (after its N-th store write) to kill it. */
export class KillSignal extends Error {
  constructor(readonly writes: number) {
    super(`killed after store write ${writes}`);
  }
}

/** The errors a fault of this kind can cause. */
export function causes(kind: FaultKind | 'limiter-429' | 'kill', error: unknown): boolean {
  switch (kind) {
    case 'kill':
      return error instanceof KillSignal;
    case 'limiter-429':
    case '429':
      return error instanceof RateLimitError;
    case '500':
    case '503':
      return error instanceof ServerError && error.status === Number(kind);
    case '401':
      return error instanceof UnauthorizedError;
    case '403':
      return error instanceof ForbiddenError;
    case '404':
      return error instanceof NotFoundError;
    case 'timeout':
      return error instanceof TimeoutError;
    case 'drop':
      return error instanceof NetworkError;
    case 'cut-transfer':
      return error instanceof NetworkError || error instanceof ResponseFormatError;
    case 'truncated':
    case 'html':
    case 'drift':
      return error instanceof ResponseFormatError;
  }
}
