// The details one build's loaders asked for, shared between them. The service's detail endpoint has no language
// parameter: with the same slug in several languages (one loader per language), each loader that needs the slug
// asks, and each gets the same answer, the slug's oldest article. A cold build of 8 such slugs in two languages
// sent 16 detail calls for 8 answers. Through this exchange a loader takes what another loader of the same
// service, key and site got (or is getting) instead of asking again:
//
// - an answer asked for after this loader's list call, whatever its language: it is at least as new as what the
//   loader knows of the service;
// - an earlier answer of the same round of loaders (ledger.ts: one build, one refresh under `astro dev`) only when
//   it is in another language than the loader's: it is refused without a request, and the article comes from its
//   feed item, read now. An earlier answer in the loader's own language could predate an edit its list shows, and
//   the entry would keep the old text: the loader asks for itself.
//
// A failed call is not shared: whoever waited on it asks for itself.
import type { ArticleDetail } from '../client/index.js';
import { shortHash } from './fingerprint.js';

interface Asked {
  /** When the call was sent (ms since epoch). */
  at: number;
  answer: Promise<ArticleDetail>;
}

/** Answers are kept this long at most: one build's loaders run together. */
const KEEP_MS = 10 * 60_000;
// A global symbol: the loaders of one content config may come from two copies of the package in one process.
const EXCHANGE = Symbol.for('astro-content-publisher.detail-exchange');

function exchange(): Map<string, Asked> {
  const global = globalThis as Record<symbol, unknown>;
  if (!(global[EXCHANGE] instanceof Map)) global[EXCHANGE] = new Map<string, Asked>();
  return global[EXCHANGE] as Map<string, Asked>;
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

/** The detail of `request.slug`: another loader's answer where the rules above allow, else `ask()`'s, shared. */
export async function exchangedDetail(
  request: DetailRequest,
  ask: () => Promise<ArticleDetail>,
): Promise<ArticleDetail> {
  const map = exchange();
  const id = `${request.baseUrl}\n${shortHash(request.apiKey)}\n${request.siteId}\n${request.slug}`;
  const known = map.get(id);
  if (known !== undefined && known.at >= Math.min(request.listedSince, request.roundSince)) {
    try {
      const detail = await known.answer;
      const elsewhere = request.language !== undefined && detail.language && detail.language !== request.language;
      if (known.at >= request.listedSince || elsewhere) return detail;
    } catch {
      // Its call failed (the other loader's budget, a timeout): this loader asks for itself.
    }
  }
  const at = Date.now();
  const answer = ask();
  for (const [other, asked] of map) if (asked.at < at - KEEP_MS) map.delete(other);
  map.set(id, { at, answer });
  answer.catch(() => {
    if (map.get(id)?.answer === answer) map.delete(id);
  });
  return answer;
}
