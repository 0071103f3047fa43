/**
 * Moved articles (issue 38, item 1): when a rename is recognised (the same title and publication day under a
 * new slug, see sync-removals.ts), the old slug is remembered with the new one, so the blog can redirect the
 * old URL and point links at the new one. Pure, with unit tests; kept in the loader's state (`moved`).
 */

/** One remembered move: the slug the article has now, and when the move was seen (ms since epoch). */
export interface Move {
  to: string;
  at: number;
}

/** How long a move is remembered by default: a year, long enough for crawlers to follow it. */
export const MOVES_KEPT_DAYS = 365;

/**
 * The renames among a build's removals: a removed slug whose stored article had the identity (title and day)
 * of exactly one other article stored now. Two candidates are no rename anyone can tell: none is recorded. An
 * article stored while the removed one was still listed (`beside`) is another article of the same title and day,
 * never its new slug.
 */
export function renamesOf(
  removed: readonly string[],
  storedNow: readonly string[],
  identityOf: (slug: string) => string | undefined,
  beside: (from: string, to: string) => boolean = () => false,
): Array<{ from: string; to: string }> {
  const gone = new Set(removed);
  const removedIds = new Map<string, string>();
  for (const slug of removed) {
    const id = identityOf(slug);
    if (id !== undefined) removedIds.set(slug, id);
  }
  if (removedIds.size === 0) return [];
  const wanted = new Set(removedIds.values());
  const byId = new Map<string, string[]>();
  for (const slug of storedNow) {
    if (gone.has(slug)) continue;
    const id = identityOf(slug);
    if (id !== undefined && wanted.has(id)) byId.set(id, [...(byId.get(id) ?? []), slug]);
  }
  const renames: Array<{ from: string; to: string }> = [];
  for (const [from, id] of removedIds) {
    const candidates = (byId.get(id) ?? []).filter((to) => !beside(from, to));
    if (candidates.length === 1) renames.push({ from, to: candidates[0]! });
  }
  return renames;
}

/**
 * The state's `moved` after a build: the renames seen join (the time they were seen), chains collapse
 * (a->b then b->c gives a->c and b->c), and a move leaves when it is older than `keepMs`, when its old slug
 * is an article again (`present`: stored or listed), when its new slug is not stored (unpublished, or gone
 * without a move of its own: never a redirect to a page the blog does not serve), or when it would loop.
 */
export function nextMoves(
  previous: Readonly<Record<string, Move>> | undefined,
  renames: ReadonlyArray<{ from: string; to: string }>,
  now: number,
  keepMs: number,
  present: (slug: string) => boolean,
  stored: (slug: string) => boolean,
): Record<string, Move> | undefined {
  const next: Record<string, Move> = { ...previous };
  for (const { from, to } of renames) next[from] = { to, at: now };
  // Follow each chain to its end (a few steps: a chain is as long as an article's renames within keepMs).
  for (const from of Object.keys(next)) {
    let move = next[from]!;
    const seen = new Set([from]);
    while (next[move.to] !== undefined && !seen.has(move.to)) {
      seen.add(move.to);
      move = { to: next[move.to]!.to, at: Math.max(move.at, next[move.to]!.at) };
    }
    next[from] = move;
  }
  for (const [from, move] of Object.entries(next)) {
    const expired = now - move.at > keepMs;
    if (expired || move.to === from || present(from) || !stored(move.to)) delete next[from];
  }
  return Object.keys(next).length === 0 ? undefined : next;
}
