import { NetworkError, type ArticleListItem } from '../client/index.js';
import { EntrySchemaError, serviceDataOf } from './entry-schema.js';
import { DETAIL_CONCURRENCY, type LoaderClients } from './clients.js';
import { createDetailGate } from './detail-gate.js';
import { exchangedDetail } from './detail-exchange.js';
import { dataFromDetail, dataFromRss, listItemOf } from './entries.js';
import { shortHash } from './fingerprint.js';
import type { SyncState } from './state.js';
import { storeEntry, type EntryTarget } from './store-entry.js';
import type { FreeSignals } from './sync-signals.js';
import { listDigest } from './sync-list.js';
import type { PlannedFetch, SyncPlan } from './sync-plan.js';

/**
 * Step 4 of a build: carry out the plan. Fetches (detail calls, or the feed's copy), sanitises, stores, and
 * removes what the plan says is gone. The only step that writes entries; `storeEntry` (store-entry.ts) is the
 * one place an entry is written from the service's content.
 */

export interface ApplyInput extends EntryTarget {
  clients: LoaderClients;
  items: Map<string, ArticleListItem>;
  signals: FreeSignals;
  fingerprint: string;
  /** slug -> hash of the detail content fetched in this build (filled by the detail calls). */
  fetchedHashes?: Map<string, string>;
  /** Called once per planned fetch when it is through (stored, skipped or failed): the build's progress. */
  onFetched?: () => void;
  /**
   * Detail calls the budget still allows beyond the plan's: each may resend one detail whose connection broke
   * before the service answered (see applyFetches).
   * @default 0
   */
  spareDetails?: number;
  /**
   * When the loader's list call was sent: a detail another loader asked for since then is taken instead of asking
   * again (detail-exchange.ts). Without it, every detail is asked for.
   */
  listedSince?: number;
  /** When the round of loaders this one runs in began (ledger.ts): its answers in another language are taken too. */
  roundSince?: number;
}

export interface ApplyOutcome {
  added: number;
  changed: number;
  /** Fetches that failed: the previous version (if any) is kept. */
  failures: Array<{ slug: string; error: unknown }>;
  /** Feed copies not used because nothing showed the feed carries whole articles: they wait for a detail call. */
  skipped: string[];
  /** Articles stored from the feed's copy after their detail call failed (new) or was refused (another language's). */
  fellBack: string[];
  /** Articles the collection's schema refused: not stored (the previous version stays), and the build fails. */
  refused: EntrySchemaError[];
  /** Planned detail calls not sent because the schema had refused an article (detail-gate.ts): pending. */
  unsent: string[];
  /** Slugs added or changed (to a reader) by this build. */
  touched: Set<string>;
}

/**
 * Does the feed carry whole articles? Only evidence counts: an article whose feed copy is the very HTML a
 * detail call gave (held from an earlier build, or fetched in this one). A feed of teasers never matches.
 */
export function feedIsWhole(
  state: SyncState,
  signals: FreeSignals,
  fetched: ReadonlyMap<string, string> = new Map(),
): boolean {
  for (const hash of fetched.values()) if (signals.rssHashes.has(hash)) return true;
  for (const [slug, { signal }] of signals.rss) {
    if (signal.contentHash === undefined) continue;
    const held = state.entries[slug];
    if (held && !held.partial && held.checkedAt > 0 && held.contentHash === signal.contentHash) return true;
  }
  return false;
}

/** The detail call answered another language's article of the same slug. */
export class LanguageMismatchError extends Error {
  override name = 'LanguageMismatchError';
}

function optional<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

