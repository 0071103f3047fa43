import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegrationLogger, HookParameters } from 'astro';
import { fetchFeed, type Validators } from './fetch-feed.js';
import { RSS_MAX_BYTES } from './feed-transform.js';

/**
 * Fresh content while `astro dev` runs: a POST endpoint (for a webhook or a manual call) and an optional
 * poll of the public RSS feed, both calling Astro's `refreshContent` for this package's loaders only.
 */

/**
 * The loaders' names (the loader helper's factories name them this way). A loader created under another
 * name can register it in the global set below, which is read at refresh time.
 */
export const DEFAULT_LOADER_NAMES = [
  'astro-content-publisher:articles',
  'astro-content-publisher:keywords',
  'astro-content-publisher:digest',
] as const;
export const LOADER_NAMES_REGISTRY = Symbol.for('astro-content-publisher.loader-names');

export function publisherLoaderNames(configured: readonly string[] | undefined): string[] {
  if (configured) return [...configured];
  const registry = (globalThis as Record<symbol, unknown>)[LOADER_NAMES_REGISTRY];
  const registered = registry instanceof Set ? [...(registry as Set<unknown>)].filter((n): n is string => typeof n === 'string' && n.startsWith('astro-content-publisher')) : [];
  return [...new Set([...DEFAULT_LOADER_NAMES, ...registered])];
}

export interface DevRefreshSetup {
  server: HookParameters<'astro:server:setup'>['server'];
  refreshContent: NonNullable<HookParameters<'astro:server:setup'>['refreshContent']>;
  logger: AstroIntegrationLogger;
  endpoint: string;
  pollInterval: number | undefined;
  loaders: readonly string[] | undefined;
  /** The public RSS URL to poll (undefined: no poll possible). */
  rssUrl: string | undefined;
  timeoutMs: number;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

export function setupDevRefresh(setup: DevRefreshSetup): () => void {
  const { logger } = setup;
  let running: Promise<string[]> | undefined;

  // One refresh at a time; a call during a refresh waits for it rather than queueing another.
  const refresh = (why: string): Promise<string[]> => {
    running ??= (async () => {
      const loaders = publisherLoaderNames(setup.loaders);
      logger.info(`Refreshing content (${why}): ${loaders.join(', ')}`);
      await setup.refreshContent({ loaders });
      return loaders;
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  setup.server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== setup.endpoint) return next();
    if (req.method !== 'POST') {
      send(res, 405, { error: `Use POST ${setup.endpoint} to refresh the content.` }, { Allow: 'POST' });
      return;
    }
    req.resume(); // the body (a webhook's payload) is not needed
    refresh(`POST ${setup.endpoint}`).then(
      (loaders) => send(res, 200, { refreshed: loaders }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        logger.error(`Content refresh failed: ${message}`);
        send(res, 500, { error: `Content refresh failed: ${message}` });
      },
    );
  });
  logger.info(`Dev refresh: POST ${setup.endpoint} refreshes this package's collections.`);

  if (setup.pollInterval === undefined || setup.rssUrl === undefined) return () => {};
  const rssUrl = setup.rssUrl;
  let validators: Validators = {};
  let digest: string | undefined;
  let failing = false;
  const poll = async (): Promise<void> => {
    try {
      const fetched = await fetchFeed(rssUrl, { timeoutMs: setup.timeoutMs, maxBytes: RSS_MAX_BYTES, conditional: validators });
      failing = false;
      if (fetched.status === 304) return;
      validators = { etag: fetched.etag, lastModified: fetched.lastModified };
      const next = createHash('sha256').update(fetched.body).digest('hex');
      const changed = digest !== undefined && next !== digest;
      digest = next;
      if (changed) await refresh('the RSS feed changed');
    } catch (error) {
      // Log once per failure streak: a service that is down should not flood the dev console.
      if (!failing) logger.warn(`RSS poll failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
      failing = true;
    }
  };
  void poll(); // the first poll only records the feed's current state
  const timer = setInterval(() => void poll(), setup.pollInterval);
  timer.unref();
  const stop = (): void => clearInterval(timer);
  setup.server.httpServer?.once('close', stop);
  return stop;
}
