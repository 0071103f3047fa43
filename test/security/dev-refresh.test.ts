/**
 * Issue 15, item 6: the dev refresh endpoint runs the loaders (a list call each) for any local process, or any
 * LAN host with `astro dev --host`. Before: 65 POSTs made 65 list calls and drained the hourly window, and a
 * refresh ran whatever the window had left. Now: at most one refresh per `minIntervalMs`, an optional token, and
 * no refresh when the loaders last saw the window at or below the reserve.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { setupDevRefresh } from '../../src/integration/dev/dev-refresh.js';
import { forgetWindow, recordRemaining } from '../../src/loader/budget/rate-window.js';
import { hits, resetSim, ROUTES, useFaultSimulator } from '../faults/helpers.js';

const sim = useFaultSimulator({ articles: 3 });
const LOADER = 'astro-content-publisher:articles:site-12';
let server: Server | undefined;
let stop: (() => void) | undefined;

afterEach(async () => {
  // What a test's "loaders" saw of the window is process-wide: the next test starts without it.
  forgetWindow(sim().url);
  stop?.();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A dev server as far as the refresh sees one: its middleware on a real HTTP server; each refresh runs a "loader" that sends a list call. */
async function devServer(
  options: {
    minIntervalMs?: number;
    token?: string;
    reserve?: number;
    origin?: string;
    allowedHosts?: string[];
    now?: () => number;
  } = {},
) {
  let middleware: ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) | undefined;
  const { allowedHosts, ...refreshOptions } = options;
  const fake = {
    middlewares: { use: (fn: typeof middleware) => void (middleware = fn) },
    httpServer: null,
    ssrLoadModule: async () => ({}),
    // Vite's resolved config, as far as the Host check reads it.
    config: { server: { allowedHosts: allowedHosts ?? [], host: '127.0.0.1' } },
  };
  const logger = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  } as unknown as AstroIntegrationLogger;
  const refreshContent = async () => {
    // What articlesLoader does on a refresh: one list call, and the window it saw is recorded for the process.
    const client = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro });
    await client.articles(12);
    recordRemaining(sim().url, sim().tokens.pro, client.rateLimit);
  };
  stop = setupDevRefresh({
    server: fake as never,
    refreshContent: refreshContent as never,
    logger,
    endpoint: '/_publisher/refresh',
    pollInterval: undefined,
    loaders: [LOADER],
    rssUrl: undefined,
    timeoutMs: 5_000,
    serviceOrigin: options.origin ?? sim().url,
    ...refreshOptions,
  });
  server = createServer((req, res) => middleware!(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/_publisher/refresh`;
}

describe('dev refresh', () => {
  it('65 POSTs: one refresh (one list call), the others 429 with Retry-After', async () => {
    const url = await devServer();
    const statuses: number[] = [];
    for (let i = 0; i < 65; i++) {
      const response = await fetch(url, { method: 'POST' });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(64);
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
  });

  it('with a token: a POST without it (or with a wrong one) gets 401 and runs nothing', async () => {
    const token = 'a-long-random-secret-123456';
    const url = await devServer({ token, minIntervalMs: 0 });
    expect((await fetch(url, { method: 'POST' })).status).toBe(401);
    expect(
      (await fetch(url, { method: 'POST', headers: { authorization: 'Bearer wrong-token-0000000000' } })).status,
    ).toBe(401);
    expect(hits(sim().stats(), ROUTES.list)).toBe(0);
    expect((await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
  });

  it('no refresh (no list call) when the loaders last saw the window at or below the reserve', async () => {
    // A loader of this process (another key of the same user) last saw 3 requests left in the window.
    recordRemaining(sim().url, 'btb_another_token_of_the_owner', { limit: 60, remaining: 3, reset: 0 });
    const url = await devServer({ minIntervalMs: 0 });
    const response = await fetch(url, { method: 'POST' });
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /saw 3 requests left this hour, at or below the reserve \(5, devRefresh.reserve\)/,
    );
    expect(hits(sim().stats(), ROUTES.list)).toBe(0);
  });

  it('the window cleared upstream before its reset (simulator reset): a refused refresh probes once, then refreshes', async () => {
    const clock = { offset: 0 };
    const url = await devServer({ minIntervalMs: 0, now: () => Date.now() + clock.offset });
    await drainTo(4);
    // One refresh: its list call sees 3 left, at or below the reserve.
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    const refused = await fetch(url, { method: 'POST' });
    expect(refused.status).toBe(429);
    // Retry-After: when the next probe may go out (a minute), before the window's own reset (an hour away).
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(((await refused.json()) as { error: string }).error).toMatch(/saw 3 requests left this hour/);

    // The service's window is cleared; nothing tells the dev server until a request goes out.
    await resetSim(sim());
    sim().resetStats();
    expect((await fetch(url, { method: 'POST' })).status).toBe(429);
    expect(hits(sim().stats(), ROUTES.list)).toBe(0);
    clock.offset = 61_000;
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
    // The window is open again: the next refreshes run without waiting for a probe.
    expect((await fetch(url, { method: 'POST' })).status).toBe(200);
    expect(hits(sim().stats(), ROUTES.list)).toBe(2);
  });

  it('a probe that finds the window still low costs one request, and the next probe waits twice as long', async () => {
    const clock = { offset: 0 };
    const url = await devServer({ minIntervalMs: 0, now: () => Date.now() + clock.offset });
    await drainTo(4);
    expect((await fetch(url, { method: 'POST' })).status).toBe(200); // sees 3 left
    sim().resetStats();
    clock.offset = 61_000;
    expect((await fetch(url, { method: 'POST' })).status).toBe(200); // the probe: sees 2 left
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
    // A minute after the probe: the next one waits two.
    clock.offset = 122_000;
    const refused = await fetch(url, { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(hits(sim().stats(), ROUTES.list)).toBe(1);
    clock.offset = 182_000;
    expect((await fetch(url, { method: 'POST' })).status).toBe(200); // the second probe: sees 1 left
    expect(hits(sim().stats(), ROUTES.list)).toBe(2);
  });

  it('Host: a DNS-rebound name gets 403 and sends nothing; localhost, IPs and server.allowedHosts pass', async () => {
    await resetSim(sim()); // a fresh window: every accepted POST below runs a refresh
    const url = await devServer({ minIntervalMs: 0, allowedHosts: ['.example.org', 'dev.example.net'] });
    const port = new URL(url).port;
    for (const host of ['evil.example', `evil.example:${port}`, 'dev.example.net.evil.example', 'localhost.evil']) {
      const response = await rawPost(url, { host, origin: `http://${host}` });
      expect(response.status, host).toBe(403);
      expect(response.body, host).toContain(`Host: ${JSON.stringify(host)}`);
    }
    expect(hits(sim().stats(), ROUTES.list)).toBe(0);
    for (const host of [
      'localhost',
      'a.localhost',
      '127.0.0.1',
      '[::1]',
      'example.org',
      'blog.example.org',
      'dev.example.net',
    ]) {
      const response = await rawPost(url, { host: `${host}:${port}` });
      expect(response.status, host).toBe(200);
    }
  });
});

/** Spends requests of the Pro user until the service says `left` remain in its window. */
async function drainTo(left: number): Promise<void> {
  const client = createClient({ baseUrl: sim().url, apiKey: sim().tokens.pro });
  do await client.me();
  while ((client.rateLimit?.remaining ?? 0) > left);
  expect(client.rateLimit?.remaining).toBe(left);
}

/** A POST with exactly these headers (fetch sets Host itself). */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
