import { PLANS, SITES, USERS, type SiteDefinition, type UserDefinition } from './accounts.js';
import { relatedArticle, type RelatedArticle } from './article-body.js';
import { seedArticles, type ArticleRecord } from './articles.js';
import { seedKeywords, type KeywordState } from './keyword-data.js';
import { serviceNow } from './clock.js';
import type { FeedCopy } from './feed-copies.js';
import { serviceVariantsSchema, type ResolvedServiceVariants } from './variants.js';

interface UserState {
  articlesThisMonth: number;
  monthKey: string;
  credits: number;
}

export function monthKeyOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * The mutable content of the simulated service: articles per site, quotas and credits per user,
 * keyword positions, audit cache. `reset()` puts everything back to what the seed gives.
 */
export class ContentStore {
  private articles = new Map<number, ArticleRecord[]>();
  private users = new Map<string, UserState>();
  private keywords = new Map<number, KeywordState>();
  /** Last time a site's feeds changed other than through an article's updated_at (unpublishing). */
  private feedChangedAt = new Map<number, number>();
  private nextSeq = 0;
  readonly auditCache = new Set<string>();
  /** The `feedCdnMaxAgeSeconds` variant: the copy of each feed the CDN serves, and when it was taken. */
  readonly feedCopies = new Map<string, FeedCopy>();
  /** The `feedStaleEdgeSeconds` variant: requests so far per feed, to alternate between the two edges. */
  readonly edgeTurns = new Map<string, number>();
  /** Images replaced in place (`imageCaching` other than `immutable`): path under /media/ -> version and time. */
  readonly mediaVersions = new Map<string, { version: number; changedAt: number }>();

  constructor(
    readonly seed: number,
    readonly articlesPerSite: number,
    /** The service variants in force (they may change at run time through the admin API). */
    readonly variants: () => ResolvedServiceVariants = () => serviceVariantsSchema.parse({}),
    /** The service's clock (`clock.ts`), not the global `Date` a test may fake. */
    private readonly now: () => number = serviceNow,
  ) {
    this.reset();
  }

  reset(): void {
    this.articles.clear();
    this.users.clear();
    this.keywords.clear();
    this.feedChangedAt.clear();
    this.auditCache.clear();
    this.feedCopies.clear();
    this.edgeTurns.clear();
    this.mediaVersions.clear();
    this.nextSeq = this.articlesPerSite + 1;
    for (const site of SITES) {
      this.articles.set(site.id, seedArticles(site, this.seed, this.articlesPerSite, this.variants().sharedSlugs));
      this.keywords.set(site.id, seedKeywords(site, this.seed));
    }
    for (const user of USERS) {
      this.users.set(user.username, { articlesThisMonth: 0, monthKey: monthKeyOf(this.now()), credits: user.credits });
    }
  }

  site(id: number): SiteDefinition | undefined {
    return SITES.find((site) => site.id === id);
  }

  /** Published articles of a site (status `published`), newest first. */
  published(siteId: number): ArticleRecord[] {
    return this.listed(siteId).filter((a) => a.status === 'published');
  }

  /** Articles of a site of any status (drafts, scheduled ones...), not removed, newest first. */
  listed(siteId: number): ArticleRecord[] {
    return (this.articles.get(siteId) ?? [])
      .filter((a) => !a.removed)
      .sort((a, b) => (a.publishedAt === b.publishedAt ? b.seq - a.seq : a.publishedAt < b.publishedAt ? 1 : -1));
  }

  /** The published article of this slug (of this language when given; else the oldest of that slug). */
  find(siteId: number, slug: string, language?: string): ArticleRecord | undefined {
    return this.findAny(siteId, slug, language, (a) => a.status === 'published');
  }

  /** As `find`, among the articles of any status (a draft too), or those `which` accepts. */
  findAny(
    siteId: number,
    slug: string,
    language?: string,
    which: (article: ArticleRecord) => boolean = () => true,
  ): ArticleRecord | undefined {
    return (this.articles.get(siteId) ?? [])
      .filter((a) => a.slug === slug && !a.removed && which(a) && (language === undefined || a.language === language))
      .sort((a, b) => a.seq - b.seq)[0];
  }

  /** Any stored article with this slug, published or not (slugs stay unique per site). */
  slugTaken(siteId: number, slug: string): boolean {
    return (this.articles.get(siteId) ?? []).some((a) => a.slug === slug);
  }

  /** What a new article's body links to: the two newest published articles, at their public URLs. */
  relatedOf(siteId: number): RelatedArticle[] {
    const shared = this.variants().sharedSlugs;
    return this.published(siteId)
      .slice(0, 2)
      .map((a) => relatedArticle(a, shared));
  }

  takeSeq(): number {
    this.nextSeq += 1;
    return this.nextSeq;
  }

  add(article: ArticleRecord): void {
    const shared = this.variants().sharedSlugs;
    const list = (this.articles.get(article.siteId) ?? []).filter(
      (a) => a.slug !== article.slug || (shared && a.language !== article.language),
    );
    list.push(article);
    this.articles.set(article.siteId, list);
  }

  unpublish(siteId: number, slug: string, nowMs: number, language?: string): boolean {
    const article = this.findAny(siteId, slug, language);
    if (!article) return false;
    article.removed = true;
    this.feedChangedAt.set(siteId, nowMs);
    return true;
  }

  /** The feeds changed other than by an article's `updated_at` (an article left or joined them by its status). */
  feedsChanged(siteId: number, nowMs: number): void {
    this.feedChangedAt.set(siteId, nowMs);
  }

  /** Last change of anything a site's feeds show, in ms (drives Last-Modified). */
  lastModified(siteId: number): number {
    let last = this.feedChangedAt.get(siteId) ?? 0;
    for (const article of this.published(siteId)) last = Math.max(last, Date.parse(article.updatedAt));
    return last;
  }

  /**
   * Timestamp for a change made now. HTTP dates have one-second resolution: a change in the same second as
   * the previous one must still move Last-Modified, or a client's If-Modified-Since would get a stale 304.
   */
  changeTime(siteId: number, nowMs: number): number {
    return Math.max(Math.floor(nowMs / 1000) * 1000, Math.floor(this.lastModified(siteId) / 1000) * 1000 + 1000);
  }

  usage(user: UserDefinition, nowMs: number): UserState & { limit: number } {
    const state = this.users.get(user.username) ?? {
      articlesThisMonth: 0,
      monthKey: monthKeyOf(nowMs),
      credits: user.credits,
    };
    if (state.monthKey !== monthKeyOf(nowMs)) {
      state.monthKey = monthKeyOf(nowMs);
      state.articlesThisMonth = 0;
    }
    this.users.set(user.username, state);
    return { ...state, limit: PLANS[user.plan].articlesPerMonth };
  }

  /** Takes one unit of monthly quota, else one credit. False when neither is left (402). */
  consumeGeneration(user: UserDefinition, nowMs: number): boolean {
    const usage = this.usage(user, nowMs);
    const state = this.users.get(user.username);
    if (!state) return false;
    if (usage.articlesThisMonth < usage.limit) {
      state.articlesThisMonth += 1;
      return true;
    }
    if (state.credits > 0) {
      state.credits -= 1;
      return true;
    }
    return false;
  }

  keywordState(siteId: number): KeywordState | undefined {
    return this.keywords.get(siteId);
  }
}
