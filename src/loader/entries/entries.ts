import { z } from 'zod';
import type { ArticleDetail, ArticleListItem } from '../../client/index.js';
import type { RssItem } from '../../feeds/index.js';
import { withoutUndefined } from './records.js';
import type { ArticleData } from './schemas.js';

/** A date from the API (`YYYY-MM-DD` or ISO date-time); undefined when unreadable. */
export function toDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time) : undefined;
}

function keywordList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((k): k is string => typeof k === 'string');
  if (typeof value === 'string')
    return value
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  return [];
}

/** The list fields of an article known only from its detail (the sitemap showed it, or a live lookup). */
export function listItemOf(detail: ArticleDetail): ArticleListItem {
  return {
    ...detail,
    status: detail.status ?? 'published',
    language: detail.language ?? '',
    published_at: detail.published_at ?? '',
    view_count: detail.view_count ?? 0,
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** API fields (snake_case) that become typed camelCase fields; the originals are not kept twice. */
const MAPPED = [
  'content',
  'published_at',
  'updated_at',
  'view_count',
  'meta_description',
  'featured_image',
  'keywords',
  'excerpt',
  'url',
] as const;

/**
 * The one mapping from the service's article fields (a list item, a detail, or both merged) to entry data:
 * typed camelCase fields plus every further field the service sent, as it sent it. The build-time loader
 * and the live loader both use it, so an entry has one shape whichever loader made it.
 */
export const articleEntrySchema = z
  .looseObject({
    slug: z.string(),
    title: z.string(),
    status: z.string().optional(),
    language: z.string().optional(),
    published_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
    view_count: z.number().optional(),
    url: z.unknown().optional(),
    excerpt: z.unknown().optional(),
    meta_description: z.unknown().optional(),
    featured_image: z.unknown().optional(),
    keywords: z.unknown().optional(),
    content: z.unknown().optional(),
  })
  .transform((raw) => {
    const extra = Object.fromEntries(
      Object.entries(raw).filter(([key]) => !(MAPPED as readonly string[]).includes(key)),
    );
    return withoutUndefined({
      ...extra,
      slug: raw.slug,
      title: raw.title,
      status: raw.status ?? 'published',
      language: raw.language ?? '',
      publishedAt: toDate(raw.published_at),
      updatedAt: toDate(raw.updated_at),
      viewCount: raw.view_count ?? 0,
      url: text(raw.url),
      excerpt: text(raw.excerpt),
      metaDescription: text(raw.meta_description),
      featuredImage: text(raw.featured_image),
      keywords: keywordList(raw.keywords),
    });
  });

export type ArticleEntryData = z.output<typeof articleEntrySchema>;

/** The list item's own fields: always the freshest (one list call per build). */
export function listFields(
  item: ArticleListItem,
): Pick<ArticleData, 'slug' | 'title' | 'status' | 'language' | 'viewCount'> & { publishedAt: Date | undefined } {
  return {
    slug: item.slug,
    title: item.title,
    status: item.status,
    language: item.language,
    publishedAt: toDate(item.published_at),
    viewCount: item.view_count,
  };
}

/** Entry data from a list item alone (the live loader's collection): the same shape, detail fields absent. */
export function dataFromListItem(item: ArticleListItem): Omit<ArticleEntryData, 'keywords'> {
  const { keywords: _none, ...data } = articleEntrySchema.parse(item);
  return data;
}

/** Entry data from a detail call: the list's fields win (fresher), the detail adds the rest. */
export function dataFromDetail(item: ArticleListItem, detail: ArticleDetail): Record<string, unknown> {
  const merged = { ...detail, ...item, published_at: item.published_at || detail.published_at };
  return articleEntrySchema.parse(merged);
}

/** The text of an RSS `description`, which feeds send as escaped HTML: tags dropped, entities decoded. */
export function plainText(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const point = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
        return Number.isInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
      }
      return named[code.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Entry data from the RSS feed: the list's fields and the feed's link and description (as text), on top of
 * what the previous version held (detail-only fields such as keywords stay until a detail call refreshes them).
 * When the feed brings other HTML than the previous version's (`contentChanged`: an edit), the previous meta
 * description is dropped: the service writes it from the title and the body, so it would describe the old
 * text (and name the old title) until a detail call; `entryDescription` then takes the feed's excerpt.
 */
export function dataFromRss(
  item: ArticleListItem,
  rss: RssItem,
  previous: Record<string, unknown> | undefined,
  lastmod: string | undefined,
  contentChanged = false,
): Record<string, unknown> {
  const description = rss.description === undefined ? undefined : plainText(rss.description);
  const { metaDescription, ...kept } = previous ?? {};
  return withoutUndefined({
    keywords: [],
    ...kept,
    ...(contentChanged ? {} : { metaDescription }),
    ...listFields(item),
    // The item's categories are the article's keywords (the service's feed lists them so): a theme's tag pages
    // list an article built from the feed too. A feed without them keeps what a detail gave.
    ...(rss.categories ? { keywords: rss.categories } : {}),
    url: text(rss.link) ?? text(previous?.url),
    excerpt: text(description) ?? text(previous?.excerpt),
    updatedAt: toDate(lastmod) ?? (previous?.updatedAt instanceof Date ? previous.updatedAt : undefined),
  });
}
