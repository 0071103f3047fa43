import type { LoaderContext } from 'astro/loaders';
import type { ArticleListItem } from '../../client/index.js';
import { serviceDataOf, withServiceData } from '../entries/entry-schema.js';
import { pageDigest, setSameDigest } from '../entries/page-digest.js';
import type { SyncState } from '../state/state.js';
import type { FreeSignals } from './sync-signals.js';
import type { SyncPlan } from './sync-plan.js';

/**
 * Step 5 of a build: listed entries that stay as they are. Records first sightings in the feeds (the
 * baselines later builds compare with) and keeps the view count fresh (free, from the list call) without
 * counting it as a change. A pending entry records nothing: the signal that made it pending must still be
 * there next build.
 */
export function reconcileListed(
  ctx: LoaderContext,
  state: SyncState,
  items: Map<string, ArticleListItem>,
  signals: FreeSignals,
  plan: Pick<SyncPlan, 'fetch' | 'pending'>,
): void {
  const fetched = new Set(plan.fetch.map((f) => f.slug));
  const waiting = new Set(plan.pending.map((p) => p.slug));
  for (const [slug, item] of items) {
    const entryState = state.entries[slug];
    const entry = ctx.store.get(slug);
    if (!entryState || !entry || fetched.has(slug)) continue;
    if (!waiting.has(slug)) {
      const rssHash = signals.rss.get(slug)?.signal.contentHash;
      if (entryState.rssHash === undefined && rssHash !== undefined) entryState.rssHash = rssHash;
      // The plan compared it with the held updated_at already (heldUpdatedAt): not later, so it is the baseline.
      const lastmod = signals.sitemap?.get(slug);
      if (entryState.lastmod === undefined && lastmod !== undefined) entryState.lastmod = lastmod;
    }
    if (typeof entry.data.viewCount === 'number' && entry.data.viewCount !== item.view_count) {
      const data = { ...entry.data, viewCount: item.view_count };
      const source = serviceDataOf(entry);
      const rendered = entry.rendered && {
        ...entry.rendered,
        metadata: withServiceData(entry.rendered.metadata ?? {}, { ...source, viewCount: item.view_count }, data),
      };
      // The digest leaves the view count out (page-digest.ts): the entry's own is still right, no need to
      // hash the whole article again.
      const digest = entry.digest ?? pageDigest(ctx, data, entry.rendered?.html ?? '');
      setSameDigest(ctx.store, { ...entry, data, ...(rendered ? { rendered } : {}), digest });
    }
  }
}