async function fromDetail(
  input: ApplyInput,
  action: PlannedFetch,
  answered: () => void,
): Promise<'added' | 'changed' | 'same'> {
  const { clients, opts, state, items, signals, fingerprint } = input;
  // Another loader of the site may have asked already (one loader per language: the same slug, the same answer).
  const answer = await exchangedDetail(
    {
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      siteId: opts.siteId,
      slug: action.slug,
      language: opts.language,
      listedSince: input.listedSince ?? Number.POSITIVE_INFINITY,
      roundSince: input.roundSince ?? Number.POSITIVE_INFINITY,
    },
    () => clients.detail.article(opts.siteId, action.slug),
  );
  answered();
  // Any detail is evidence about the feed, even one that is not stored (another language's).
  input.fetchedHashes?.set(action.slug, 'detail' in answer ? shortHash(answer.detail.content) : answer.contentHash);
  const language = 'detail' in answer ? answer.detail.language : answer.elsewhere;
  if (!('detail' in answer) || (opts.language && language && language !== opts.language)) {
    // Same slug in several languages: the detail endpoint has no language parameter and sent another one.
    throw new LanguageMismatchError(
      `the service's detail of "${action.slug}" is in "${language}", not "${opts.language}": the slug exists in several languages and the detail call cannot ask for one. Give each language its own slug on the service (or load that language without \`language\`); the entry was not stored, so no other language's body is shown under it.`,
    );
  }
  const { detail } = answer;
  const item = items.get(action.slug) ?? listItemOf(detail);
  const lastmod = signals.sitemap?.get(action.slug);
  const rssHash = signals.rss.get(action.slug)?.signal.contentHash ?? state.entries[action.slug]?.rssHash;
  return storeEntry(input, action.slug, dataFromDetail(item, detail), detail.content, {
    listDigest: listDigest(item),
    ...optional('lastmod', lastmod),
    contentHash: shortHash(detail.content),
    ...optional('rssHash', rssHash),
    checkedAt: Date.now(),
    fingerprint,
    // Answered while the list lacks it: published, so the list is cut short (list-evidence.ts).
    ...(items.has(action.slug) ? {} : { unlistedSince: 0 }),
  });
}

async function fromRss(input: ApplyInput, action: PlannedFetch): Promise<'added' | 'changed' | 'same'> {
  const { ctx, state, items, signals, fingerprint } = input;
  const item = items.get(action.slug)!;
  const feedItem = signals.rss.get(action.slug)!;
  const before = ctx.store.get(action.slug);
  const prevState = state.entries[action.slug];
  const lastmod = signals.sitemap?.get(action.slug);
  return storeEntry(
    input,
    action.slug,
    // The article's fields as the schema saw them, not the schema's output (which a transform may reshape).
    // An edit the feed carries: the meta description held was written for the previous text.
    dataFromRss(
      item,
      feedItem.item,
      serviceDataOf(before),
      lastmod,
      prevState !== undefined && prevState.contentHash !== feedItem.signal.contentHash,
    ),
    feedItem.item.contentEncoded ?? '',
    {
      listDigest: listDigest(item),
      ...optional('lastmod', lastmod ?? prevState?.lastmod),
      contentHash: feedItem.signal.contentHash!,
      rssHash: feedItem.signal.contentHash!,
      checkedAt: prevState?.checkedAt ?? 0,
      fingerprint,
      // Without a previous detail, fields the feed lacks (the featured image; keywords without categories) are still missing.
      partial: before ? (prevState?.partial ?? false) : true,
      ...(prevState?.detailElsewhere ? { detailElsewhere: true } : {}),
      ...(prevState?.retriedAt !== undefined ? { retriedAt: prevState.retriedAt } : {}),
      ...(prevState?.retriesElsewhere !== undefined ? { retriesElsewhere: prevState.retriesElsewhere } : {}),
    },
  );
}

/** Removes what the plan says is gone. */
export function applyRemovals(input: ApplyInput, remove: readonly string[]): void {
  for (const id of remove) {
    input.ctx.store.delete(id);
    delete input.state.entries[id];
  }
}

/**
 * Runs the plan's fetches (their number was bounded by the budget beforehand): the detail calls side by side
 * first, then the feed copies, which are used only when they are known to be whole articles (an exact match
 * for a re-render; else evidence that the feed carries whole articles). A new article whose detail call
 * failed, or whose detail answered another language, falls back to its feed copy under the same rule.
 */
