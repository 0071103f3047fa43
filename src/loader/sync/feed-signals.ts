import type { Client } from '../../client/index.js';
import { parseRssFeed, parseSitemapEntries, slugFromArticleUrl, type RssItem } from '../../feeds/index.js';
import { isServiceArticlePath } from '../../html/article-links.js';
import type { RssSignal } from '../evidence/change-signals.js';
import { shortHash } from '../state/fingerprint.js';
import { withoutUndefined } from '../entries/records.js';
import { isStorableSlug } from '../entries/slugs.js';
import type { SyncState } from '../state/state.js';

/**
 * The free change signals: the public sitemap and RSS feed (no key, outside the rate limit), fetched with
 * conditional GETs whose validators are kept in the state. A failure here only costs precision, never content:
 * the caller warns and plans without that signal.
 */

export interface SitemapSignals {
  lastmods: Map<string, string>;
  /** Every article slug the sitemap lists (with or without a lastmod): the published articles. */
  slugs: Set<string>;
  /** What to keep in the state for the next conditional GET (undefined: keep nothing). */
  state: NonNullable<SyncState['sitemap']> | undefined;
  notModified: boolean;
}

/** Is this URL's path a service article's (`[/<lang>]/blog/<slug>/`), not one of the site's other pages? */
function isServiceArticleUrl(url: string): boolean {
  try {
    return isServiceArticlePath(new URL(url.trim()).pathname);
  } catch {
    return false;
  }
}

/** A two-letter language code, with or without a region (`fr`, `pt-BR`): how services prefix article paths. */
const LANGUAGE_SEGMENT = /^[a-z]{2}([-_][a-z0-9]{2,8})?$/i;

/**
 * Is this article URL another language's (`/fr/blog/slug/` for an `en` loader)? Only when a path segment
 * before the slug is a language code other than `language` and none is `language`: a URL without language
 * segments belongs to every loader.
 */
export function isOtherLanguageUrl(url: string, language: string | undefined): boolean {
  if (language === undefined) return false;
  let segments: string[];
  try {
    segments = new URL(url.trim()).pathname
      .split('/')
      .filter((s) => s !== '')
      .slice(0, -1)
      .map((s) => s.toLowerCase());
  } catch {
    return false;
  }
  const mine = language.toLowerCase();
  return !segments.includes(mine) && segments.some((s) => LANGUAGE_SEGMENT.test(s) && s !== mine);
}

/**
 * `language`: the loader's language filter. A sitemap URL in another language (same slug in several
 * languages) is not evidence that this language's article of the slug is published, so it is left out.
 */
export async function readSitemap(
  client: Client,
  siteId: number,
  previous: SyncState['sitemap'],
  language?: string,
): Promise<SitemapSignals> {
  const conditional =
    previous?.etag || previous?.lastModified ? { etag: previous.etag, lastModified: previous.lastModified } : undefined;
  const response = await client.sitemap(siteId, conditional && withoutUndefined(conditional));
  if (response.notModified) {
    const lastmods = previous?.lastmods ?? {};
    return {
      lastmods: new Map(Object.entries(lastmods)),
      slugs: new Set([...Object.keys(lastmods), ...(previous?.unstamped ?? [])]),
      state: previous,
      notModified: true,
    };
  }
  const lastmods: Record<string, string> = {};
  const unstamped: string[] = [];
  const entries = parseSitemapEntries(response.body, { url: response.url });
  // A sitemap of the whole site also lists its home, blog index and tag pages (`/blog/`, `/tags/<keyword>/`):
  // taken for articles, each cost a detail call (404) in every build and made the list look capped. When the
  // sitemap shows article URLs in the service's form, only those count; a service that publishes its articles
  // at other paths is read as before (the last path segment).
  const articleShaped = entries.filter((entry) => isServiceArticleUrl(entry.loc));
  for (const entry of articleShaped.length > 0 ? articleShaped : entries) {
    const slug = slugFromArticleUrl(entry.loc);
    if (slug === undefined || !isStorableSlug(slug) || isOtherLanguageUrl(entry.loc, language)) continue;
    if (entry.lastmod !== undefined) lastmods[slug] = entry.lastmod;
    else unstamped.push(slug);
  }
  return {
    lastmods: new Map(Object.entries(lastmods)),
    slugs: new Set([...Object.keys(lastmods), ...unstamped]),
    state: withoutUndefined({
      etag: response.etag,
      lastModified: response.lastModified,
      lastmods,
      unstamped: unstamped.length ? unstamped : undefined,
    }),
    notModified: false,
  };
}

export interface RssSignals {
  /** slug -> the feed's item and the hash of its content:encoded. Empty after a 304 (nothing new to use). */
  items: Map<string, { item: RssItem; signal: RssSignal }>;
  /** Hash -> length of every item's content:encoded, other languages' included (evidence that the feed is whole). */
  hashes: Map<string, number>;
  state: SyncState['rss'];
  notModified: boolean;
}

/** Does the article URL carry this language as a path segment (`/fr/blog/slug/`)? */
function urlHasLanguage(url: string | undefined, language: string): boolean {
  try {
    return new URL(url ?? '').pathname.split('/').includes(language);
  } catch {
    return false;
  }
}

/**
 * `language`: the loader's language filter. A slug the feed carries more than once (one item per language)
 * is kept only when exactly one of its items has that language in its URL; otherwise no copy is used.
 */
export async function readRss(
  client: Client,
  siteId: number,
  previous: SyncState['rss'],
  language?: string,
): Promise<RssSignals> {
  const conditional =
    previous?.etag || previous?.lastModified
      ? withoutUndefined({ etag: previous.etag, lastModified: previous.lastModified })
      : undefined;
  const response = await client.rss(siteId, conditional);
  if (response.notModified) return { items: new Map(), hashes: new Map(), state: previous, notModified: true };
  // When this copy was taken from the service: a cache's copy is `Age` seconds old.
  const takenAt = Date.now() - (response.age ?? 0) * 1000;
  const bySlug = new Map<string, RssItem[]>();
  const hashes = new Map<string, number>();
  for (const item of parseRssFeed(response.body, { url: response.url }).items) {
    if (item.contentEncoded) hashes.set(shortHash(item.contentEncoded), item.contentEncoded.length);
    const slug = slugFromArticleUrl(item.link ?? item.guid ?? '');
    if (slug === undefined || !isStorableSlug(slug)) continue;
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), item]);
  }
  const items = new Map<string, { item: RssItem; signal: RssSignal }>();
  for (const [slug, candidates] of bySlug) {
    // One item per slug is the usual case; several are one per language, and only the URL tells them apart.
    const mine =
      candidates.length === 1
        ? candidates
        : candidates.filter((c) => language !== undefined && urlHasLanguage(c.link, language));
    if (mine.length !== 1) continue;
    const item = mine[0]!;
    const signal: RssSignal = item.contentEncoded ? { contentHash: shortHash(item.contentEncoded), takenAt } : {};
    items.set(slug, { item, signal });
  }
  return {
    items,
    hashes,
    state: withoutUndefined({ etag: response.etag, lastModified: response.lastModified }),
    notModified: false,
  };
}
