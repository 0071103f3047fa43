import type { LoaderContext } from 'astro/loaders';
import { reportUndoneToWatch } from '../process/watch-report.js';
import { detailSlots, revalidationSlots } from '../budget/budget.js';
import { recordRevalidations, sharedRevalidations } from '../budget/revalidation-log.js';
import { createLoaderClients } from '../budget/clients.js';
import { toDate } from '../entries/entries.js';
import { loaderFingerprint } from '../state/fingerprint.js';
import type { ResolvedArticlesLoaderOptions } from '../options/options.js';
import { readState, storedAwaitingDetail, type SyncState } from '../state/state.js';
import { knownRemaining, recordRemaining, restoreWindow, saveWindow } from '../budget/rate-window.js';
import { availableBeforeStart, roundStartedAt, waitingBehind } from '../budget/ledger.js';
import { isTransient } from '../errors/transient.js';
import { applyFetches, type ApplyInput } from '../sync/sync-apply.js';
import { unansweredDue } from '../sync/unanswered.js';
import { followPagesForNews, listArticles, listDigest, type ListedArticles } from '../sync/sync-list.js';
import { listMayBeCapped, planSync } from '../sync/sync-plan.js';
import { reconcileListed } from '../sync/sync-reconcile.js';
import { readFreeSignals, startFreeSignals, type FreeSignals } from '../sync/sync-signals.js';
import { describeError, makeWarn } from '../errors/warnings.js';
import {
  cappedNotice,
  keptLine,
  languageNotice,
  rejectedNotice,
  repeatedNotice,
  resetFormNotice,
  statusNotice,
  withheldNotice,
  reserveReachedLine,
  warnAboutMassRemoval,
} from './sync-notices.js';
import { reportSync } from './sync-report.js';
import { firstInProcess, rememberedNotice, saidOnce, type Notice } from './notice-memory.js';
import { statusesOf, urlMayBeOf } from '../evidence/evidence.js';
import { listShownCut, markUnlisted } from '../evidence/list-evidence.js';
import { pageDigest } from '../entries/page-digest.js';
import { startProgress } from './progress.js';
import { createImageStep, readImageIndex } from '../images/images-step.js';
import { refreshStoredImages } from '../images/images-refresh.js';
import { schemaFailure, serviceDataOf } from '../entries/entry-schema.js';
import { settleFailures, settleRemovals } from './sync-settle.js';

/**
 * One build of `articlesLoader`, in its steps: list (sync-list), read the free signals (sync-signals),
 * plan (sync-plan, pure), apply the plan (sync-apply), settle its failures and removals (sync-settle),
 * reconcile the entries that stay (sync-reconcile), and tell the user what needs telling (sync-report,
 * sync-notices). This module only wires them together.
 */

function refreshFromContext(data: Record<string, unknown> | undefined): 'force' | undefined {
  const ours = data?.['astro-content-publisher'];
  return typeof ours === 'object' && ours !== null && (ours as { refresh?: unknown }).refresh === 'force'
    ? 'force'
    : undefined;
}

/** The held updated_at of entries whose state has no sitemap lastmod: the only baseline for a later lastmod. */
function heldUpdatedAt(ctx: LoaderContext, state: SyncState, storedIds: string[]): Map<string, number> {
  const held = new Map<string, number>();
  for (const id of storedIds) {
    if (!state.entries[id] || state.entries[id].lastmod !== undefined) continue;
    // The article's own field: a theme's schema may rename or drop `updatedAt` in the entry's data.
    const value = serviceDataOf(ctx.store.get(id))?.updatedAt;
    const time = value instanceof Date ? value.getTime() : toDate(value)?.getTime();
    if (time !== undefined && Number.isFinite(time)) held.set(id, time);
  }
  return held;
}

/**
 * What is pending in a build that kept the store without listing: the stored entries that wait for a detail call
 * (built from the feed), and the articles the last build that listed left unstored.
 */
function keptPending(ids: readonly string[], state: SyncState): { stored: number; unstored: number } {
  const { incomplete, partial } = storedAwaitingDetail(ids, state);
  return { stored: incomplete.length + partial.length, unstored: state.pendingUnstored ?? 0 };
}

