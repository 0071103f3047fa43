import type { HandlerContext } from './context.js';

/**
 * Which copy of a public feed answers a request. The service's feeds are "cached for 1 hour" at a CDN: a reader
 * may get a copy older than the list, and successive requests may reach edges holding copies of different
 * ages. The variants pick how: `feedCdnMaxAgeSeconds` (one edge's copy), `feedStaleEdgeSeconds` (a second,
 * older edge, every other request), `sitemapState: 'stale'` (the sitemap alone lags).
 */

export interface FeedCopy {
  body: string;
  /** What the copy shows changed last (its `Last-Modified`), ms. */
  lastModified: number;
  /** When the edge took the copy from the origin (its `Age`), ms. */
  takenAt: number;
}

export interface ServedCopy extends FeedCopy {
  /** Served from an edge's cache: the response carries `Age`. */
  cached: boolean;
  /** The edge that answered, with two of them (`X-Served-By`). */
  edge?: string;
}

type Fresh = () => Omit<FeedCopy, 'takenAt'>;

/** The copy an edge holds under `key`, taken again once it is `maxAgeMs` old. */
function held(ctx: HandlerContext, key: string, maxAgeMs: number, fresh: Fresh): FeedCopy {
  const now = ctx.now();
  const copy = ctx.store.feedCopies.get(key);
  if (copy && now - copy.takenAt < maxAgeMs) return copy;
  const taken = { ...fresh(), takenAt: now };
  ctx.store.feedCopies.set(key, taken);
  return taken;
}

export function servedCopy(ctx: HandlerContext, feed: 'sitemap' | 'rss', siteId: number, fresh: Fresh): ServedCopy {
  const variants = ctx.options.variants;
  const key = `${feed}:${siteId}`;
  if (feed === 'sitemap' && variants.sitemapState === 'stale')
    return { ...held(ctx, `${key}:stale`, variants.sitemapStaleSeconds * 1000, fresh), cached: true };
  let edge: string | undefined;
  if (variants.feedStaleEdgeSeconds > 0) {
    // Round robin, as a load balancer in front of two edges would: every other request reaches the older one.
    const turn = ctx.store.edgeTurns.get(key) ?? 0;
    ctx.store.edgeTurns.set(key, turn + 1);
    if (turn % 2 === 1)
      return {
        ...held(ctx, `${key}:edge-2`, variants.feedStaleEdgeSeconds * 1000, fresh),
        cached: true,
        edge: 'edge-2',
      };
    edge = 'edge-1';
  }
  const maxAgeMs = variants.feedCdnMaxAgeSeconds * 1000;
  if (maxAgeMs === 0) return { ...fresh(), takenAt: ctx.now(), cached: false, ...(edge ? { edge } : {}) };
  return { ...held(ctx, key, maxAgeMs, fresh), cached: true, ...(edge ? { edge } : {}) };
}

/** The headers a CDN adds to a copy: how old it is (`Age`, whole seconds) and which edge answered. */
export function copyHeaders(copy: ServedCopy, nowMs: number): Record<string, string> {
  return {
    ...(copy.cached ? { age: String(Math.max(0, Math.floor((nowMs - copy.takenAt) / 1000))) } : {}),
    ...(copy.edge ? { 'x-served-by': copy.edge } : {}),
  };
}
