import { siteOrigin, type SiteDefinition } from './accounts.js';
import { generateArticleBody, relatedArticle, type ArticleLength, type RelatedArticle } from './article-body.js';
import { bankFor, LANGUAGES } from './corpus.js';
import { mediaUrl } from './media.js';
import { htmlToText, slugify, truncateText } from './html.js';
import { createRng } from './random.js';

/** One article as the simulator stores it (the API shapes are built from it in `shapes.ts`). */
export interface ArticleRecord {
  /** Creation order: breaks ties between articles published the same day (newest first). */
  seq: number;
  siteId: number;
  slug: string;
  title: string;
  language: string;
  /** YYYY-MM-DD */
  publishedAt: string;
  /** ISO date-time of publication (RSS pubDate). */
  publishedTime: string;
  /** ISO date-time without milliseconds. */
  updatedAt: string;
  viewCount: number;
  content: string;
  excerpt: string;
  metaDescription: string;
  /** `null`: the article has no featured image (the admin API can remove it). */
  featuredImage: string | null;
  keywords: string[];
  /**
   * The service's word for the article's state: `published` (the only one the document shows), `draft`,
   * `scheduled` or any other the admin API sets. Only published articles reach the feeds; the list and the
   * detail show the others as the `listStatuses` and `draftDetail` variants say.
   */
  status: string;
  /** Unpublished by `DELETE /__simulator/articles/...`: gone from the list, the feeds and the detail. */
  removed: boolean;
}

/** Seeded content is anchored to a fixed date so that it is the same whatever day the tests run. */
export const SEED_ANCHOR_MS = Date.UTC(2025, 5, 1, 8, 0, 0);
const DAY_MS = 86_400_000;

export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}

export interface DerivedFields {
  excerpt: string;
  metaDescription: string;
  featuredImage: string;
  keywords: string[];
}

function firstParagraphText(content: string): string {
  return htmlToText(/<p>([\s\S]*?)<\/p>/.exec(content)?.[1] ?? content);
}

/** The meta description of an article: its title and the start of its first paragraph, as the service writes it. */
export function metaDescriptionOf(title: string, content: string): string {
  return truncateText(`${title}. ${firstParagraphText(content)}`, 155);
}

/** Fields derived from the body and the title, shared by seeded, generated and admin-published articles. */
export function deriveFields(
  site: SiteDefinition,
  slug: string,
  title: string,
  topic: string,
  content: string,
): DerivedFields {
  const words = slugify(`${topic}`)
    .split('-')
    .filter((w) => w.length > 3);
  return {
    excerpt: truncateText(firstParagraphText(content), 200),
    metaDescription: metaDescriptionOf(title, content),
    featuredImage: mediaUrl(site.id, slug, 'featured.jpg'),
    keywords: [topic, ...words.slice(0, 3)].filter((k, i, all) => all.indexOf(k) === i),
  };
}

/** Seeded sites are rebuilt on every reset: generate each (seed, site, count) once and hand out copies. */
const seededCache = new Map<string, ArticleRecord[]>();

/**
 * The seeded articles of one site, newest first, identical for the same (seed, site, count, sharedSlugs). With
 * `sharedSlugs` each `fr` article takes the slug of the `en` article seeded before it (its translation, as the
 * service would pair them), and every body links to the other articles at their URLs, which carry the language.
 */
export function seedArticles(site: SiteDefinition, seed: number, count: number, sharedSlugs = false): ArticleRecord[] {
  const key = `${seed}:${site.id}:${count}:${sharedSlugs}`;
  let template = seededCache.get(key);
  if (!template) {
    template = generateSeeded(site, seed, count, sharedSlugs);
    seededCache.set(key, template);
  }
  return template.map((article) => ({ ...article, keywords: [...article.keywords] }));
}

