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

/** `keywordsLoader`: one entry per tracked keyword (id: the keyword). */
export const keywordDataSchema = z.looseObject({
  keyword: z.string(),
  position: z.number().nullable(),
  previousPosition: z.number().nullable(),
  url: z.string().nullable(),
  volume: z.number().nullable(),
  updatedAt: z.date().nullable(),
});
export type KeywordData = z.infer<typeof keywordDataSchema>;

/** `digestLoader`: the weekly digest as one entry (id `latest`). */
export const digestDataSchema = z.looseObject({
  week: z.string().optional(),
  publications: z.unknown(),
  averageAuditScore: z.number().nullable(),
  positionMovements: z.array(z.unknown()),
  alerts: z.array(z.unknown()),
});
export type DigestData = z.infer<typeof digestDataSchema>;
