// The details one build's loaders asked for, shared between them. The service's detail endpoint has no language
// parameter: with the same slug in several languages (one loader per language), each loader that needs the slug
// asks, and each gets the same answer, the slug's oldest article. A cold build of 8 such slugs in two languages
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
// An answer taken from the same round is as current as the build's other answers: an edit made between two
// loaders' turns is one made during the build, and the next build sees it (the stored hash differs from the
// feed's). A failed call is not shared: whoever waited on it asks for itself.
import type { ArticleDetail } from '../client/index.js';
import { shortHash } from './fingerprint.js';
import { processRecord } from './process-record.js';

type Asked =
  | { at: number; pending: Promise<ArticleDetail> }
  | { at: number; language: string | undefined; contentHash: string; refused?: ArticleDetail };

/** Answers are kept this long at most: one build's loaders run together. */
const KEEP_MS = 10 * 60_000;
// One record per process (processRecord): the loaders of one content config may come from two copies of the package.
function exchange(): Map<string, Asked> {
  return processRecord('detail-exchange', () => new Map<string, Asked>());
}

export interface DetailRequest {
  baseUrl: string;
  apiKey: string;
  siteId: number;
  slug: string;
  /** The loader's language, if it loads one. */
  language: string | undefined;
  /** When the loader's list call was sent. */
  listedSince: number;
  /** When the round of loaders it belongs to began (ledger.ts `roundStartedAt`). */
  roundSince: number;
}

/** The detail, or what another loader's answer showed: the article of the slug is in another language. */
export type ExchangedDetail = { detail: ArticleDetail } | { elsewhere: string; contentHash: string };

/** The detail of `request.slug`: from another loader where the rules above allow, else `ask()`'s, shared. */
export async function exchangedDetail(
  request: DetailRequest,
  ask: () => Promise<ArticleDetail>,
): Promise<ExchangedDetail> {
  const map = exchange();
  const id = `${request.baseUrl}\n${shortHash(request.apiKey)}\n${request.siteId}\n${request.slug}`;
  const elsewhere = (language: string | undefined): language is string =>
    request.language !== undefined && language !== undefined && language !== '' && language !== request.language;
  const known = map.get(id);
  if (known !== undefined && known.at >= Math.min(request.listedSince, request.roundSince)) {
    const sameRound = known.at >= request.roundSince;
    if (!('pending' in known)) {
      if (elsewhere(known.language)) return { elsewhere: known.language, contentHash: known.contentHash };
      if (known.refused !== undefined && sameRound) {
        // Taken once: the body is let go.
        map.set(id, { at: known.at, language: known.language, contentHash: known.contentHash });
        return { detail: known.refused };
      }
    } else {
      try {
        const detail = await known.pending;
        if (elsewhere(detail.language)) return { elsewhere: detail.language, contentHash: shortHash(detail.content) };
        if (known.at >= request.listedSince || sameRound) return { detail };
      } catch {
        // Its call failed (the other loader's budget, a timeout): this loader asks for itself.
      }
    }
  }
  const at = Date.now();
  const pending = ask();
  for (const [other, asked] of map) if (asked.at < at - KEEP_MS) map.delete(other);
  map.set(id, { at, pending });
  const mine = () => {
    const entry = map.get(id);
    return entry !== undefined && 'pending' in entry && entry.pending === pending;
  };
  pending.then(
    (detail) => {
      if (!mine()) return;
      const contentHash = shortHash(detail.content);
      // An answer this loader refuses is the article another loader of the site (its language's) needs.
      const refused = elsewhere(detail.language) ? { refused: detail } : {};
      map.set(id, { at, language: detail.language, contentHash, ...refused });
    },
    () => {
      if (mine()) map.delete(id);
    },
  );
  return { detail: await pending };
}