export async function applyFetches(input: ApplyInput, plan: Pick<SyncPlan, 'fetch'>): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = {
    added: 0,
    changed: 0,
    failures: [],
    skipped: [],
    fellBack: [],
    refused: [],
    unsent: [],
    touched: new Set(),
  };
  const fetchedHashes = (input.fetchedHashes ??= new Map());
  const count = (slug: string, result: 'added' | 'changed' | 'same') => {
    if (result === 'added') outcome.added += 1;
    else if (result === 'changed') outcome.changed += 1;
    if (result !== 'same') outcome.touched.add(slug);
  };
  const failedNew: PlannedFetch[] = [];
  const failedNewSlugs = () => new Set(failedNew.map((f) => f.slug));
  const details = plan.fetch.filter((a) => a.via === 'detail');
  // A detail whose connection broke before any answer (the service may never have seen it) is sent once more
  // while the budget has a request to spare; one the service began answering is not (it was served). A build
  // busy for longer than the service keeps an idle connection open (10,000 articles on a loaded machine) may
  // send its next request on a connection the service has closed: it fails without an answer, and the article
  // would reach the pages one build late. Without a spare request it stays pending, and the warning names it.
  let spare = Math.max(0, input.spareDetails ?? 0);
  // No detail goes out once the schema refused an article: the build fails on it anyway (detail-gate.ts).
  const gate = createDetailGate(DETAIL_CONCURRENCY);
  const resend = (error: unknown) => {
    if (gate.closed || spare <= 0 || !(error instanceof NetworkError) || error.answered) return false;
    spare -= 1;
    return true;
  };
  await Promise.all(
    details.map(async (action) => {
      const pass = await gate.enter();
      if (!pass) {
        outcome.unsent.push(action.slug);
        input.onFetched?.();
        return;
      }
      let through: 'passed' | 'refused' | 'failed' = 'failed';
      try {
        try {
          count(action.slug, await fromDetail(input, action, pass.answered));
        } catch (error) {
          if (!resend(error)) throw error;
          count(action.slug, await fromDetail(input, action, pass.answered));
        }
        through = 'passed';
      } catch (error) {
        // Not a fault of the service: the feed's copy of the same article would be refused alike.
        if (error instanceof EntrySchemaError) {
          through = 'refused';
          outcome.refused.push(error);
          return;
        }
        // A retry of an entry that lives on its feed copy, answered in the other language again: the held copy
        // stays as it is (still incomplete, counted pending), and the next retry waits its turn. So does a change
        // of such an entry (planSync holds it until then), whose feed copy is tried below.
        const held = input.state.entries[action.slug];
        if (
          error instanceof LanguageMismatchError &&
          held &&
          (action.reason === 'elsewhere' || held.detailElsewhere === true)
        ) {
          held.retriedAt = Date.now();
          held.retriesElsewhere = (held.retriesElsewhere ?? 0) + 1;
          if (action.reason === 'elsewhere') return;
        }
        outcome.failures.push({ slug: action.slug, error });
        // A refused detail (another language's) of a held entry has only the feed to go to, like a new one. A
        // retry of a slug never stored has no feed copy either: only the failure, named as the first time; its
        // next retry waits longer (rememberElsewhereNew).
        const elsewhere = error instanceof LanguageMismatchError && action.reason !== 'elsewhere';
        if (action.reason === 'new' || elsewhere) failedNew.push(action);
      } finally {
        pass.done(through);
        input.onFetched?.();
      }
    }),
  );
  const whole = feedIsWhole(input.state, input.signals, fetchedHashes);
  const fromFeed = [
    ...plan.fetch.filter((a) => a.via === 'rss'),
    ...failedNew
      .filter((a) => input.signals.rss.get(a.slug)?.signal.contentHash !== undefined)
      .map((a) => ({ ...a, via: 'rss' as const })),
  ];
  const fellBackCandidates = failedNewSlugs();
  for (const action of fromFeed) {
    if (!fellBackCandidates.has(action.slug)) input.onFetched?.(); // a fallback was counted with its detail
    const exact =
      input.signals.rss.get(action.slug)?.signal.contentHash === input.state.entries[action.slug]?.contentHash;
    if (!whole && !(action.reason === 'fingerprint' && exact)) {
      if (!fellBackCandidates.has(action.slug)) outcome.skipped.push(action.slug);
      continue;
    }
    try {
      count(action.slug, await fromRss(input, action));
      if (fellBackCandidates.has(action.slug)) {
        outcome.fellBack.push(action.slug);
        const refused = outcome.failures.find((f) => f.slug === action.slug)?.error instanceof LanguageMismatchError;
        const entryState = input.state.entries[action.slug];
        // Still `partial` when it had no detail before: the feed has no featured image nor keywords. The answer in
        // the other language counts as the first try: the next waits an hour (retryDelayMs), not the next build.
        if (refused && entryState)
          Object.assign(entryState, { detailElsewhere: true, retriedAt: Date.now(), retriesElsewhere: 1 });
        outcome.failures = outcome.failures.filter((f) => f.slug !== action.slug);
      }
    } catch (error) {
      if (error instanceof EntrySchemaError) {
        outcome.refused.push(error);
        outcome.failures = outcome.failures.filter((f) => f.slug !== action.slug);
        continue;
      }
      if (!outcome.failures.some((f) => f.slug === action.slug)) outcome.failures.push({ slug: action.slug, error });
    }
  }
  return outcome;
}
