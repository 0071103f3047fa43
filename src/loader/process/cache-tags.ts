/**
 * The cache tags of this package's on-demand pages (Astro route caching, `cache.provider`): one definition,
 * used by the live loader's cache hints, the feed routes, the invalidation endpoint and `watch --invalidate`.
 * Pure: no I/O.
 *
 * - `publisher:site-<id>`: everything of the site this package renders (a purge of all of it);
 * - `publisher:site-<id>:<slug>`: one article's page (`getLiveEntry`), the slug percent-encoded;
 * - `publisher:site-<id>/slug-<32 hex>`: the same for a slug too long for that (articleTagOf);
 * - `publisher:site-<id>/articles`: the list pages (`getLiveCollection`);
 * - `publisher:site-<id>/sitemap`, `publisher:site-<id>/rss`: the on-demand sitemap and RSS routes.
 * A slug is a URL path segment, so it never holds `/`: an article tag cannot collide with the others.
 */
import { createHash } from 'node:crypto';

/**
 * The longest tag this package writes. Hosts bound each tag: CloudFront 256 characters, Akamai 128, Cloudflare's
 * purge API 1,024 (and 16 KB for a response's whole `Cache-Tag` header), and the invalidation endpoint 256; a
 * percent-encoded non-Latin slug takes 6 to 12 characters per letter (a 46-letter Russian slug made 259). At 128
 * a tag fits all of them, with room for a page's dozens of tags in one header.
 */
export const MAX_TAG_LENGTH = 128;

/** Tags hold no comma or white space (providers send them comma-separated in one header). */
const encodeSlug = (slug: string): string => encodeURIComponent(slug);

/**
 * A slug whose encoded tag would pass MAX_TAG_LENGTH: the first 128 bits of its SHA-256, in lowercase hex (hosts
 * compare tags without regard to case: CloudFront and Cloudflare do). Stable across builds, processes and
 * versions, so the page's tag and the one `watch` sends agree. Two slugs sharing it would only purge each other.
 */
const slugDigest = (slug: string): string => createHash('sha256').update(slug, 'utf8').digest('hex').slice(0, 32);

function articleTag(siteId: number, slug: string): string {
  const plain = `publisher:site-${siteId}:${encodeSlug(slug)}`;
  return plain.length <= MAX_TAG_LENGTH ? plain : `publisher:site-${siteId}/slug-${slugDigest(slug)}`;
}

export const cacheTags = {
  /** Every page of the site rendered from the service. */
  site: (siteId: number): string => `publisher:site-${siteId}`,
  /** One article's page: the slug itself, or a digest of a long one (at most MAX_TAG_LENGTH characters). */
  article: articleTag,
  /** The pages that list articles. */
  list: (siteId: number): string => `publisher:site-${siteId}/articles`,
  /** The sitemap route (and its parts). */
  sitemap: (siteId: number): string => `publisher:site-${siteId}/sitemap`,
  /** The RSS route. */
  rss: (siteId: number): string => `publisher:site-${siteId}/rss`,
} as const;

/**
 * Added to the cache hint of a copy the live loader served because the service did not answer: the integration's
 * middleware then caches the page for at most `STALE_MAX_AGE_SECONDS`, not for the route's `maxAge` (an
 * invalidation during an outage would otherwise put the old page back for a day). Not a tag of any site.
 */
export const STALE_TAG = 'publisher:stale';
export const STALE_MAX_AGE_SECONDS = 60;

/**
 * An article's tag names its slug, or (a long slug) only the slug's digest: `slug` is then undefined, and
 * whether a slug is the one named is `cacheTags.article(siteId, slug) === tag`.
 */
export type ParsedCacheTag =
  | { siteId: number; kind: 'site' | 'list' | 'sitemap' | 'rss' }
  | { siteId: number; kind: 'article'; slug: string | undefined };

const TAG = /^publisher:site-([1-9][0-9]{0,15})(?::(.+)|\/(articles|sitemap|rss|slug-[0-9a-f]{32}))?$/;

/** What one of this package's tags names, or undefined for any other tag. */
export function parseCacheTag(tag: string): ParsedCacheTag | undefined {
  const match = TAG.exec(tag);
  if (!match) return undefined;
  const siteId = Number(match[1]);
  if (match[2] !== undefined) {
    if (match[2].includes('/')) return undefined;
    try {
      return { siteId, kind: 'article', slug: decodeURIComponent(match[2]) };
    } catch {
      return undefined;
    }
  }
  if (match[3]?.startsWith('slug-')) return { siteId, kind: 'article', slug: undefined };
  const kind = match[3] === 'articles' ? 'list' : ((match[3] ?? 'site') as 'site' | 'sitemap' | 'rss');
  return { siteId, kind };
}

/**
 * What to invalidate after articles changed: each changed article's page, and the pages that show any article
 * (the lists, the sitemap, the feed). With no slug known (a first run), the whole site.
 */
export function tagsForChangedArticles(siteId: number, slugs: Iterable<string> | undefined): string[] {
  if (slugs === undefined) return [cacheTags.site(siteId)];
  const articleTags = [...new Set(slugs)].map((slug) => cacheTags.article(siteId, slug));
  return [...articleTags, cacheTags.list(siteId), cacheTags.sitemap(siteId), cacheTags.rss(siteId)];
}
