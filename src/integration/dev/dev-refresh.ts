import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegrationLogger, HookParameters } from 'astro';
import { invalidateLocally } from '../../loader/process/local-invalidation.js';
import { loadersRunDuring } from '../../loader/process/loader-runs.js';
import { BUILD_TIME_LOADER_NAMES } from '../../loader/process/names.js';
import { forgetWindow, lowestKnownWindow } from '../../loader/budget/rate-window.js';
import { undoneMark, undoneSince } from '../../loader/process/watch-report.js';
import { allowedHostsOf, hostRefusal } from './dev-host.js';
import { startFeedPoll } from './dev-poll.js';

/**
 * Fresh content while `astro dev` runs: a POST endpoint (for a webhook or a manual call) and an optional
 * poll of the public RSS feed, both calling Astro's `refreshContent` for this package's loaders only.
 */

/**
 * The names to pass to `refreshContent`: the configured ones, else this package's build-time loaders. Their
 * names are fixed (src/loader/process/names.ts) and Astro matches them exactly, so no other package's loader runs.
 * Astro runs only the collections that use one of them; the answer names those that ran (loader-runs.ts).
 */
export function publisherLoaderNames(configured: readonly string[] | undefined): string[] {
  return [...(configured ?? BUILD_TIME_LOADER_NAMES)];
}

export interface DevRefreshSetup {
  server: HookParameters<'astro:server:setup'>['server'];
  refreshContent: NonNullable<HookParameters<'astro:server:setup'>['refreshContent']>;
  logger: AstroIntegrationLogger;
  endpoint: string;
  pollIntervalMs: number | undefined;
  loaders: readonly string[] | undefined;
  /** The public RSS URL to poll (undefined: no poll possible). */
  rssUrl: string | undefined;
  timeoutMs: number;
  /** At most one refresh per this many ms. @default 30000 */
  minIntervalMs?: number;
  /** When set, a POST must carry `Authorization: Bearer <token>`. @default undefined */
  token?: string | undefined;
  /** No refresh when the lowest X-RateLimit-Remaining a loader saw for `serviceOrigin` is at or below this. @default 5 */
  reserve?: number;
  serviceOrigin?: string | undefined;
  /**
   * Cache tags of the dev server's in-memory copies of the service's feeds (the sitemap and RSS routes):
   * expired after every refresh, so the routes ask the service again (a conditional request) rather than
   * serving the copy they fetched before an edit for up to an hour. @default []
   */
  feedTags?: readonly string[];
  /**
   * A refresh refused on the remembered window probes the service (forgets the memory: the loaders' first
   * request asks again) once the memory is this old, then after twice as long each time it was still low.
   * @default 60000
   */
  probeAfterMs?: number;
  now?: () => number;
}