function generateSeeded(site: SiteDefinition, seed: number, count: number, sharedSlugs: boolean): ArticleRecord[] {
  const drafts: Array<{
    title: string;
    topic: string;
    language: string;
    slug: string;
    publishedMs: number;
    updatedMs: number;
    views: number;
  }> = [];
  const taken = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const rng = createRng(seed, site.id, i, 'meta');
    const language = LANGUAGES[i % LANGUAGES.length] ?? 'en';
    const bank = bankFor(language);
    const topic = rng.pick(bank.topics);
    const template = rng.pick(bank.titles);
    const raw = template.replace('{topic}', topic);
    const title = raw.charAt(0).toUpperCase() + raw.slice(1);
    const slug = uniqueSlug(slugify(title), (s) => taken.has(s));
    taken.add(slug);
    // Strictly going back in time: two days per article plus up to a day of jitter.
    const publishedMs = SEED_ANCHOR_MS - (i * 2 + rng.int(0, 1)) * DAY_MS - rng.int(0, 6) * 3_600_000;
    // A fifth of the articles were edited days after publication; the rest within hours.
    const edited = rng.next() < 0.2 ? rng.int(1, 3) * DAY_MS : rng.int(1, 8) * 3_600_000;
    const updatedMs = Math.min(publishedMs + edited, SEED_ANCHOR_MS);
    drafts.push({ title, topic, language, slug, publishedMs, updatedMs, views: rng.int(15, 4_000) });
  }
  if (sharedSlugs) {
    for (let i = 1; i < drafts.length; i += 1) {
      if (drafts[i]!.language === 'fr' && drafts[i - 1]!.language === 'en') drafts[i]!.slug = drafts[i - 1]!.slug;
    }
  }
  return drafts.map((draft, i) => {
    const related: RelatedArticle[] = [drafts[i + 1] ?? drafts[i - 2], drafts[i + 2] ?? drafts[i - 1]]
      .filter((d): d is NonNullable<typeof d> => d !== undefined && d !== draft)
      .map((d) => relatedArticle(d, sharedSlugs));
    const content = generateArticleBody(
      {
        title: draft.title,
        topic: draft.topic,
        language: draft.language,
        slug: draft.slug,
        siteId: site.id,
        siteOrigin: siteOrigin(site),
        related,
      },
      createRng(seed, site.id, i, 'body'),
    );
    return {
      seq: count - i,
      siteId: site.id,
      slug: draft.slug,
      title: draft.title,
      language: draft.language,
      publishedAt: isoSeconds(draft.publishedMs).slice(0, 10),
      publishedTime: isoSeconds(draft.publishedMs),
      updatedAt: isoSeconds(draft.updatedMs),
      viewCount: draft.views,
      content,
      ...deriveFields(site, draft.slug, draft.title, draft.topic, content),
      status: 'published',
      removed: false,
    };
  });
}

export interface NewArticleInput {
  site: SiteDefinition;
  seq: number;
  title: string;
  topic: string;
  language: string;
  slug: string;
  nowMs: number;
  publishedAt?: string;
  content?: string;
  length?: ArticleLength;
  related: RelatedArticle[];
  seed: number;
}

/** An article published now (by generate or by the admin API). */
export function buildNewArticle(input: NewArticleInput): ArticleRecord {
  const content =
    input.content ??
    generateArticleBody(
      {
        title: input.title,
        topic: input.topic,
        language: input.language,
        slug: input.slug,
        siteId: input.site.id,
        siteOrigin: siteOrigin(input.site),
        related: input.related,
        length: input.length ?? 'medium',
      },
      createRng(input.seed, input.site.id, input.slug, 'new'),
    );
  const publishedAt = input.publishedAt ?? isoSeconds(input.nowMs).slice(0, 10);
  return {
    seq: input.seq,
    siteId: input.site.id,
    slug: input.slug,
    title: input.title,
    language: input.language,
    publishedAt,
    publishedTime: input.publishedAt ? `${input.publishedAt}T08:00:00Z` : isoSeconds(input.nowMs),
    updatedAt: isoSeconds(input.nowMs),
    viewCount: 0,
    content,
    ...deriveFields(input.site, input.slug, input.title, input.topic, content),
    status: 'published',
    removed: false,
  };
}
