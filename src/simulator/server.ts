import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { USERS } from './accounts.js';
import { authenticate } from './auth.js';
import type { HandlerContext } from './context.js';
import { FaultRegistry, replacementResponse, replacesResponse, transformResponse, type FaultSpec } from './faults.js';
import { errorResponse, pause, type SimRequest, type SimResponse } from './http.js';
import { resolveSimulatorOptions, type SimulatorOptions } from './options.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { matchRoute, type RouteKind } from './router.js';
import { ROUTES } from './routes.js';
import { containsToken, recordedQuery, StatsCollector, type SimulatorStats } from './stats.js';
import { ContentStore } from './store.js';
import { serviceNow } from './clock.js';
import { withFaultRateLimit } from './fault-rate-limit.js';
import { resetAll } from './admin.js';
import { adminRequestRefusal } from './admin-guard.js';
import {
  createMediaLibrary,
  MEDIA_ROUTE,
  MEDIA_SEEDED_AT,
  mediaResponse,
  withMediaOrigin,
  type MediaResponse,
} from './media.js';
import { faultedMediaResponse } from './media-faults.js';

export interface Simulator {
  /** "http://127.0.0.1:PORT" */
  url: string;
  /** The first token of each user. */
  tokens: { free: string; solo: string; pro: string; agence: string };
  /** More tokens of the same users (they share the user's rate limit), `extraProTokens` included. */
  extraTokens: { pro: string[] };
  /** Active sites per plan user (pro: 12 with content, 13 whose CMS is unreachable). */
  sites: { pro: number[]; agence: number[] };
  /** Same JSON as GET /__simulator/stats. */
  stats(): SimulatorStats;
  resetStats(): void;
  /** Content, quotas, stats, faults and windows back to the start. */
  reset(): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function userFor(plan: string) {
  const user = USERS.find((u) => u.plan === plan);
  if (!user) throw new Error(`no ${plan} user`);
  return user;
}

/**
 * The body, or undefined when over MAX_BODY_BYTES. An oversized body is still read to its end (and
 * dropped): leaving the loop early would destroy the socket, and the 413 could not be sent.
 */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buf);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** Writes the response, or breaks the connection as a fault asks. Returns the status the client saw (0: none). */
function send(
  res: ServerResponse,
  response: SimResponse | MediaResponse,
  head: boolean,
  drop: FaultSpec['drop'],
  nowMs: number,
): number {
  if (drop === 'before-headers') {
    res.socket?.destroy();
    return 0;
  }
  const body = typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : response.body;
  // The service's clock, not Node's (which reads the global Date, faked by some tests): a feed's `Date` and
  // `Age` must agree with its `Last-Modified`.
  const headers: Record<string, string | number> = { date: new Date(nowMs).toUTCString(), ...response.headers };
  if (response.status !== 304 && response.status !== 204) headers['content-length'] = body.length;
  res.writeHead(response.status, headers);
  if (drop === 'mid-body') {
    // Announce the full length, send half, then cut: the client sees a truncated transfer.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return response.status;
  }
  res.end(head || response.status === 304 || response.status === 204 ? undefined : body);
  return response.status;
}

/** Which stats counter a request belongs to: every /api/v1/ request counts as authenticated, whatever happened. */
function statsKind(path: string, routeKind: RouteKind | undefined): 'authenticated' | 'public' | 'admin' | 'other' {
  if (path.startsWith('/api/v1/')) return 'authenticated';
  return routeKind === 'public' || routeKind === 'admin' ? routeKind : 'other';
}

