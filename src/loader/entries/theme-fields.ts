/**
 * Small helpers that make mapping the articles to a theme's own schema one line (issue 11, item 5): the
 * fields blog themes expect (the official blog starter's `description`, `pubDate`, `updatedDate`,
 * `heroImage`; `tags`), and a reading time. The reading time needs the article's HTML, which a `schema`
 * transform does not see, so it is read from the entry (`render` is not needed).
 */
import type { ImageMetadata } from 'astro';
import type { ArticleData } from './schemas.js';

/** Words per minute of an adult reading on screen. */
const DEFAULT_WORDS_PER_MINUTE = 220;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g;

/** The text of an HTML fragment (tags, scripts' and styles' bodies and entities removed). */
function textOfHtml(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[#A-Za-z0-9]+;/g, ' ');
}

/**
 * Minutes to read an entry of `articlesLoader` (at least 1): words of its stored HTML at `wordsPerMinute`;
 * each CJK character counts as half a word.
 * ```astro
 * <p>{readingTime(entry)} min read</p>
 * ```
 */
export function readingTime(
  entry: { rendered?: { html?: string } | undefined; body?: string | undefined },
  wordsPerMinute = DEFAULT_WORDS_PER_MINUTE,
): number {
  if (!Number.isFinite(wordsPerMinute) || wordsPerMinute <= 0) {
    throw new RangeError(
      `[astro-content-publisher] readingTime(): \`wordsPerMinute\` must be a positive number (got ${String(wordsPerMinute)}).`,
    );
  }
  const text = textOfHtml(entry.rendered?.html ?? entry.body ?? '');
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text
    .replace(CJK, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.ceil((words + cjk / 2) / wordsPerMinute));
}

/**
 * A description for `<meta name="description">` and cards: the article's meta description, else its
 * excerpt, else its title; cut at a word boundary to `maxLength` characters with "…".
 */
export function entryDescription(
  data: Pick<ArticleData, 'title'> & Partial<Pick<ArticleData, 'metaDescription' | 'excerpt'>>,
  maxLength = 160,
): string {
  const text = (data.metaDescription ?? data.excerpt ?? data.title).replace(/\s+/g, ' ').trim();
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxLength / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/**
 * The fields of the official Astro blog starter's schema (`title`, `description`, `pubDate`, optional
 * `updatedDate` and `heroImage`, as its own `image().optional()`), and `tags`.
 */
export interface StarterFields {
  title: string;
  description: string;
  pubDate: Date;
  updatedDate?: Date | undefined;
  /**
   * The featured image's local copy (`ImageMetadata` in the page, for the starter's `<Image src={heroImage}>`).
   * Absent when the loader has none (images off, the host not allowed, an SVG, a failed download):
   * `featuredImage` keeps the remote URL.
   */
  heroImage?: ImageMetadata | undefined;
  tags?: string[] | undefined;
}

/**
 * What `starterFields` returns: the starter's fields, and every field of the article typed optional. The
 * values are all there; the starter's layout takes the collection's data type as its props, and its
 * `about.astro` passes only the starter's own fields, which `astro check` must accept.
 */
export type StarterData<T extends ArticleData = ArticleData> = StarterFields & Partial<T>;

/**
 * Maps an article to the blog starter's fields, keeping every field of the article (so `url`, `slug`,
 * `language` stay available to the integration and the pages). One line in `src/content.config.ts`:
 * ```ts
 * schema: articleDataSchema.transform(starterFields)
 * ```
 */
export function starterFields<T extends ArticleData>(data: T): StarterData<T> {
  return {
    ...data,
    description: entryDescription(data),
    pubDate: data.publishedAt,
    updatedDate: data.updatedAt,
    // The local copy only, as the starter's `image()` field: its <Image src={heroImage}> optimises it without a
    // download per page, and a page never gets a remote URL where its types promise an ImageMetadata.
    heroImage: data.featuredImageAsset,
    tags: data.keywords,
  };
}