/** One build of `articlesLoader`: list, free signals, plan, fetch within the budget, store, one log line. */
export async function runArticlesSync(
  ctx: LoaderContext,
  opts: ResolvedArticlesLoaderOptions,
  key: string,
  /** The store was copied from the other command's (store-seed.ts): every entry goes through the schema again. */
  seeded = false,
): Promise<void> {
  const { store, meta, logger } = ctx;
  const warn = makeWarn(logger, opts.strict);
  const metaKey = `${key}:state`;
  const { state: previous, found } = readState(meta.get(metaKey));
  const state: SyncState = structuredClone(previous);
  const fingerprint = loaderFingerprint({ siteId: opts.siteId, sanitize: opts.sanitize });
  const refresh = refreshFromContext(ctx.refreshContextData) ?? opts.refresh;
  const clients = createLoaderClients(
    {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      maxRequests: opts.budget.maxRequests,
      timeoutMs: opts.timeoutMs,
      allowInsecureHttp: opts.allowInsecureHttp,
    },
    logger,
  );
  const site = `site ${opts.siteId}`;
  const say = (notice: Notice | undefined) => {
    if (notice?.level === 'info') logger.info(notice.message);
    else if (notice) warn(notice.message);
  };
  const cacheDir: URL | undefined = ctx.config?.cacheDir;
  const images = await createImageStep(ctx, opts.images, readImageIndex(meta.get(`${key}:images`)));
  // The stored entries against the image step (and, `reparse`, through the schema again), but those in `skip`.
  const refreshStored = (skip: ReadonlySet<string>, reparse: boolean) =>
    refreshStoredImages(ctx, images, (data, html) => pageDigest(ctx, data, html), skip, reparse);
  // Without a request: a build that keeps what is stored still shows it through this content config's schema.
  const keepStored = async () => {
    if (!seeded) return;
    const refused = await refreshStored(new Set(), true);
    if (refused.length) throw schemaFailure(site, refused);
  };

  // The loaders before this one (same key, this build) may have left nothing above the reserve: then even
  // the list call would eat into it. Keep what is stored.
  // What the builds before this one saw of the window (a new process knows nothing of it yet).
  const restored = restoreWindow(cacheDir, opts.baseUrl, opts.apiKey);
  if (availableBeforeStart(opts.baseUrl, opts.apiKey, opts.budget.reserve) === 0) {
    const held = store.keys().length;
    const remaining = knownRemaining(opts.baseUrl, opts.apiKey);
    warn(reserveReachedLine({ site, held, found, reserve: opts.budget.reserve, restored, remaining }));
    logger.info(keptLine(held, 0, remaining, keptPending(store.keys(), state)));
    reportUndoneToWatch(site, `the hourly reserve (${opts.budget.reserve}) was reached before the list call`, 'kept');
    return keepStored();
  }
  // State of ids that the store no longer holds (Astro cleared it) is forgotten: those are new again.
  for (const id of Object.keys(state.entries)) if (!store.has(id)) delete state.entries[id];
  const storedIds = store.keys();

  // The free signals travel while the list call runs.
  const sitemapReadAt = Date.now();
  const pendingSignals = startFreeSignals(
    clients,
    opts.siteId,
    state,
    // Entries to re-render need the feed's content, and so do slugs waiting to be built from their copy.
    state.feedWanted === true ||
      state.elsewhereNew !== undefined ||
      storedIds.some((id) => state.entries[id]?.fingerprint !== fingerprint),
    opts.language,
  );
  // What this build saw of the hourly window, for the data loaders running beside it (rate-window.ts).
  const shareWindow = () => {
    recordRemaining(opts.baseUrl, opts.apiKey, clients.rateLimit());
    saveWindow(cacheDir, opts.baseUrl, opts.apiKey);
  };

  let listed: ListedArticles;
  // Details other loaders ask for from now on are as new as this list (detail-exchange.ts).
  const listedSince = Date.now();
  try {
    listed = await listArticles(clients, opts);
  } catch (error) {
    shareWindow();
    await pendingSignals;
    // Never synced: nothing stale to serve, so the client's own error is the clearest outcome. A collection
    // that an earlier build left empty (a language without articles yet) stays empty, as an outage keeps any other.
    if ((storedIds.length === 0 && !found) || !isTransient(error)) throw error;
    warn(
      `Could not list the articles of ${site}: ${describeError(error)} ${storedIds.length ? `Kept the ${storedIds.length} stored articles as they were` : 'The collection stays empty, as the last build left it'}; the next build tries again.`,
      error,
    );
    logger.info(keptLine(storedIds.length, clients.requests(), clients.remaining(), keptPending(storedIds, state)));
    reportUndoneToWatch(site, `could not list the articles: ${describeError(error)}`, 'kept');
    return keepStored();
  }
  shareWindow();
  const signals: FreeSignals = await readFreeSignals(pendingSignals, state, site, warn);
  if (listed.nextOffset !== undefined) {
    listed = await followPagesForNews(clients, opts, listed, {
      state,
      sitemapSlugs: signals.sitemapSlugs,
      stored: (slug) => store.has(slug),
      affordable: detailSlots({
        maxRequests: opts.budget.maxRequests,
        reserve: opts.budget.reserve,
        spent: clients.requests(),
        remaining: clients.remaining(),
        waiting: waitingBehind(opts.baseUrl, opts.apiKey),
      }),
    });
    shareWindow();
  }
  const { items, repeated } = listed;
  say(rememberedNotice(state, 'rejected', rejectedNotice(listed, site), Date.now(), opts.strict));
  say(rememberedNotice(state, 'repeated', repeatedNotice(listed, site), Date.now(), opts.strict));
  say(
    rememberedNotice(
      state,
      'status',
      statusNotice(listed.dropped, site, statusesOf(opts.status)),
      Date.now(),
      opts.strict,
    ),
  );
  say(
    rememberedNotice(state, 'language', languageNotice(listed.dropped, site, opts.language), Date.now(), opts.strict),
  );
  const reset = saidOnce(state, 'reset', resetFormNotice(clients.rateLimit()?.resetForm, site), Date.now());
  say(reset && firstInProcess(`reset\n${opts.baseUrl}\n${reset.key}`) ? reset : undefined);
  if (listed.dropped.beyondLimit > 0)
    logger.info(
      `The list of ${site} sent ${listed.dropped.beyondLimit} article(s) more than \`limit\` (${opts.limit}) asked for: only the first ${opts.limit} are built.`,
    );
  // A feed item is this entry's copy only when its URL is not another language's (evidence.ts): one slug's only
  // item may be another language's article of the same slug.
  for (const [slug, { item }] of signals.rss)
    if (!urlMayBeOf(item.link ?? item.guid, opts.language ?? items.get(slug)?.language)) signals.rss.delete(slug);

  const slots = detailSlots({
    maxRequests: opts.budget.maxRequests,
    reserve: opts.budget.reserve,
    spent: clients.requests(),
    remaining: clients.remaining(),
    waiting: waitingBehind(opts.baseUrl, opts.apiKey),
  });
  logger.debug(
    `budget: min(maxRequests ${opts.budget.maxRequests}, X-RateLimit-Remaining ${clients.remaining() ?? 'unknown'} - reserve ${opts.budget.reserve}); ${clients.requests()} spent on the list call, ${slots} detail calls allowed`,
  );
  const now = Date.now();
  const mayBeCapped = listMayBeCapped(listed.listed.length, opts.limit);
  // The list's items of another language or status: the list proved what they are, the sitemap cannot.
  const knownOthers = new Set(
    [...listed.dropped.otherLanguage, ...listed.dropped.otherStatus].map((item) => item.slug),
  );
  // Articles only the sitemap shows (published: the sitemap is public) are loaded by their detail, which proves
  // their language and status: one whose detail gave no article of this loader waits for its retry (unanswered.ts).
  const sitemapOnly =
    mayBeCapped && signals.sitemapSlugs
      ? [...signals.sitemapSlugs].filter(
          (slug) =>
            !items.has(slug) &&
            !store.has(slug) &&
            !repeated.includes(slug) &&
            !knownOthers.has(slug) &&
            unansweredDue(state, slug, now, signals.sitemapChanged),
        )
      : [];
  const limit = clients.rateLimit()?.limit ?? opts.budget.maxRequests;
  // The key's revalidations of the last hour, by every loader on it (revalidation-log.ts), else this one's.
  const recent = sharedRevalidations(cacheDir, opts.baseUrl, opts.apiKey, now) ?? state.revalidated ?? [];
  const plan = planSync({
    listed: [...items.values()].map((item) => ({ slug: item.slug, listDigest: listDigest(item) })),
    elsewhereNew: state.elsewhereNew,
    unanswered: state.unanswered,
    stored: new Map(storedIds.map((id) => [id, state.entries[id]])),
    hadState: found,
    ...(signals.sitemap ? { sitemap: signals.sitemap } : {}),
    heldUpdatedAt: heldUpdatedAt(ctx, state, storedIds),
    listMayBeCapped: mayBeCapped,
    sitemapOnly,
    sitemapOnlyProbed: opts.language !== undefined,
    ...(signals.sitemapSlugs ? { sitemapSlugs: signals.sitemapSlugs } : {}),
    sitemapChanged: signals.sitemapChanged,
    rss: new Map([...signals.rss].map(([slug, value]) => [slug, value.signal])),
    fingerprint,
    refresh,
    slots,
    now,
    revalidateAfterMs: opts.revalidateAfterHours === false ? false : opts.revalidateAfterHours * 3_600_000,
    revalidateSlots: revalidationSlots(limit, recent, now),
    allowMassRemoval: opts.allowMassRemoval,
  });
  warnAboutMassRemoval(plan, site, warn);
  say(rememberedNotice(state, 'withheld', withheldNotice(plan, site), now, opts.strict));

  const progress = startProgress({
    total: plan.fetch.length,
    info: (line) => logger.info(line),
    images: () => images.downloads(),
  });
  const apply: ApplyInput = {
    ctx,
    opts,
    clients,
    state,
    items,
    signals,
    fingerprint,
    images,
    onFetched: progress.done,
    spareDetails: slots - plan.fetch.filter((f) => f.via === 'detail').length,
    listedSince,
    roundSince: roundStartedAt(opts.baseUrl, opts.apiKey) ?? listedSince,
  };
  const outcome = await applyFetches(apply, plan).finally(progress.stop);
  const goneSlugs = settleFailures(apply, plan, outcome, now);
  const removals = settleRemovals(apply, plan, goneSlugs, now);
  reconcileListed(ctx, state, items, signals, {
    fetch: plan.fetch,
    pending: [...plan.pending, ...outcome.skipped.map((slug) => ({ slug, reason: 'changed' as const }))],
  });
  const unsent = new Set(outcome.unsent);
  const revalidatedNow = plan.fetch
    .filter(
      (f) =>
        f.via === 'detail' && ['revalidate', 'elsewhere', 'probe', 'confirm'].includes(f.reason) && !unsent.has(f.slug),
    )
    .map(() => now);
  state.revalidated = [...(state.revalidated ?? []).filter((t) => now - t < 3_600_000), ...revalidatedNow];
  recordRevalidations(cacheDir, opts.baseUrl, opts.apiKey, [...recent, ...revalidatedNow], now);

  markUnlisted(state.entries, (slug) => items.has(slug), now);
  // Said after the fetches: a detail that answered an article only the sitemap shows proves the list cut short.
  const capped = rememberedNotice(
    state,
    'capped',
    cappedNotice(plan, site, {
      cut: listShownCut({
        paged: listed.nextOffset !== undefined,
        unlisted: store
          .keys()
          .filter((id) => !items.has(id) && signals.sitemapSlugs?.has(id))
          .map((id) => state.entries[id]?.unlistedSince),
        sitemapReadAt,
      }),
      paged: listed.nextOffset !== undefined,
      sitemapOnly,
      pending: new Set([...plan.pending.map((p) => p.slug), ...outcome.failures.map((f) => f.slug)]),
      stored: storedIds.length,
    }),
    now,
    opts.strict,
  );

  const unstored = new Set(
    [
      ...plan.pending.filter((p) => p.reason !== 'probe'),
      ...outcome.failures,
      ...outcome.unsent.map((slug) => ({ slug })),
    ]
      .map((p) => p.slug)
      .filter((slug) => !store.has(slug)),
  ).size;
  if (unstored) state.pendingUnstored = unstored;
  else delete state.pendingUnstored;
  // Only what this build wrote is current: a planned fetch that failed, or a retry answered in another language,
  // left its entry as it was (its images too).
  const refusedOnRefresh = await refreshStored(outcome.touched, seeded);
  shareWindow();
  meta.set(metaKey, JSON.stringify(state));
  meta.set(`${key}:images`, JSON.stringify(images.index()));
  reportSync({
    ctx,
    state,
    site,
    language: opts.language,
    plan,
    outcome,
    removed: removals.remove,
    clients,
    storedAtStart: storedIds.length,
    images,
    capped,
    say,
    warn,
  });
  // Last, once everything else is stored and the state kept: a refusal by the schema is not a passing fault.
  const refused = [...outcome.refused, ...refusedOnRefresh];
  if (refused.length) throw schemaFailure(site, refused, outcome.unsent.length);
}