/** A refresh that was not run, and the status the endpoint answers with. */
export class RefreshRefused extends Error {
  constructor(
    readonly status: 429,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A refresh that ran: the loaders run, and what those that kept their stored content (without listing) said. */
interface RefreshDone {
  loaders: string[];
  kept: string | undefined;
}

/** True when the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasRefreshToken(headers: IncomingMessage['headers'], token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(sent), digest(token));
}

/**
 * Why a POST looks like it came from another site's page in the developer's browser (any open tab may
 * post to localhost, and every refresh runs the loaders and spends the rate limit), or undefined.
 * A webhook or `curl` sends neither header and is accepted.
 */
export function crossSiteRefusal(headers: IncomingMessage['headers']): string | undefined {
  if (headers['sec-fetch-site'] === 'cross-site')
    return 'the request came from another site (Sec-Fetch-Site: cross-site)';
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let originHost: string | undefined;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" (a sandboxed or privacy-sensitive page) or garbage: not this server.
  }
  if (!originHost || originHost !== headers.host)
    return `the request came from another origin (Origin: ${JSON.stringify(origin)})`;
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

export function setupDevRefresh(setup: DevRefreshSetup): () => void {
  const { logger } = setup;
  const now = setup.now ?? Date.now;
  const minIntervalMs = setup.minIntervalMs ?? 30_000;
  const reserve = setup.reserve ?? 5;
  const firstProbeMs = setup.probeAfterMs ?? 60_000;
  let probeAfterMs = firstProbeMs;
  let lastProbe = -Infinity;
  let running: Promise<RefreshDone> | undefined;
  let lastStarted = -Infinity;
  const allowedHosts = allowedHostsOf(setup.server.config);

  /**
   * Why the remembered window forbids a refresh now, or undefined. What the loaders saw is trusted until the
   * service's reset (X-RateLimit-Reset); a window cleared before it (a plan upgrade) is only seen by asking, so
   * a refused refresh becomes a probe once the memory is `probeAfterMs` old: the memory is forgotten and the
   * loaders' first request reads the window again (one request per key; the loaders then keep to the reserve).
   * Each probe that finds the window still low doubles the wait before the next one.
   */
  const windowRefusal = (): RefreshRefused | undefined => {
    if (setup.serviceOrigin === undefined) return undefined;
    const seen = lowestKnownWindow(setup.serviceOrigin, now());
    if (seen === undefined || seen.remaining > reserve) {
      probeAfterMs = firstProbeMs;
      return undefined;
    }
    const probeAt = Math.max(seen.seenAt, lastProbe) + probeAfterMs;
    if (now() >= probeAt) {
      forgetWindow(setup.serviceOrigin);
      lastProbe = now();
      probeAfterMs *= 2;
      return undefined;
    }
    const seconds = Math.max(1, Math.ceil((Math.min(seen.resetAt, probeAt) - now()) / 1000));
    return new RefreshRefused(
      429,
      `Not refreshed: the loaders saw ${seen.remaining} requests left this hour, at or below the reserve (${reserve}, devRefresh.reserve); retry in ${seconds} s.`,
      seconds,
    );
  };

  // One refresh at a time; a call during a refresh waits for it rather than queueing another. At most one
  // per `minIntervalMs`, and none when the loaders last saw the hourly window at or below the reserve: every
  // refresh runs the loaders, and each loader's list call is a request of the owner's budget.
  const refresh = (why: string): Promise<RefreshDone> => {
    if (running) return running;
    const wait = lastStarted + minIntervalMs - now();
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return Promise.reject(
        new RefreshRefused(
          429,
          `Not refreshed: one refresh per ${minIntervalMs} ms (devRefresh.minIntervalMs); retry in ${seconds} s.`,
          seconds,
        ),
      );
    }
    const refused = windowRefusal();
    if (refused) return Promise.reject(refused);
    lastStarted = now();
    running ??= (async () => {
      const names = publisherLoaderNames(setup.loaders);
      const mark = undoneMark();
      const ran = await loadersRunDuring(() => setup.refreshContent({ loaders: names }), names);
      // An edit keeps the set of slugs (the feed routes' cache key in dev): without this, /sitemap.xml and
      // /rss.xml kept serving the copy fetched before the edit until the service's max-age (an hour) ran out.
      void invalidateLocally(setup.feedTags ?? []);
      // A loader that kept its stored content without listing (the service failed, the hourly reserve) does not
      // fail the refresh, but the caller is told (articles left for later builds by the budget are not a failure).
      const kept = undoneSince(mark).filter((u) => u.kind === 'kept');
      const what = kept.length ? kept.map((u) => `${u.site}: ${u.undone}`).join('; ') : undefined;
      if (what) logger.warn(`Refreshed content (${why}), but the loaders kept their stored content: ${what}`);
      else
        logger.info(`Refreshed content (${why}): ${ran.length ? ran.join(', ') : 'no collection uses these loaders'}`);
      return { loaders: ran, kept: what };
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
    if (setup.token !== undefined && !hasRefreshToken(req.headers, setup.token)) {
      req.resume();
      send(
        res,
        401,
        { error: `Send the refresh token as Authorization: Bearer <token> (devRefresh.token).` },
        { 'WWW-Authenticate': 'Bearer' },
      );
      return;
    }
    const refusal = hostRefusal(req.headers.host, allowedHosts) ?? crossSiteRefusal(req.headers);
    if (refusal) {
      req.resume();
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`Forbidden: ${refusal}. POST ${setup.endpoint} from a webhook, curl or a page of this dev server.\n`);
      return;
    }
    req.resume(); // the body (a webhook's payload) is not needed
    refresh(`POST ${setup.endpoint}`).then(
      ({ loaders, kept }) =>
        kept === undefined
          ? send(res, 200, { refreshed: loaders })
          : // A webhook retries a 502: the pages show the stored content meanwhile.
            send(res, 502, {
              error: `Refreshed, but the loaders kept their stored content (${kept}): retry later.`,
              refreshed: loaders,
            }),
      (error: unknown) => {
        if (error instanceof RefreshRefused) {
          send(
            res,
            error.status,
            { error: error.message },
            error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) },
          );
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        logger.error(`Content refresh failed: ${message}`);
        send(res, 500, { error: `Content refresh failed: ${message}` });
      },
    );
  });
  logger.info(`Dev refresh: POST ${setup.endpoint} refreshes this package's collections.`);

  if (setup.pollIntervalMs === undefined || setup.rssUrl === undefined) return () => {};
  const stop = startFeedPoll({
    rssUrl: setup.rssUrl,
    interval: setup.pollIntervalMs,
    timeoutMs: setup.timeoutMs,
    logger,
    onChange: () => refresh('the RSS feed changed'),
  });
  setup.server.httpServer?.once('close', stop);
  return stop;
}
