/**
 * Local HTTP servers for the host recipes (test/astro/route-cache-netlify.test.ts, route-cache-vercel.test.ts):
 * - `serveFetchHandler` serves a host's built function (a `(Request) => Response` handler, as Netlify's and
 *   Vercel's runtimes call it) on 127.0.0.1, so that `content-publisher watch --invalidate`, a separate
 *   process, reaches the injected endpoint over real HTTP;
 * - `startRecordingApi` stands in for a host's purge API: it records every request and answers a set status.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves `handler` with requests for `origin` (the site's public address, as the host's CDN forwards them). */
export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
  origin: string,
): Promise<LocalServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      const request = new Request(new URL(req.url ?? '/', origin), {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`the function threw: ${String(error)}`);
    });
  });
  return { url: await listen(server), close: closer(server) };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RecordingApi extends LocalServer {
  requests: RecordedRequest[];
  /** The status the next requests are answered with (200 until set). */
  answer: { status: number };
}

export async function startRecordingApi(): Promise<RecordingApi> {
  const requests: RecordedRequest[] = [];
  const answer = { status: 200 };
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: body.toString() });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.status < 300 ? '{}' : '{"message":"refused by the test"}');
    });
  });
  return { url: await listen(server), close: closer(server), requests, answer };
}
