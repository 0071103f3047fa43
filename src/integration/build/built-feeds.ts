import { readFileSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IntegrationResolvedRoute } from 'astro';
import { backToService } from './built-links.js';
import { dropUnbuiltArticleItems } from '../blog/feed-filter.js';
import { RSS_MAX_BYTES } from '../proxy/feed-transform.js';
import { articleLinkContextOf } from '../blog/known-articles.js';
import { rewriteLinkChunk } from '../links/link-tags.js';
import type { RouteConfig } from '../settings/route-config.js';

// An endpoint of the blog's own that serves the service's feed imports the handler from here.
const RSS_HANDLER_IMPORT = /["']astro-content-publisher\/rss["']/;

/**
 * The prerendered routes that serve the service's feed: the injected one (at `rssPath`) and the blog's own
 * endpoints built with `rssHandler()` (their source names `astro-content-publisher/rss`).
 */
export function feedRoutesOf(
  routes: readonly IntegrationResolvedRoute[],
  rssPath: string | undefined,
  root: URL,
): string[] {
  const namesHandler = (entrypoint: string) => {
    try {
      return RSS_HANDLER_IMPORT.test(readFileSync(new URL(entrypoint, root), 'utf8'));
    } catch {
      return false;
    }
  };
  return routes
    .filter(
      (route) =>
        route.type === 'endpoint' &&
        route.isPrerendered &&
        (route.origin === 'project' ? namesHandler(route.entrypoint) : route.pattern === rssPath),
    )
    .map((route) => route.pattern);
}

/**
 * At `astro:build:done` of a static build, the feeds that `patterns` wrote (`assets`, as Astro passes it): the
 * feed route renders before the build knows its pages, so the `<item>`s whose link is the page of an article
 * that the build did not write are left out, and the links inside the items' HTML to such a page go back to
 * the service (as the pass over the pages sends them, built-links.ts). `config` has the built pages. Returns
 * each feed that changed, with the items it lost.
 */
export function settleBuiltFeeds(
  assets: ReadonlyMap<string, readonly URL[]>,
  patterns: readonly string[],
  config: RouteConfig,
  dir: URL,
): Array<{ feed: string; dropped: number }> {
  const ctx = articleLinkContextOf(config);
  if (ctx?.pages === undefined) return [];
  const back = backToService(ctx, config);
  const root = fileURLToPath(dir);
  const changed: Array<{ feed: string; dropped: number }> = [];
  for (const pattern of patterns) {
    for (const url of assets.get(pattern) ?? []) {
      const file = fileURLToPath(url);
      let xml: string;
      try {
        xml = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const feed = `/${relative(root, file).split(sep).join('/')}`;
      let result;
      try {
        result = dropUnbuiltArticleItems(xml, { url: feed, maxBytes: RSS_MAX_BYTES }, config, ctx.pages);
      } catch {
        // Not a feed this function can read (the route answered an error page): not ours to change.
        continue;
      }
      // The items' HTML is in CDATA sections, where the links are tags as in a page.
      const out = rewriteLinkChunk(result.xml, back, true).out;
      if (out === xml) continue;
      writeFileSync(file, out);
      changed.push({ feed, dropped: result.dropped });
    }
  }
  return changed;
}
