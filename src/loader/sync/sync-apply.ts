import { NetworkError, type ArticleListItem } from '../../client/index.js';
import { EntrySchemaError, serviceDataOf } from '../entries/entry-schema.js';
import { DETAIL_CONCURRENCY, type LoaderClients } from '../budget/clients.js';
import { createDetailGate } from './detail-gate.js';
import { exchangedDetail } from './detail-exchange.js';
import { dataFromDetail, dataFromRss, listItemOf } from '../entries/entries.js';
import { feedCopiesSeen, feedCopyProvenWhole, sameLanguage, statusesOf } from '../evidence/evidence.js';
import { shortHash } from '../state/fingerprint.js';
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
  /** Hashes of the detail HTML answered in this build, any language (filled by the detail calls): evidence about the feed. */
  answeredHashes?: Set<string>;
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
  /** Articles the collection's schema refused: not stored (the previous version stays), and the build fails. */
  refused: EntrySchemaError[];
  /** Planned detail calls not sent because the schema had refused an article (detail-gate.ts): pending. */
  unsent: string[];
  /** Slugs added or changed (to a reader) by this build. */
  touched: Set<string>;
  /** Details sent a second time after a connection broke before any answer (each one more request). */
  resent: number;
}

/** The detail call answered another language's article of the same slug. */
export class LanguageMismatchError extends Error {
  override name = 'LanguageMismatchError';
}

