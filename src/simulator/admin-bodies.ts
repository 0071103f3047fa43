import { z } from 'zod';

/** The bodies the admin API takes to publish and edit articles (admin.ts). */

/**
 * An article's keywords as the service keeps them: the detail's `keywords` array and the RSS item's
 * `<category>` elements, in this order (the list items carry none). Blank or repeated ones are refused rather
 * than silently dropped: a test that sends them means something by it.
 */
const keywordsSchema = z
  .array(
    z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be blank')
      .max(100, 'must be at most 100 characters'),
    { error: 'must be an array of strings' },
  )
  .max(50, 'must hold at most 50 keywords')
  .refine((keywords) => new Set(keywords).size === keywords.length, 'must not repeat a keyword');

/** A status word as a service would spell it (`draft`, `scheduled`, `pending_review`...). */
const statusSchema = z
  .string()
  .regex(/^[a-z][a-z_-]{0,39}$/, 'must be a lowercase word like "draft" or "scheduled" (letters, "_" or "-")');

export const publishSchema = z
  .object({
    site: z.coerce.number().int().positive(),
    title: z.string().min(1),
    slug: z
      .string()
      .min(1)
      .max(200)
      .refine((s) => !/[\s/]/.test(s), 'must not contain "/" or spaces')
      .optional(),
    language: z.string().min(1).max(16).optional(),
    content: z.string().optional(),
    excerpt: z.string().optional(),
    /**
     * Another featured image URL than the generated one (tests point it at a missing or foreign image);
     * `null`: no featured image.
     */
    featured_image: z.string().url().nullable().optional(),
    /** Instead of the ones derived from the title. */
    keywords: keywordsSchema.optional(),
    published_at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
      .optional(),
    /**
     * The article's status: `published` (the default), `draft`, `scheduled` or any other word the service may
     * use; only published articles reach the feeds (the list and the detail: the `listStatuses`, `draftDetail`
     * variants).
     */
    status: statusSchema.optional(),
  })
  .strict();

export const patchSchema = z
  .object({
    title: z.string().min(1).optional(),
    content: z.string().optional(),
    excerpt: z.string().optional(),
    /** A new featured image URL, or `null` to remove it (the service's editor can do both). */
    featured_image: z.string().url().nullable().optional(),
    /** The whole new set (`[]`: none), as the service's editor saves it. */
    keywords: keywordsSchema.optional(),
    /**
     * The article's status: `published` (the default), `draft`, `scheduled` or any other word the service may
     * use; only published articles reach the feeds (the list and the detail: the `listStatuses`, `draftDetail`
     * variants).
     */
    status: statusSchema.optional(),
  })
  .strict();
