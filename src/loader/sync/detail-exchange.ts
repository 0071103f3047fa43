// The details one build's loaders asked for, shared between them. API.md shows no language parameter on the detail
// endpoint: a service that ignores `?language=` answers every loader that asks for a shared slug (one loader per
// language) the same article, the slug's oldest. A cold build of 8 such slugs in two languages
// sent 16 detail calls for 8 answers. Through this exchange a loader learns what another loader of the same
// service, key and site got (or is getting) instead of asking again:
//
// - an answer in another language than the loader's, asked for in the same round of loaders (ledger.ts: one
//   build, one refresh under `astro dev`): refused without a request; the article comes from its feed item,
//   read now;
// - an answer in the loader's own language that the loader which asked refused (it was in another language than
//   that one's), in the same round: taken, whichever loader's turn came first (Astro starts the loaders in no
//   fixed order: CI saw the fr loader ask first, and the en loader then asked again for the answer fr had
//   refused). Only such answers keep their body once answered; the others keep only the language and a hash of
//   the content (10,000 articles are not held in memory for the rest of the build);
// - a call still in flight, sent after this loader's list call or in its round, in its own language: its answer
//   is taken. An answer in the loader's own language from an earlier round could predate an edit its list
//   shows: the loader asks for itself.
//
// Only an answer that shows the service ignored the language asked for (or to a call for the same language) is
// shared: a service that honours `?language=` answers each language's call with its own article (`answers`).
//
// An answer taken from the same round is as current as the build's other answers: an edit made between two
// loaders' turns is one made during the build, and the next build sees it (the stored hash differs from the
// feed's). A failed call is not shared: whoever waited on it asks for itself.
import type { ArticleDetail } from '../../client/index.js';
import { shortHash } from '../state/fingerprint.js';
import { processRecord } from '../process/process-record.js';

type Asked =
  | { at: number; pending: Promise<ArticleDetail> }
  | { at: number; language: string | undefined; contentHash: string; refused?: ArticleDetail };

/** Answers are kept this long at most: one build's loaders run together. */
const KEEP_MS = 10 * 60_000;
// One record per process (processRecord): the loaders of one content config may come from two copies of the
// package. Per slug, the calls by the language they asked for ('' without one).
function exchange(): Map<string, Map<string, Asked>> {
  return processRecord('detail-exchange', () => new Map<string, Map<string, Asked>>());
}

export interface DetailRequest {
  baseUrl: string;
  apiKey: string;
  siteId: number;
  slug: string;
  /** The loader's language, if it loads one (the detail is asked with `?language=`). */
  language: string | undefined;
  /** When the loader's list call was sent. */
  listedSince: number;
  /** When the round of loaders it belongs to began (ledger.ts `roundStartedAt`). */
  roundSince: number;
}

/** The detail, or what another loader's answer showed: the article of the slug is in another language. */
export type ExchangedDetail = { detail: ArticleDetail } | { elsewhere: string; contentHash: string };

/**
 * Does an answer to a call that asked for `asked` tell what a call asking for `mine` gets? When both asked the
 * same; and when the answer is in another language than it asked for: the service ignored `?language=` for this
 * slug, so any call gets that answer. An answer in the language asked for tells nothing about another
 * language's call (a service that honours `?language=` answers each in its own: found by a trial on a real
 * multilingual theme, where the fr loader took the en loader's answer as its own and refused it).
 */
function answers(asked: string, answered: string | undefined, mine: string): boolean {
  return asked === mine || (asked !== '' && answered !== undefined && answered !== '' && answered !== asked);
}

/** The detail of `request.slug`: from another loader where the rules above allow, else `ask()`'s, shared. */
export async function exchangedDetail(
  request: DetailRequest,
  ask: () => Promise<ArticleDetail>,
): Promise<ExchangedDetail> {
  const map = exchange();
  const id = `${request.baseUrl}\n${shortHash(request.apiKey)}\n${request.siteId}\n${request.slug}`;
  const mine = request.language ?? '';
  const elsewhere = (language: string | undefined): language is string =>
    request.language !== undefined && language !== undefined && language !== '' && language !== request.language;
  const calls = map.get(id) ?? new Map<string, Asked>();
  // This language's own call first, then the others'.
  const known = [...calls].sort(([a], [b]) => Number(b === mine) - Number(a === mine));
  for (const [asked, call] of known) {
    if (call.at < Math.min(request.listedSince, request.roundSince)) continue;
    const sameRound = call.at >= request.roundSince;
    if (!('pending' in call)) {
      if (!answers(asked, call.language, mine)) continue;
      if (elsewhere(call.language)) return { elsewhere: call.language, contentHash: call.contentHash };
      if (call.refused !== undefined && sameRound) {
        // Taken once: the body is let go.
        calls.set(asked, { at: call.at, language: call.language, contentHash: call.contentHash });
        return { detail: call.refused };
      }
    } else {
      try {
        const detail = await call.pending;
        if (!answers(asked, detail.language, mine)) continue;
        if (elsewhere(detail.language)) return { elsewhere: detail.language, contentHash: shortHash(detail.content) };
        if (call.at >= request.listedSince || sameRound) return { detail };
      } catch {
        // Its call failed (the other loader's budget, a timeout): this loader asks for itself.
      }
    }
  }
  const at = Date.now();
  const pending = ask();
  for (const [other, asked] of map) {
    for (const [language, call] of asked) if (call.at < at - KEEP_MS) asked.delete(language);
    if (asked.size === 0) map.delete(other);
  }
  calls.set(mine, { at, pending });
  map.set(id, calls);
  const current = () => {
    const call = calls.get(mine);
    return call !== undefined && 'pending' in call && call.pending === pending;
  };
  pending.then(
    (detail) => {
      if (!current()) return;
      const contentHash = shortHash(detail.content);
      // An answer this loader refuses is the article another loader of the site (its language's) needs.
      const refused = elsewhere(detail.language) ? { refused: detail } : {};
      calls.set(mine, { at, language: detail.language, contentHash, ...refused });
    },
    () => {
      if (current()) calls.delete(mine);
    },
  );
  return { detail: await pending };
}
