/**
 * Issue 21, findings 3 and 4: an upstream sitemap index against the real route handler of an on-demand
 * build (@astrojs/node). Its parts are fetched a few at once under one deadline, so a visitor of a cold
 * route waits at most about twice `timeoutMs` however many parts are slow or silent; an expired copy is
 * served at once while one refresh runs; the parts are bounded in bytes together, so one refresh of an
 * index of 200 MiB of parts costs the server a bounded amount of memory (measured in a child process).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import node from '@astrojs/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import publisher from 'astro-content-publisher';
import { buildSite, fixtureArticles, locsOf, removeBuilds } from '../fixtures/integration-helpers/index.js';
import { fakeDateAhead } from '../support/timing.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const SITE = 'https://pro-blog.example.com';
const TIMEOUT_MS = 3000;

/** What the upstream answers: how many parts, how long each part takes, how big; `held`: parts wait for it. */
const upstreamState: {
  parts: number;
  delayMs: number;
  urlsPerPart: number;
  generation: number;
  held?: Promise<void>;
} = { parts: 8, delayMs: 0, urlsPerPart: 50, generation: 1 };
const requested: string[] = [];
const servers: Server[] = [];

function partXml(n: number, count: number, generation: number): string {
  const urls: string[] = [];
  for (let i = 0; i < count; i++)
    urls.push(`<url><loc>${SITE}/blog/g${generation}-p${n}-${i}/</loc><lastmod>2026-11-01</lastmod></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

async function listen(handler: Handler): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 120_000;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let upstreamUrl = '';
const partCache = new Map<string, string>();
/** Part n as the upstream serves it now; made once (the memory tests make theirs before the request). */
function partBody(n: number): string {
  const { urlsPerPart, generation } = upstreamState;
  // The 200 MiB index serves one 4 MiB body under every part's name: the test process never holds 200 MiB.
  const key = `${generation === 3 ? 1 : n} ${urlsPerPart} ${generation}`;
  let body = partCache.get(key);
  if (body === undefined) partCache.set(key, (body = partXml(n, urlsPerPart, generation)));
  return body;
}
function upstream(req: IncomingMessage, res: ServerResponse): void {
  requested.push(req.url ?? '');
  const match = /^\/api\/sites\/12\/sitemap(?:-part-(\d+))?\.xml$/.exec(req.url ?? '');
  if (!match) {
    res.writeHead(404).end();
    return;
  }
  const { parts, delayMs } = upstreamState;
  if (match[1] === undefined) {
    const list = Array.from(
      { length: parts },
      (_, i) => `<sitemap><loc>${upstreamUrl}/api/sites/12/sitemap-part-${i + 1}.xml</loc></sitemap>`,
    );
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${list.join('\n')}\n</sitemapindex>\n`,
    );
    return;
  }
  const body = partBody(Number(match[1]));
  void (upstreamState.held ?? Promise.resolve()).then(() =>
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(body);
    }, delayMs),
  );
}

let outDir = '';
beforeAll(async () => {
  ({ url: upstreamUrl } = await listen(upstream));
  outDir = await buildSite('integration-ssr', {
    site: 'https://blog.example.com',
    output: 'server',
    adapter: node({ mode: 'standalone' }),
    integrations: [
      publisher({ siteId: 12, baseUrl: upstreamUrl, rss: false, timeoutMs: TIMEOUT_MS }),
      fixtureArticles([], 'on-demand'),
    ],
  });
}, 120_000);
afterAll(async () => {
  vi.useRealTimers();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await removeBuilds();
});

async function timed(url: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - started };
}

