import type { LoaderContext } from 'astro/loaders';
import type { ArticleDetail, ArticleListItem } from '../client/index.js';
import { sanitizeArticle } from '../html/index.js';
import { detailSlots } from './budget.js';
import type { RssSignal } from './change-signals.js';
import { createLoaderClients } from './clients.js';
import { dataFromDetail, dataFromRss, toDate } from './entries.js';
import { safeEntry } from './entry-safety.js';
import { readRss, readSitemap, type RssSignals, type SitemapSignals } from './feed-signals.js';
import { loaderFingerprint, shortHash, stableStringify } from './fingerprint.js';
import type { ResolvedArticlesLoaderOptions } from './options.js';
import { readState, type EntryState, type SyncState } from './state.js';
import { recordRemaining } from './rate-window.js';
import { summaryLine } from './summary.js';
import { isTransient } from './transient.js';
import { listMayBeCapped, planSync, type PlannedFetch } from './sync-plan.js';
import { describeError, makeWarn } from './warnings.js';

/** The list item's own fields; the view count is left out because every detail GET moves it. */
export function listDigest(item: ArticleListItem): string {
  return shortHash(stableStringify({ title: item.title, status: item.status, language: item.language, published_at: item.published_at }));
}

/** What a reader sees: everything but the view count (which changes without the article changing). */
function semanticKey(data: Record<string, unknown>, html: string | undefined): string {
  const { viewCount: _viewCount, ...rest } = data;
  return stableStringify({ rest, html: html ?? '' });
}

function refreshFromContext(data: Record<string, unknown> | undefined): 'force' | undefined {
  const ours = data?.['astro-content-publisher'];
  return typeof ours === 'object' && ours !== null && (ours as { refresh?: unknown }).refresh === 'force' ? 'force' : undefined;
}