/** Starts the simulated content-publishing service on 127.0.0.1. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveSimulatorOptions(options);
  // One per server: close() aborts it so no pending delay outlives the server.
  const lifetime = new AbortController();
  const media = await createMediaLibrary();
  const ctx: HandlerContext = {
    signal: lifetime.signal,
    store: new ContentStore(resolved.seed, resolved.articles, () => resolved.variants, serviceNow),
    options: resolved,
    baseUrl: '',
    stats: new StatsCollector(),
    faults: new FaultRegistry(),
    limiter: new SlidingWindowLimiter(resolved.windowMs),
    now: serviceNow,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Read before the body: a client that gives up may take the socket (and its address) with it.
    const remoteAddress = req.socket?.remoteAddress ?? '';
    const body = await readBody(req);
    // When it reached the service (its clock): what the rate limit counts it at.
    const at = ctx.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    if (path.startsWith('/media/') && (method === 'GET' || method === 'HEAD')) {
      // The fault list first, as for the API: an image can fail, arrive cut short, late or not at all.
      const fault = ctx.faults.take(method, MEDIA_ROUTE, path);
      const replaced = ctx.store.mediaVersions.get(path);
      const image = () =>
        mediaResponse(req, media, path, {
          mode: resolved.variants.imageCaching,
          version: replaced?.version ?? 0,
          changedAt: replaced?.changedAt ?? MEDIA_SEEDED_AT,
        });
      const response = fault ? faultedMediaResponse(image, fault) : image();
      if (fault?.delayMs && !(await pause(fault.delayMs, ctx.signal))) return;
      const status = send(res, response, method === 'HEAD', fault?.drop, ctx.now());
      ctx.stats.record('other', {
        method,
        path,
        ...recordedQuery(url.search),
        route: MEDIA_ROUTE,
        at,
        status,
        authorization: req.headers.authorization !== undefined,
        tokenIn: [],
        ...(fault ? { faulted: true as const } : {}),
      });
      return;
    }
    const simReq: SimRequest = {
      method,
      path,
      query: url.searchParams,
      rawUrl: req.url ?? '/',
      headers: req.headers,
      body: body ?? '',
      remoteAddress,
      params: {},
    };
    const match = matchRoute(ROUTES, method, path);
    const kind = statsKind(path, match.kind === 'not-found' ? undefined : match.route.kind);
    const routeKey = match.kind === 'not-found' ? `${method} (unmatched)` : `${method} ${match.route.pattern}`;

    let response: SimResponse;
    let fault: FaultSpec | undefined;
    if (body === undefined) {
      response = errorResponse(413, `Request body larger than ${MAX_BODY_BYTES} bytes.`);
    } else if (match.kind === 'not-found') {
      response = errorResponse(404, `No route for ${method} ${path}. API paths end with a slash, e.g. /api/v1/me/.`);
    } else if (match.kind === 'method-not-allowed') {
      response = errorResponse(405, `Method "${method}" not allowed on ${path}.`, { allow: match.allow.join(', ') });
    } else if (match.route.kind === 'admin') {
      // No auth on the admin API, so it must not be reachable from another machine.
      const refusal = adminRequestRefusal(simReq);
      response = !LOOPBACK.has(simReq.remoteAddress)
        ? errorResponse(403, 'The simulator admin API only answers loopback clients.')
        : refusal
          ? errorResponse(403, `The simulator admin API refused this request: ${refusal}.`)
          : await match.route.handler({ ...simReq, params: match.params }, ctx);
    } else {
      const route = match.route;
      fault = ctx.faults.take(method, route.pattern, path);
      const run = async (): Promise<SimResponse> => {
        const request = { ...simReq, params: match.params };
        if (route.kind !== 'authenticated') return route.handler(request, ctx);
        const gate = authenticate(request, ctx);
        if (!gate.ok) return gate.response;
        const result = await route.handler(request, { ...ctx, user: gate.user });
        return { ...result, headers: { ...gate.headers, ...result.headers } };
      };
      if (fault && replacesResponse(fault)) response = transformResponse(replacementResponse(fault), fault, false);
      else response = fault ? transformResponse(await run(), fault, true) : await run();
      if (fault) response = withFaultRateLimit(response, fault, simReq, ctx, route.kind === 'authenticated');
      // Closed while waiting: the connection is being destroyed, nothing to send or count.
      if (fault?.delayMs && !(await pause(fault.delayMs, ctx.signal))) return;
    }

    response = { ...response, body: withMediaOrigin(response.body, ctx.baseUrl) };
    const status = send(res, response, method === 'HEAD', fault?.drop, ctx.now());
    if (kind !== 'admin') {
      const tokenIn: string[] = [];
      const headerText = Object.entries(req.headers)
        .map(([name, value]) => `${name}: ${String(value)}`)
        .join('\n');
      if (containsToken(headerText)) tokenIn.push('header');
      if (containsToken(simReq.rawUrl)) tokenIn.push('url');
      if (containsToken(simReq.body)) tokenIn.push('body');
      ctx.stats.record(kind, {
        method,
        path,
        ...recordedQuery(url.search),
        route: routeKey,
        at,
        status,
        authorization: req.headers.authorization !== undefined,
        tokenIn,
        ...(fault ? { faulted: true as const } : {}),
      });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the simulator must show up as a 500 in the test that hit it, not crash the process.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(
          JSON.stringify({ error: `Simulator error: ${error instanceof Error ? error.message : String(error)}` }),
        );
      } else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `simulator \`port\` ${resolved.port} is already in use on 127.0.0.1. Pick another port, or 0 for a free one.`,
            )
          : error,
      );
    });
    server.listen(resolved.port, '127.0.0.1', () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  ctx.baseUrl = `http://127.0.0.1:${port}`;

  const pro = userFor('pro');
  const agence = userFor('agence');
  const activeSites = (ids: number[]) => ids.filter((id) => ctx.store.site(id)?.active);
  return {
    url: ctx.baseUrl,
    tokens: {
      free: userFor('free').tokens[0] ?? '',
      solo: userFor('solo').tokens[0] ?? '',
      pro: pro.tokens[0] ?? '',
      agence: agence.tokens[0] ?? '',
    },
    extraTokens: { pro: [...pro.tokens.slice(1), ...resolved.extraProTokens] },
    sites: { pro: activeSites(pro.siteIds), agence: activeSites(agence.siteIds) },
    stats: () => ctx.stats.snapshot(),
    resetStats: () => ctx.stats.reset(),
    reset: () => resetAll(ctx),
    close: () =>
      new Promise<void>((resolve, reject) => {
        lifetime.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