/** The detail answered an article of a status the loader does not build (the list said otherwise, or knew nothing). */
export class StatusMismatchError extends Error {
  override name = 'StatusMismatchError';
  constructor(
    message: string,
    /** The status the detail answered. */
    readonly status: string,
  ) {
    super(message);
  }
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
    () => clients.detail.article(opts.siteId, action.slug, { language: opts.language }),
  );
  answered();
  // Any detail is evidence about the feed, even one that is not stored (another language's).
  input.answeredHashes?.add('detail' in answer ? shortHash(answer.detail.content) : answer.contentHash);
  const language = 'detail' in answer ? answer.detail.language : answer.elsewhere;
  // The entry's language: the loader's, else the list item's (a list item proves its own language).
  const expected = opts.language ?? items.get(action.slug)?.language;
  if (!('detail' in answer) || (expected && language && !sameLanguage(language, expected))) {
    // Same slug in several languages: the detail endpoint sent another one, whatever `language` it was asked.
    throw new LanguageMismatchError(
      `the service's detail of "${action.slug}" is in "${language}", not "${expected}": the slug exists in several languages and the service's detail call answers another one (it was asked with ?language=${expected}). Give each language its own slug on the service; the entry was not stored, so no other language's body is shown under it.`,
    );
  }
  const status = answer.detail.status;
  if (status !== undefined && !statusesOf(opts.status).has(status)) {
    throw new StatusMismatchError(
      `the service's detail of "${action.slug}" has status "${status}", which this loader does not build: not stored (the list showed it as ${items.get(action.slug)?.status ?? 'unlisted'}); it is asked again in a later build.`,
      status,
    );
  }
  const { detail } = answer;
  const item = items.get(action.slug) ?? listItemOf(detail);
  const lastmod = signals.sitemap?.get(action.slug);
  const held = state.entries[action.slug];
  const rssHash = signals.rss.get(action.slug)?.signal.contentHash ?? held?.rssHash;
  // The feed copies seen before this detail are at most as new as it: another CDN edge serving one is no change.
  const rssSeen = feedCopiesSeen(held, rssHash);
  return storeEntry(input, action.slug, dataFromDetail(item, detail), detail.content, {
    listDigest: listDigest(item),
    ...optional('lastmod', lastmod),
    contentHash: shortHash(detail.content),
    ...optional('rssHash', rssHash),
    ...(rssSeen.length ? { rssSeen } : {}),
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
  // The copies held or seen before this one are at most as new: another CDN edge serving one is no change.
  const rssSeen = feedCopiesSeen(prevState, feedItem.signal.contentHash);
  const takenAt = feedItem.signal.takenAt;
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
      ...(rssSeen.length ? { rssSeen } : {}),
      ...(takenAt === undefined ? {} : { rssTakenAt: takenAt }),
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

/** What the feed and the details show of each other (evidence.ts feedCopyProvenWhole). */
function feedEvidence(input: ApplyInput) {
  const answered = new Set(input.answeredHashes);
  const own: Array<{ slug: string; feed: string; held: string }> = [];
  for (const [slug, held] of Object.entries(input.state.entries)) {
    if (!held.contentHash || held.checkedAt <= 0 || held.partial || held.detailElsewhere) continue;
    answered.add(held.contentHash);
    const feed = input.signals.rss.get(slug)?.signal.contentHash;
    // A copy seen before the held detail was fetched is an older one, not a cut one.
    if (feed !== undefined && !held.rssSeen?.includes(feed)) own.push({ slug, feed, held: held.contentHash });
  }
  return { copies: input.signals.rssHashes, answered, own };
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
 * first, then the feed copies, which are used only where they are the very HTML held (a re-render). A failed
 * detail leaves its entry as it was (or absent), pending: the feed's copy of an article is no evidence that it
 * is whole, of this language, or newer than what is held (evidence.ts).
 */
export async function applyFetches(input: ApplyInput, plan: Pick<SyncPlan, 'fetch'>): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = {
    added: 0,
    changed: 0,
    failures: [],
    skipped: [],
    refused: [],
    unsent: [],
    touched: new Set(),
    resent: 0,
  };
  const count = (slug: string, result: 'added' | 'changed' | 'same') => {
    if (result === 'added') outcome.added += 1;
    else if (result === 'changed') outcome.changed += 1;
    if (result !== 'same') outcome.touched.add(slug);
  };
  const details = plan.fetch.filter((a) => a.via === 'detail');
  // A detail whose connection broke before any answer (the service may never have seen it) is sent once more
  // while the budget has a request to spare; one the service began answering is not (it was served). A build
  // busy for longer than the service keeps an idle connection open (10,000 articles on a loaded machine) may
  // send its next request on a connection the service has closed: it fails without an answer, and the article
  // would reach the pages one build late. Without a spare request it stays pending, and the warning names it.
  let spare = Math.max(0, input.spareDetails ?? 0);
  // No detail goes out once the schema refused an article: the build fails on it anyway (detail-gate.ts).
  input.answeredHashes ??= new Set();
  const gate = createDetailGate(DETAIL_CONCURRENCY);
  const resend = (error: unknown) => {
    if (gate.closed || spare <= 0 || !(error instanceof NetworkError) || error.answered) return false;
    spare -= 1;
    outcome.resent += 1;
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
      } finally {
        pass.done(through);
        input.onFetched?.();
      }
    }),
  );
  // The feed's copies are content only where they are the very HTML held (a re-render under a new policy), or
  // for a listed slug whose detail answers another language (no detail can give this language's article) when
  // the feed is shown to carry whole articles (evidence.ts feedCopyProvenWhole).
  // Read once, when first needed: the copies used below are the held HTML (a re-render) or live on their feed
  // copy (detailElsewhere), so none of them changes what the evidence shows.
  let evidence: ReturnType<typeof feedEvidence> | undefined;
  const provenWhole = (slug: string) => {
    const copy = input.signals.rss.get(slug)?.item.contentEncoded;
    evidence ??= feedEvidence(input);
    // Its own held body, older than its copy, is the change itself: evidence comes from the other articles.
    const own = evidence.own.filter((held) => held.slug !== slug);
    return copy !== undefined && feedCopyProvenWhole({ ...evidence, own, copyLength: copy.length });
  };
  // A stored entry's retry answered in another language is no failure (above): these are never stored.
  const refused = outcome.failures
    .filter((f) => f.error instanceof LanguageMismatchError && input.items.has(f.slug))
    .map((f) => plan.fetch.find((a) => a.slug === f.slug)!);
  for (const action of [...plan.fetch.filter((a) => a.via === 'rss'), ...refused]) {
    if (action.via === 'rss') input.onFetched?.(); // a refused detail was counted already
    const held = input.state.entries[action.slug];
    const exact = input.signals.rss.get(action.slug)?.signal.contentHash === held?.contentHash;
    const elsewhere = action.via === 'detail' || action.reason === 'elsewhere' || held?.detailElsewhere === true;
    if (!(action.reason === 'fingerprint' && exact) && !(elsewhere && provenWhole(action.slug))) {
      if (action.via === 'rss') outcome.skipped.push(action.slug);
      continue;
    }
    try {
      count(action.slug, await fromRss(input, action));
      outcome.failures = outcome.failures.filter((f) => f.slug !== action.slug);
      const entryState = input.state.entries[action.slug];
      // Lives on its feed copy, without the detail-only fields (featured image, keywords unless the feed lists
      // them): pending, and its detail is retried after an hour, then 2, 4 ... (retryDelayMs), counted from the
      // detail's last answer in another language: this build's (a refused detail, one more retry) or an earlier's.
      const last = input.state.elsewhereNew?.[action.slug];
      if ((action.via === 'detail' || action.reason === 'elsewhere') && entryState)
        Object.assign(entryState, {
          detailElsewhere: true,
          retriedAt: action.via === 'rss' && last ? last.retriedAt : Date.now(),
          retriesElsewhere: action.via === 'detail' ? (last?.retries ?? 0) + 1 : (last?.retries ?? 1),
        });
    } catch (error) {
      if (error instanceof EntrySchemaError) outcome.refused.push(error);
      else if (!outcome.failures.some((f) => f.slug === action.slug))
        outcome.failures.push({ slug: action.slug, error });
    }
  }
  return outcome;
}
