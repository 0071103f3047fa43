/**
 * A small hostile upstream on 127.0.0.1 for the security tests: a node:http server whose every request is
 * recorded (method, path, headers) and answered by the test's handler.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface Upstream {
  url: string;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export async function startUpstream(
  handle: (req: IncomingMessage, res: ServerResponse, url: string) => void,
): Promise<Upstream> {
  const upstream: Upstream = { url: '', requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    upstream.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    handle(req, res, upstream.url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  upstream.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  upstream.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return upstream;
}

export const RSS_BODY = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Blog</title><link>https://svc.example.com/</link><description>d</description>
<item><title>One</title><link>https://svc.example.com/blog/one/</link><guid>https://svc.example.com/blog/one/</guid></item>
</channel></rss>`;

export const SITEMAP_BODY = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://svc.example.com/blog/one/</loc></url></urlset>`;
