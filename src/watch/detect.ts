/**
 * Pure change detection between what the feeds held at the last successful trigger and what they hold now.
 * No I/O, no clock: everything is decided from the two observations, so it is unit-tested exhaustively.
 */
import { createHash } from 'node:crypto';
import type { RssItem } from '../feeds/index.js';
import type { FeedItemRecord } from './state.js';

export type Change =
  | { kind: 'new-item'; guid: string; title?: string }
  | { kind: 'pubdate-changed'; guid: string; from?: string; to?: string }
  | { kind: 'content-changed'; guid: string }
  | { kind: 'item-removed'; guid: string }
  | { kind: 'sitemap-added'; loc: string }
  | { kind: 'sitemap-updated'; loc: string; from: string; to: string }
  | { kind: 'sitemap-removed'; loc: string };

/** An RSS item reduced to what the state keeps: identity, date and a digest of the content. */
export function toItemRecord(item: RssItem): FeedItemRecord | undefined {
  const guid = item.guid ?? item.link;
  if (!guid) return undefined;
  const digest = createHash('sha256')
    .update(JSON.stringify([item.title ?? '', item.link ?? '', item.description ?? '', item.contentEncoded ?? '']))
    .digest('hex');
  const record: FeedItemRecord = { guid, digest };
  if (item.pubDate !== undefined) record.pubDate = item.pubDate;
  if (item.title !== undefined) record.title = item.title;
  return record;
}

/**
 * Changes in the RSS feed. The feed holds only the N newest items, so an item that left it is a change
 * (unpublished) unless it aged out: it was at the old end of the feed, behind every item still there, and
 * the feed did not shrink (newer items pushed it out).
 */
export function detectRssChanges(previous: readonly FeedItemRecord[], current: readonly FeedItemRecord[]): Change[] {
  const changes: Change[] = [];
  const before = new Map(previous.map((item, index) => [item.guid, { item, index }]));
  const now = new Set(current.map((item) => item.guid));
  for (const item of current) {
    const old = before.get(item.guid);
    if (!old) {
      changes.push(
        item.title !== undefined
          ? { kind: 'new-item', guid: item.guid, title: item.title }
          : { kind: 'new-item', guid: item.guid },
      );
    } else if (old.item.pubDate !== item.pubDate) {
      changes.push({
        kind: 'pubdate-changed',
        guid: item.guid,
        ...(old.item.pubDate !== undefined && { from: old.item.pubDate }),
        ...(item.pubDate !== undefined && { to: item.pubDate }),
      });
    } else if (old.item.digest !== item.digest) {
      changes.push({ kind: 'content-changed', guid: item.guid });
    }
  }
  // Index (in the previous feed) of the oldest item that is still in the feed.
  let lastRetained = -1;
  previous.forEach((item, index) => {
    if (now.has(item.guid)) lastRetained = index;
  });
  const feedDidNotShrink = current.length >= previous.length;
  previous.forEach((item, index) => {
    if (now.has(item.guid)) return;
    const agedOut = feedDidNotShrink && index > lastRetained;
    if (!agedOut) changes.push({ kind: 'item-removed', guid: item.guid });
  });
  return changes;
}

function isNewer(to: string, from: string): boolean {
  const a = Date.parse(to);
  const b = Date.parse(from);
  if (Number.isNaN(a) || Number.isNaN(b)) return to !== from;
  return a > b;
}

/** Changes in the sitemap: an entry with a newer `lastmod` (an update of any article, even beyond the
 * feed's 50), a new entry, or an entry that left (unpublished: the sitemap lists every published article). */
export function detectSitemapChanges(
  previous: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
): Change[] {
  const changes: Change[] = [];
  for (const [loc, lastmod] of Object.entries(current)) {
    const old = previous[loc];
    if (old === undefined) changes.push({ kind: 'sitemap-added', loc });
    else if (lastmod !== '' && (old === '' || isNewer(lastmod, old)))
      changes.push({ kind: 'sitemap-updated', loc, from: old, to: lastmod });
  }
  for (const loc of Object.keys(previous)) {
    if (!(loc in current)) changes.push({ kind: 'sitemap-removed', loc });
  }
  return changes;
}

/** A feed that loses more than this share of what it held, at once, is suspect (the loader's rule too). */
export const SUSPECT_LOSS_SHARE = 0.5;

/**
 * Why a feed's new size looks like an upstream accident rather than unpublishing (an empty or mostly empty
 * feed from a broken deploy or cache), or undefined when it is plausible.
 */
export function suspectLoss(feed: string, before: number, after: number): string | undefined {
  if (before < 2 || before - after <= before * SUSPECT_LOSS_SHARE) return undefined;
  return `the ${feed} came back with ${after} entries where ${before} were seen`;
}

/**
 * How many articles the changes are about: the feed and the sitemap both see one edit (`content-changed` and
 * `sitemap-updated` of one URL), so a count of changes reads as two edits.
 */
export function changedArticles(changes: readonly Change[]): number {
  const key = (change: Change) => ('guid' in change ? change.guid : change.loc).replace(/\/+$/, '');
  return new Set(changes.map(key)).size;
}

/** One human line per change, for logs. */
export function describeChange(change: Change): string {
  switch (change.kind) {
    case 'new-item':
      return `new article in the feed: ${change.title ?? change.guid}`;
    case 'pubdate-changed':
      return `publication date changed: ${change.guid}`;
    case 'content-changed':
      return `content changed: ${change.guid}`;
    case 'item-removed':
      return `left the feed (unpublished): ${change.guid}`;
    case 'sitemap-added':
      return `new in the sitemap: ${change.loc}`;
    case 'sitemap-updated':
      return `updated (sitemap lastmod ${change.to}): ${change.loc}`;
    case 'sitemap-removed':
      return `left the sitemap: ${change.loc}`;
  }
}