/** One build of `articlesLoader`: list, free signals, plan, fetch within the budget, store, one log line. */
export async function runArticlesSync(ctx: LoaderContext, opts: ResolvedArticlesLoaderOptions, key: string): Promise<void> {
  const { store, meta, logger } = ctx;
  const warn = makeWarn(logger, opts.strict);
  const metaKey = `${key}:state`;
  const { state: previous, found } = readState(meta.get(metaKey));
  const state: SyncState = structuredClone(previous);
  const fingerprint = loaderFingerprint({ siteId: opts.siteId, sanitize: opts.sanitize });
  const refresh = refreshFromContext(ctx.refreshContextData) ?? opts.refresh;
  const clients = createLoaderClients({ baseUrl: opts.baseUrl, apiKey: opts.apiKey, maxRequests: opts.budget.maxRequests, timeoutMs: opts.timeoutMs, allowInsecureHttp: opts.allowInsecureHttp }, logger);
  const site = `site ${opts.siteId}`;

  // State of ids that the store no longer holds (Astro cleared it) is forgotten: those are new again.
  for (const id of Object.keys(state.entries)) if (!store.has(id)) delete state.entries[id];
  const storedIds = store.keys();

  // The free signals travel while the list call runs.
  const sitemapP: Promise<SitemapSignals | { error: unknown }> = readSitemap(clients.list, opts.siteId, state.sitemap).catch((error: unknown) => ({ error }));
  // Entries to re-sanitise (new fingerprint, lost state) can use the feed's copy for free, but only if the
  // feed is read in full: skip the conditional GET then.
  const needsFeedCopy = storedIds.some((id) => state.entries[id]?.fingerprint !== fingerprint);
  const rssP: Promise<RssSignals | { error: unknown }> = readRss(clients.list, opts.siteId, needsFeedCopy ? undefined : state.rss).catch((error: unknown) => ({ error }));

  // What this build saw of the hourly window, for the data loaders running beside it (rate-window.ts).
  const shareWindow = () => recordRemaining(opts.baseUrl, opts.apiKey, clients.rateLimit());
  let listed: ArticleListItem[];
  try {
    const query = Object.fromEntries(Object.entries({ status: opts.status, language: opts.language, limit: opts.limit }).filter(([, v]) => v !== undefined));
    listed = await clients.list.articles(opts.siteId, query);
  } catch (error) {
    shareWindow();
    await Promise.allSettled([sitemapP, rssP]);
    // Nothing stored: nothing stale to serve, so the client's own error is the clearest outcome.
    if (storedIds.length === 0 || !isTransient(error)) throw error;
    warn(`Could not list the articles of ${site}: ${describeError(error)} Kept the ${storedIds.length} stored articles as they were; the next build tries again.`, error);
    logger.info(summaryLine({ total: storedIds.length, added: 0, changed: 0, removed: 0, unchanged: storedIds.length, pending: 0, requests: clients.requests(), remaining: clients.remaining() }));
    return;
  }

  shareWindow();
  const items = new Map<string, ArticleListItem>();
  const repeated: string[] = [];
  for (const item of listed) {
    if (items.has(item.slug)) repeated.push(item.slug);
    else items.set(item.slug, item);
  }
  if (repeated.length) {
    warn(`The list of ${site} repeats ${repeated.length} slug(s) (first: "${repeated[0]}"); only the first of each is kept. If a slug exists in several languages, use one articlesLoader per language ({ language: 'fr' }) in separate collections.`);
  }

  const [sitemapR, rssR] = await Promise.all([sitemapP, rssP]);
  let sitemap: Map<string, string> | undefined;
  let sitemapSlugs: Set<string> | undefined;
  if ('error' in sitemapR) warn(`The public sitemap of ${site} could not be read (${describeError(sitemapR.error)}); changes are detected from the list and the RSS feed only in this build.`, sitemapR.error);
  else {
    sitemap = sitemapR.lastmods;
    sitemapSlugs = sitemapR.slugs;
    if (sitemapR.state) state.sitemap = sitemapR.state;
  }
  let rss = new Map<string, { item: import('../feeds/index.js').RssItem; signal: RssSignal }>();
  if ('error' in rssR) warn(`The public RSS feed of ${site} could not be read (${describeError(rssR.error)}); every changed article needs a detail call in this build.`, rssR.error);
  else {
    rss = rssR.items;
    if (rssR.state) state.rss = rssR.state;
  }

  const slots = detailSlots({ maxRequests: opts.budget.maxRequests, reserve: opts.budget.reserve, spent: clients.requests(), remaining: clients.remaining() });
  logger.debug(`budget: min(maxRequests ${opts.budget.maxRequests}, X-RateLimit-Remaining ${clients.remaining() ?? 'unknown'} - reserve ${opts.budget.reserve}); ${clients.requests()} spent on the list call, ${slots} detail calls allowed`);
  const heldUpdatedAt = new Map<string, number>();
  for (const id of storedIds) {
    if (!state.entries[id] || state.entries[id].lastmod !== undefined) continue;
    const held = store.get(id)?.data.updatedAt;
    const time = held instanceof Date ? held.getTime() : toDate(held)?.getTime();
    if (time !== undefined && Number.isFinite(time)) heldUpdatedAt.set(id, time);
  }
  const plan = planSync({
    listed: [...items.values()].map((item) => ({ slug: item.slug, listDigest: listDigest(item) })),
    stored: new Map(storedIds.map((id) => [id, state.entries[id]])),
    hadState: found,
    ...(sitemap ? { sitemap } : {}),
    heldUpdatedAt,
    listMayBeCapped: listMayBeCapped(listed.length, opts.limit),
    ...(sitemapSlugs ? { sitemapSlugs } : {}),
    rss: new Map([...rss].map(([slug, value]) => [slug, value.signal])),
    fingerprint,
    refresh,
    slots,
    now: Date.now(),
    revalidateAfterMs: opts.revalidateAfterHours === false ? false : opts.revalidateAfterHours * 3_600_000,
    allowMassRemoval: opts.allowMassRemoval,
  });

  if (plan.massRemoval) {
    const { removed, stored, listed: count } = plan.massRemoval;
    warn(`The list of ${site} came back with ${count} articles where ${stored} are stored: removing ${removed} at once looks like an upstream accident, so nothing was removed. If it is intended, set articlesLoader({ allowMassRemoval: true }) for one build.`);
  }
  if (plan.capped) {
    const { listed: count, kept, checkedAgainstSitemap } = plan.capped;
    const why = checkedAgainstSitemap
      ? `${kept} stored article(s) missing from it are still in the public sitemap and were kept`
      : `the public sitemap could not be read, so none of the ${kept} stored article(s) missing from it was removed`;
    warn(`The list of ${site} came back with ${count} articles, the service's maximum: it may be cut short, and older articles beyond it cannot be loaded. ${why[0]!.toUpperCase()}${why.slice(1)}. To stay under the maximum, split the site into one articlesLoader per language ({ language: 'fr' }) in separate collections.`);
  }
  for (const id of plan.remove) {
    store.delete(id);
    delete state.entries[id];
  }

  let added = 0;
  let changed = 0;
  const failures: Array<{ slug: string; error: unknown }> = [];

  const write = async (action: PlannedFetch, unsafeData: Record<string, unknown>, unsafeContent: string, entryState: EntryState) => {
    const { data, html: content } = safeEntry(unsafeData, unsafeContent, opts.apiKey); // no secret, no non-http(s) url/featuredImage stored
    const before = store.get(action.slug);
    const url = typeof data.url === 'string' ? data.url : undefined;
    const { html, headings } = sanitizeArticle(content, { ...(opts.sanitize ? { sanitize: opts.sanitize } : {}), ...(url ? { articleUrl: url } : {}) });
    const parsed = await ctx.parseData({ id: action.slug, data });
    const digest = ctx.generateDigest(stableStringify({ data: parsed, html }));
    store.set({ id: action.slug, data: parsed, rendered: { html, metadata: { headings } }, digest });
    state.entries[action.slug] = entryState;
    if (!before) added += 1;
    else if (semanticKey(before.data, before.rendered?.html) !== semanticKey(parsed, html)) changed += 1;
  };

  const fromDetail = async (action: PlannedFetch) => {
    const item = items.get(action.slug)!;
    let detail: ArticleDetail;
    try {
      detail = await clients.detail.article(opts.siteId, action.slug);
      const lastmod = sitemap?.get(action.slug);
      const rssHash = rss.get(action.slug)?.signal.contentHash ?? state.entries[action.slug]?.rssHash;
      await write(action, dataFromDetail(item, detail), detail.content, {
        listDigest: listDigest(item),
        ...optional('lastmod', lastmod),
        contentHash: shortHash(detail.content),
        ...optional('rssHash', rssHash),
        checkedAt: Date.now(),
        fingerprint,
      });
    } catch (error) {
      failures.push({ slug: action.slug, error });
    }
  };

  const fromRss = async (action: PlannedFetch) => {
    const item = items.get(action.slug)!;
    const feedItem = rss.get(action.slug)!;
    const before = store.get(action.slug);
    const prevState = state.entries[action.slug];
    const lastmod = sitemap?.get(action.slug);
    try {
      await write(action, dataFromRss(item, feedItem.item, before?.data, lastmod), feedItem.item.contentEncoded ?? '', {
        listDigest: listDigest(item),
        ...optional('lastmod', lastmod ?? prevState?.lastmod),
        contentHash: feedItem.signal.contentHash!,
        rssHash: feedItem.signal.contentHash!,
        checkedAt: prevState?.checkedAt ?? 0,
        fingerprint,
        // Without a previous detail, fields the feed lacks (keywords, featured image) are still missing.
        partial: before ? (prevState?.partial ?? false) : true,
      });
    } catch (error) {
      failures.push({ slug: action.slug, error });
    }
  };

  await Promise.all(plan.fetch.map((action) => (action.via === 'rss' ? fromRss(action) : fromDetail(action))));

  // Listed entries that stay: record first sightings in the feeds, and keep the view count fresh (free,
  // from the list call) without counting it as a change. A pending entry records nothing: the signal that
  // made it pending must still be there next build.
  const fetched = new Set(plan.fetch.map((f) => f.slug));
  const waiting = new Set(plan.pending.map((p) => p.slug));
  for (const [slug, item] of items) {
    const entryState = state.entries[slug];
    const entry = store.get(slug);
    if (!entryState || !entry || fetched.has(slug)) continue;
    if (!waiting.has(slug)) {
      const rssHash = rss.get(slug)?.signal.contentHash;
      if (entryState.rssHash === undefined && rssHash !== undefined) entryState.rssHash = rssHash;
      // The plan compared it with the held updated_at already (heldUpdatedAt): not later, so it is the baseline.
      const lastmod = sitemap?.get(slug);
      if (entryState.lastmod === undefined && lastmod !== undefined) entryState.lastmod = lastmod;
    }
    if (typeof entry.data.viewCount === 'number' && entry.data.viewCount !== item.view_count) {
      const data = { ...entry.data, viewCount: item.view_count };
      store.set({ ...entry, data, digest: ctx.generateDigest(stableStringify({ data, html: entry.rendered?.html ?? '' })) });
    }
  }

  shareWindow();
  const failedSlugs = failures.filter((f) => plan.fetch.find((a) => a.slug === f.slug)?.reason !== 'revalidate').map((f) => f.slug);
  meta.set(metaKey, JSON.stringify(state));

  const pendingSlugs = new Set([...plan.pending.map((p) => p.slug), ...failedSlugs]);
  const total = store.keys().length;
  const pendingStored = [...pendingSlugs].filter((slug) => store.has(slug)).length;
  logger.info(summaryLine({
    total,
    added,
    changed,
    removed: plan.remove.length,
    unchanged: total - added - changed - pendingStored,
    pending: pendingSlugs.size,
    requests: clients.requests(),
    remaining: clients.remaining(),
  }));
  if (failures.length) {
    const first = failures[0]!;
    warn(`${failures.length} article(s) of ${site} could not be fetched (first: "${first.slug}": ${describeError(first.error)}). Their previous versions are kept; the next build tries again.`, first.error);
  }
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
