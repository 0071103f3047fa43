import type { ArticleDetail, ArticleListItem } from '../client/index.js';
import type { RssItem } from '../feeds/index.js';
import { withoutUndefined } from './records.js';
import type { ArticleData } from './schemas.js';

/** Detail fields mapped to typed camelCase fields (the originals are not kept twice). */
const MAPPED = new Set(['content', 'published_at', 'updated_at', 'view_count', 'meta_description', 'featured_image', 'keywords', 'excerpt', 'url']);

/** A date from the API (`YYYY-MM-DD` or ISO date-time); undefined when unreadable. */
export function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : undefined;
}

function keywordList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((k): k is string => typeof k === 'string');
  if (typeof value === 'string') return value.split(',').map((k) => k.trim()).filter(Boolean);
  return [];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The list item's own fields: always the freshest (one list call per build). */
export function listFields(item: ArticleListItem): Pick<ArticleData, 'slug' | 'title' | 'status' | 'language' | 'viewCount'> & { publishedAt: Date | undefined } {
  return {
    slug: item.slug,
    title: item.title,
    status: item.status,
    language: item.language,
    publishedAt: toDate(item.published_at),
    viewCount: item.view_count,
  };
}

/** Entry data from a detail call: typed fields plus every further field the service sent. */
export function dataFromDetail(item: ArticleListItem, detail: ArticleDetail): Record<string, unknown> {
  const extra = Object.fromEntries(Object.entries(detail).filter(([key]) => !MAPPED.has(key)));
  const list = listFields(item);
  return withoutUndefined({
    ...extra,
    ...list,
    publishedAt: list.publishedAt ?? toDate(detail.published_at),
    updatedAt: toDate(detail.updated_at),
    url: text(detail.url),
    excerpt: text(detail.excerpt),
    metaDescription: text(detail.meta_description),
    featuredImage: text(detail.featured_image),
    keywords: keywordList(detail.keywords),
  });
}

/**
 * Entry data from the RSS feed: the list's fields and the feed's link and description, on top of what the
 * previous version held (detail-only fields such as keywords stay until a detail call refreshes them).
 */
export function dataFromRss(item: ArticleListItem, rss: RssItem, previous: Record<string, unknown> | undefined, lastmod: string | undefined): Record<string, unknown> {
  return withoutUndefined({
    keywords: [],
    ...previous,
    ...listFields(item),
    url: text(rss.link) ?? text(previous?.url),
    excerpt: text(rss.description) ?? text(previous?.excerpt),
    updatedAt: toDate(lastmod) ?? (previous?.updatedAt instanceof Date ? previous.updatedAt : undefined),
  });
}
