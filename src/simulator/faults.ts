import { z } from 'zod';
import type { SimResponse } from './http.js';

/**
 * A fault to inject, posted to POST /__simulator/faults. `route` is a route key
 * ("GET /api/v1/sites/:id/articles/"), a concrete request ("GET /api/v1/sites/12/articles/"), a path without
 * a method, or a glob with `*` ("*" alone matches every API and feed request, never the admin API).
 */
export const faultSchema = z
  .object({
    route: z.string().min(1),
    /** Status to answer with. Alone (or with json/body), the request never reaches the handler. */
    status: z.number().int().min(100).max(599).optional(),
    /** A literal body, or 'truncated' (real body cut in half), 'html' (an HTML error page), 'empty', 'huge'. */
    body: z.string().optional(),
    /** A JSON body to answer with instead of the real one. */
    json: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** Sets Retry-After: these seconds, in the `retryAfter` variant's form on a 429. */
    retryAfter: z.number().int().min(0).optional(),
    /**
     * On a 429 of an authenticated route: the window headers as the service sends them (the caller's
     * `X-RateLimit-Limit`, `Remaining: 0`, a reset `retryAfter` seconds ahead, default 1), in the variants' forms.
     */
    rateLimited: z.boolean().optional(),
    /** Wait before answering (after the handler ran). */
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /** Destroy the connection before the headers, or after half of the body. */
    drop: z.enum(['before-headers', 'mid-body']).optional(),
    /** Schema drift applied to each object in `results` (or to the top-level object) of the real body. */
    drift: z
      .object({
        rename: z.record(z.string(), z.string()).optional(),
        omit: z.array(z.string()).optional(),
        add: z.record(z.string(), z.unknown()).optional(),
      })
      .strict()
      .optional(),
    /** How many requests the fault applies to. @default until cleared */
    times: z.number().int().min(1).optional(),
    /** Share of matching requests that get the fault (deterministic: every 1/share-th one). @default 1 */
    share: z.number().min(0).max(1).optional(),
    /** Size of the 'huge' body in bytes. @default 67_108_864 (64 MiB) */
    hugeBytes: z
      .number()
      .int()
      .min(1)
      .max(512 * 1024 * 1024)
      .optional(),
  })
  .strict();

export type FaultSpec = z.output<typeof faultSchema>;

interface ActiveFault {
  id: string;
  spec: FaultSpec;
  matcher: RegExp;
  seen: number;
  applied: number;
}

const SPECIAL_BODIES = new Set(['truncated', 'html', 'empty', 'huge']);

function globToRegex(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

export class FaultRegistry {
  private faults: ActiveFault[] = [];
  private counter = 0;

  add(spec: FaultSpec): string {
    this.counter += 1;
    const id = `fault-${this.counter}`;
    this.faults.push({ id, spec, matcher: globToRegex(spec.route.trim()), seen: 0, applied: 0 });
    return id;
  }

  list(): Array<{ id: string; applied: number } & FaultSpec> {
    return this.faults.map((f) => ({ id: f.id, applied: f.applied, ...f.spec }));
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault for this request, if any, counting it as applied. */
  take(method: string, routePattern: string, path: string): FaultSpec | undefined {
    const candidates = [`${method} ${routePattern}`, `${method} ${path}`, routePattern, path];
    for (const fault of this.faults) {
      if (!candidates.some((c) => fault.matcher.test(c))) continue;
      // "*" means every API and feed request: an image fails only for a fault that names /media/.
      if (path.startsWith('/media/') && !fault.spec.route.includes('/media/')) continue;
      const share = fault.spec.share ?? 1;
      const index = fault.seen;
      fault.seen += 1;
      // Deterministic share: applies when the running count of "due" requests steps up.
      if (Math.floor((index + 1) * share) <= Math.floor(index * share)) continue;
      fault.applied += 1;
      if (fault.spec.times !== undefined && fault.applied >= fault.spec.times) this.remove(fault.id);
      return fault.spec;
    }
    return undefined;
  }
}

/** True when the fault answers by itself, without running the real handler. */
export function replacesResponse(spec: FaultSpec): boolean {
  const needsReal = spec.body === 'truncated' || spec.body === 'huge' || spec.drift !== undefined;
  if (needsReal) return false;
  return spec.status !== undefined || spec.json !== undefined || spec.body !== undefined;
}

const HTML_ERROR_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} Service Error</title></head>` +
  `<body><h1>${status} Service Error</h1><p>The upstream server returned an unexpected response. Please try again later.</p>` +
  '<hr><address>nginx</address></body></html>\n';

export function replacementResponse(spec: FaultSpec): SimResponse {
  const status = spec.status ?? 200;
  if (spec.json !== undefined)
    return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(spec.json) };
  if (spec.body === 'html')
    return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HTML_ERROR_PAGE(status) };
  if (spec.body === 'empty')
    return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '' };
  if (spec.body !== undefined && !SPECIAL_BODIES.has(spec.body)) {
    const looksJson = /^\s*[[{]/.test(spec.body);
    return {
      status,
      headers: { 'content-type': looksJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' },
      body: spec.body,
    };
  }
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ error: `Simulated fault: HTTP ${status}.` }),
  };
}

function applyDrift(body: string, drift: NonNullable<FaultSpec['drift']>): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (!parsed || typeof parsed !== 'object') return body;
  const root = parsed as Record<string, unknown>;
  const targets = Array.isArray(root.results) ? (root.results as unknown[]) : [root];
  for (const target of targets) {
    if (!target || typeof target !== 'object') continue;
    const record = target as Record<string, unknown>;
    for (const [from, to] of Object.entries(drift.rename ?? {})) {
      if (from in record) {
        record[to] = record[from];
        delete record[from];
      }
    }
    for (const field of drift.omit ?? []) delete record[field];
    Object.assign(record, drift.add ?? {});
  }
  return JSON.stringify(parsed);
}

function hugeBody(body: string, contentType: string, bytes: number): string {
  const padding = 'x'.repeat(bytes);
  if (contentType.includes('json')) {
    const trimmed = body.trimEnd();
    if (trimmed.endsWith('}')) return `${trimmed.slice(0, -1)}${trimmed.length > 2 ? ',' : ''}"_padding":"${padding}"}`;
  }
  // XML allows comments after the root element: still well formed, just enormous.
  if (contentType.includes('xml')) return `${body}<!-- ${padding} -->\n`;
  return body + padding;
}

/** Applies the fault's rewrites to a response (the real one or the replacement). */
export function transformResponse(response: SimResponse, spec: FaultSpec, ranHandler: boolean): SimResponse {
  const out: SimResponse = { status: response.status, headers: { ...response.headers }, body: response.body };
  if (ranHandler && spec.status !== undefined) out.status = spec.status;
  if (spec.drift) out.body = applyDrift(out.body, spec.drift);
  if (spec.body === 'truncated') out.body = out.body.slice(0, Math.floor(out.body.length / 2));
  if (spec.body === 'huge')
    out.body = hugeBody(out.body, out.headers['content-type'] ?? '', spec.hugeBytes ?? 64 * 1024 * 1024);
  for (const [name, value] of Object.entries(spec.headers ?? {})) out.headers[name.toLowerCase()] = value;
  return out;
}
