import type { ImageMetadata } from 'astro';
import { z } from 'zod';
import { IMAGE_IMPORT_PREFIX } from './entry-schema.js';

/**
 * The entry data of `articlesLoader`. Known fields are typed (camelCase); every further field of the detail
 * is kept as the service sent it (the API may add fields without notice). A user schema on the collection
 * replaces this one.
 */
export const articleDataSchema = z.looseObject({
  slug: z.string(),
  title: z.string(),
  status: z.string(),
  language: z.string(),
  /** From `published_at` (`YYYY-MM-DD`, read as UTC midnight). */
  publishedAt: z.date(),
  /** From `updated_at` (or the sitemap's lastmod for an entry built from the RSS feed). */
  updatedAt: z.date().optional(),
  /** From the list call of the last build (the service counts every detail GET as a view). */
  viewCount: z.number(),
  /** The article's public URL on the service's site domain. */
  url: z.string().optional(),
  excerpt: z.string().optional(),
  metaDescription: z.string().optional(),
  featuredImage: z.string().optional(),
  /**
   * The featured image's local copy as Astro's `ImageMetadata`, for `<Image src={entry.data.featuredImageAsset} />`
   * (its `src` is a file of the built site): set when the image step downloaded it (allowed host, not SVG,
   * fetched); otherwise absent and `featuredImage` is the remote URL. The loader sets it before the schema
   * runs, as the reference `store.set` resolves (`__ASTRO_IMAGE_<path of the copy>`), so a transform can map it to a
   * theme's field (`starterFields` puts it in `heroImage`).
   */
  featuredImageAsset: z
    .custom<ImageMetadata>(
      (value) =>
        (typeof value === 'object' && value !== null && 'src' in value) ||
        (typeof value === 'string' && value.startsWith(IMAGE_IMPORT_PREFIX)),
      { message: 'set by the loader (a local image); leave it out of data you pass yourself' },
    )
    .optional(),
  keywords: z.array(z.string()),
});
export type ArticleData = z.infer<typeof articleDataSchema>;

/*
 * The data of `keywordsLoader` and `digestLoader`: one spelling, camelCase, for every field the loader names,
 * as in `articleDataSchema` and in the rest of the package's API (the service's own snake_case names are
 * replaced, never kept beside them). Every other field is kept as the service sent it, under its own name and
 * with its own value: the API document names neither record's fields, and the service may add some without
 * notice. A user schema on the collection replaces these ones.
 */

/**
 * `keywordsLoader`: one entry per tracked keyword, id the keyword (`-2`, `-3`, ... on a repeated one). Fields
 * the service did not send are `null`. Further fields of the record are kept as sent (e.g. `search_engine`).
 */
export const keywordDataSchema = z.looseObject({
  /** The keyword (`keyword-<n>` when the record has none). */
  keyword: z.string(),
  /** From `position`: the current position in search results, 1 the top. */
  position: z.number().nullable(),
  /** From `previous_position`: the position at the crawl before. */
  previousPosition: z.number().nullable(),
  /** From `url`: the page that ranks. */
  url: z.string().nullable(),
  /** From `volume`: the monthly search volume. */
  volume: z.number().nullable(),
  /** From `updated_at`. */
  updatedAt: z.date().nullable(),
});
export type KeywordData = z.infer<typeof keywordDataSchema>;

/**
 * `digestLoader`: the weekly digest as one entry, id `latest`. The items of `publications`,
 * `positionMovements` and `alerts` are kept as the service sent them (the simulator's: `{ slug, title,
 * published_at, url }`, `{ keyword, url, from, to, change }`, `{ type, severity, message }`); further
 * top-level fields too (e.g. `site`).
 */
export const digestDataSchema = z.looseObject({
  /** From `week`, e.g. `2025-W22`. */
  week: z.string().optional(),
  /** From `publications`: the week's publications, as sent. */
  publications: z.unknown(),
  /** From `average_audit_score`; `null` when the service sent none. */
  averageAuditScore: z.number().nullable(),
  /** From `position_movements`; `[]` when the service sent none. */
  positionMovements: z.array(z.unknown()),
  /** From `alerts`; `[]` when the service sent none. */
  alerts: z.array(z.unknown()),
});
export type DigestData = z.infer<typeof digestDataSchema>;