describe('the upstream sitemap index on demand (issue 21: 3)', () => {
  let blog = '';
  beforeAll(async () => {
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    const entry = (await import(pathToFileURL(join(outDir, 'server', 'entry.mjs')).href)) as { handler: Handler };
    delete process.env.ASTRO_NODE_AUTOSTART;
    ({ url: blog } = await listen(entry.handler));
  });
  // The route's cache reads Date: each test sets it as far ahead of the real clock as it needs (fakeDateAhead),
  // to expire copies without waiting.

  it('parts that each answer just within timeoutMs: a cold visitor gets a 502 within twice timeoutMs, not after 12 x timeoutMs', async () => {
    upstreamState.parts = 12;
    upstreamState.delayMs = TIMEOUT_MS - 200; // one after another: 33.6 s; four at once: past the one deadline
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await timed(`${blog}/sitemap.xml`);
      expect(answer.status).toBe(502);
      expect(answer.ms).toBeLessThan(2 * TIMEOUT_MS + 1000);
      expect(errors.mock.calls.flat().join('\n')).toContain(`within ${TIMEOUT_MS} ms (\`timeoutMs\`, one deadline`);
      expect(errors.mock.calls.flat().join('\n')).toContain('raise publisher({ timeoutMs })');
    } finally {
      errors.mockRestore();
    }
  }, 60_000);

  it('slow parts: fetched a few at once, so a cold visitor waits about the slowest wave, within twice timeoutMs', async () => {
    fakeDateAhead(60_000); // past the failure's retry delay
    upstreamState.parts = 8;
    upstreamState.delayMs = 1000; // 8 s one after another; 2 s four at once
    requested.length = 0;
    const answer = await timed(`${blog}/sitemap.xml`);
    expect(answer.status).toBe(200);
    expect(locsOf(answer.body)).toHaveLength(9); // the 8 upstream parts and the blog's own pages
    expect(answer.ms).toBeLessThan(2 * TIMEOUT_MS);
    expect(requested).toHaveLength(9);
    const part = await timed(`${blog}/sitemap-8.xml`);
    expect(locsOf(part.body)).toContain('https://blog.example.com/blog/g1-p8-49/');
  }, 60_000);

  it('an expired copy is served at once while one refresh runs; the next visitor after it gets the new copy', async () => {
    upstreamState.delayMs = 0;
    upstreamState.generation = 2;
    // The refresh's parts are held until the visitors have their answers: "at once" is "before any part of
    // the refresh arrived", whatever the machine's speed (not a bound in milliseconds).
    let release = (): void => undefined;
    upstreamState.held = new Promise<void>((resolve) => (release = resolve));
    fakeDateAhead(60_000 + 2 * 3_600_000); // past the lifetime of the copy the last test made
    requested.length = 0;
    try {
      // A route that waited for the refresh would wait for ever: it fails here, after a generous while.
      const waited = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the visitors waited for the held refresh')), 30_000).unref(),
      );
      const visitors = await Promise.race([Promise.all([1, 2, 3].map(() => timed(`${blog}/sitemap-1.xml`))), waited]);
      for (const visitor of visitors) {
        expect(visitor.status).toBe(200);
        expect(locsOf(visitor.body)).toContain('https://blog.example.com/blog/g1-p1-0/');
      }
      // The refresh was under way while they were answered: the index and its first wave of parts were asked.
      await vi.waitFor(() => expect(requested.length).toBeGreaterThan(1), { timeout: 10_000, interval: 50 });
    } finally {
      release();
      upstreamState.held = undefined;
    }
    // One refresh for the three visitors: the index and its 8 parts, once.
    await vi.waitFor(() => expect(requested).toHaveLength(9), { timeout: 10_000, interval: 100 });
    await vi.waitFor(
      async () =>
        expect(locsOf((await timed(`${blog}/sitemap-1.xml`)).body)).toContain('https://blog.example.com/blog/g2-p1-0/'),
      { timeout: 10_000, interval: 200 },
    );
    expect(requested).toHaveLength(9);
  }, 60_000);
});

describe('the upstream sitemap index bounds the server (issue 21: 4)', () => {
  /** The on-demand server in a process of its own, to read its resident memory. */
  async function serverChild(): Promise<{
    url: string;
    baseMb: number;
    rss: () => Promise<{ rssMb: number; maxRssMb: number }>;
    /** What the server logged. */
    stderr: () => string;
    stop: () => void;
  }> {
    const script = fileURLToPath(new URL('../fixtures/feeds-memory/server-child.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, join(outDir, 'server', 'entry.mjs')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => JSON.parse(String((await lines.next()).value)) as Record<string, number | string>;
    const first = await next();
    return {
      url: String(first.url),
      baseMb: Number(first.rssMb),
      rss: async () => {
        child.stdin.write('rss\n');
        return (await next()) as { rssMb: number; maxRssMb: number };
      },
      stderr: () => stderr,
      stop: () => child.kill(),
    };
  }

  it('50 parts of 4 MiB each (200 MiB): refused after 16 MiB with a 502, the refresh adds under 150 MB to the server', async () => {
    upstreamState.parts = 50;
    upstreamState.delayMs = 0;
    upstreamState.urlsPerPart = 50_000; // about 4.7 MB each
    upstreamState.generation = 3;
    partBody(1);
    const server = await serverChild();
    try {
      const before = await server.rss();
      const answer = await timed(`${server.url}/sitemap.xml`);
      const after = await server.rss();
      console.info(
        `index of 200 MiB: ${answer.status} in ${Math.round(answer.ms)} ms; RSS ${before.rssMb} -> peak ${after.maxRssMb} MB`,
      );
      expect(answer.status).toBe(502);
      // The server's log line goes through a pipe: it may come a moment after the answer.
      await vi.waitFor(
        () => expect(server.stderr()).toContain('its parts are over 16777216 bytes together; nothing was published.'),
        { timeout: 5000, interval: 100 },
      );
      expect(after.maxRssMb - before.maxRssMb).toBeLessThan(150);
    } finally {
      server.stop();
    }
  }, 120_000);

  it('an index just under the bound (4 parts, about 14 MiB): served, the refresh adds under 300 MB to the server', async () => {
    upstreamState.parts = 4;
    upstreamState.urlsPerPart = 36_000;
    upstreamState.generation = 4;
    for (let n = 1; n <= 4; n += 1) partBody(n);
    const server = await serverChild();
    try {
      const before = await server.rss();
      const answer = await timed(`${server.url}/sitemap.xml`);
      const after = await server.rss();
      console.info(
        `index of 14 MiB: ${answer.status} in ${Math.round(answer.ms)} ms; RSS ${before.rssMb} -> peak ${after.maxRssMb} MB`,
      );
      expect(answer.status).toBe(200);
      expect(locsOf(answer.body)).toHaveLength(5);
      expect(after.maxRssMb - before.maxRssMb).toBeLessThan(300);
    } finally {
      server.stop();
    }
  }, 120_000);
});
