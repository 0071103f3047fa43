/**
 * `watch --invalidate`: instead of (or after) a rebuild, ask the blog's invalidation endpoint
 * (`publisher({ invalidate: true })`) to purge exactly what changed from Astro's route cache. The tags are
 * decided here, purely, from the detected changes; the request is sent by trigger.ts.
 */
import { slugFromArticleUrl } from '../feeds/article-url.js';
import { tagsForChangedArticles } from '../loader/process/cache-tags.js';
import type { Change } from './detect.js';

/** The article URL a change is about (an RSS item's guid is its permalink here), or undefined. */
function changedUrl(change: Change): string {
  return 'loc' in change ? change.loc : change.guid;
}

/**
 * The slugs of the changed articles, or undefined when one change cannot be tied to a slug (an RSS guid that
 * is not an http(s) URL): then only a purge of the whole site is sure to cover it. A URL without a path (the home page)
 * names no article and is covered by the list tags, which are always sent.
 */
export function changedSlugs(changes: readonly Change[]): string[] | undefined {
  const slugs = new Set<string>();
  for (const change of changes) {
    const url = changedUrl(change);
    if (!/^https?:$/.test(URL.parse(url)?.protocol ?? '')) return undefined;
    const slug = slugFromArticleUrl(url);
    if (slug !== undefined) slugs.add(slug);
  }
  return [...slugs];
}

/**
 * Changed articles beyond which the site's one tag is sent instead of theirs: the endpoint takes at most 1000
 * tags and 64 KiB (a first run after a failed one sees every article as new).
 */
export const MAX_ARTICLE_TAGS = 200;

/**
 * The tags to invalidate for these changes: each changed article's, plus the lists', the sitemap's and the
 * feed's. No changes (a first run with `triggerOnFirstRun`), a change without a slug, or more than
 * MAX_ARTICLE_TAGS articles: the site's tag.
 */
export function invalidationTags(site: number, changes: readonly Change[]): string[] {
  const slugs = changes.length === 0 ? undefined : changedSlugs(changes);
  return tagsForChangedArticles(site, slugs && slugs.length > MAX_ARTICLE_TAGS ? undefined : slugs);
}

export interface InvalidateRequest {
  url: string;
  init: { method: 'POST'; headers: Record<string, string>; body: string };
}

/** The request to the endpoint: the token as a bearer token, the tags as JSON. */
export function buildInvalidateRequest(url: string, token: string, tags: readonly string[]): InvalidateRequest {
  return {
    url,
    init: {
      method: 'POST',
      headers: {
        'user-agent': 'content-publisher-watch',
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ tags }),
    },
  };
}

/** What an answer other than 2xx means, in words that never contain the token. */
export function describeInvalidateStatus(status: number): string {
  if (status === 401 || status === 403)
    return `answered ${status}: the token is not the blog's (set the same PUBLISHER_INVALIDATE_TOKEN on both sides)`;
  if (status === 503) return `answered 503: the blog has no PUBLISHER_INVALIDATE_TOKEN configured`;
  if (status === 404)
    return `answered 404: is publisher({ invalidate: true }) on, and the path right (ending in "/" under trailingSlash: 'always')?`;
  if (status >= 300 && status < 400)
    return `answered ${status}, a redirect: not followed (the token goes to the URL given only); pass the URL it redirects to (https, the exact path)`;
  return `answered ${status}`;
}
