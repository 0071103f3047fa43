/** `createClient(options)`: validates the options once, then wires the resources to one transport. */
import { type ClientOptions, resolveClientOptions } from './options.js';
import type { RateLimitState } from './rate-limit.js';
import type { ResourceContext } from './request-json.js';
import { type Account, me } from './resources/account.js';
import {
  type ArticleDetail,
  type ArticleListItem,
  type ArticlePage,
  type ArticleQuery,
  article,
  articles,
  articlesPage,
} from './resources/articles.js';
import {
  type AuditBody,
  type AuditResult,
  type BriefBody,
  type BriefResult,
  audit,
  brief,
} from './resources/content-tools.js';
import { type Digest, digest } from './resources/digest.js';
import { type FeedConditions, type FeedResponse, rss, sitemap } from './resources/feeds.js';
import { type GenerateBody, type GenerateResult, generate } from './resources/generate.js';
import { type KeywordRecord, type SnapshotResult, keywords, snapshot } from './resources/keywords.js';
import { type Site, sites } from './resources/sites.js';
import { createTransport } from './transport.js';
import type { HintOverrides } from './error-map.js';

export interface Client {
  /** The last `X-RateLimit-*` headers seen on an authenticated response, or undefined before the first. */
  readonly rateLimit: RateLimitState | undefined;
  /** Authenticated requests sent by this client, retries included (the public feeds are not counted). */
  readonly requestCount: number;
  me(): Promise<Account>;
  sites(): Promise<Site[]>;
  /**
   * One page of the list. When the service says more exist (`next`, or `count` above the page), a warning
   * through `logger` says so: `articlesPage()` returns those hints and reads the next pages.
   */
  articles(siteId: number, query?: ArticleQuery): Promise<ArticleListItem[]>;
  /** One page of the list with the paging hints a service may add (`count`, `next`); `offset` only when given. */
  articlesPage(siteId: number, query?: ArticleQuery, offset?: number): Promise<ArticlePage>;
  /**
   * One article with its full HTML. `language` is sent as a query parameter: API.md shows none for the detail,
   * but a service that keeps one slug in several languages may honour it (the answer's `language` says).
   */
  article(siteId: number, slug: string, options?: { language?: string | undefined }): Promise<ArticleDetail>;
  /** Never retried automatically: it consumes quota and runs 60 to 120 s (timeout `generateTimeoutMs`). */
  generate(siteId: number, body: GenerateBody): Promise<GenerateResult>;
  audit(body: AuditBody): Promise<AuditResult>;
  brief(body: BriefBody): Promise<BriefResult>;
  keywords(siteId: number): Promise<KeywordRecord[]>;
  snapshot(siteId: number): Promise<SnapshotResult>;
  digest(siteId: number): Promise<Digest>;
  /** The public sitemap (no key needed); pass a previous response's etag/lastModified for a conditional GET. */
  sitemap(siteId: number, conditional?: FeedConditions): Promise<FeedResponse>;
  /** The public RSS feed (no key needed); pass a previous response's etag/lastModified for a conditional GET. */
  rss(siteId: number, conditional?: FeedConditions): Promise<FeedResponse>;
}

/**
 * Creates a client for the service's REST API v1. Throws ConfigError at once for a bad option; a missing
 * `apiKey` is only an error for the authenticated methods (the feeds are public).
 */
export function createClient(options: ClientOptions): Client {
  return createClientWithHints(options, {});
}

/**
 * `createClient` whose advice on a refused key (401) is another entry point's: the loaders take the key from
 * their `apiKey` option or PUBLISHER_API_KEY, which the client never reads. Not a public export.
 */
export function createClientWithHints(options: ClientOptions, hints: HintOverrides): Client {
  const resolved = resolveClientOptions(options);
  const transport = createTransport(resolved, hints);
  const ctx: ResourceContext = {
    transport,
    timeoutMs: resolved.timeoutMs,
    generateTimeoutMs: resolved.generateTimeoutMs,
  };
  return {
    get rateLimit() {
      return transport.rateLimit;
    },
    get requestCount() {
      return transport.requestCount;
    },
    me: () => me(ctx),
    sites: () => sites(ctx),
    articles: (siteId, query) => articles(ctx, siteId, query),
    articlesPage: (siteId, query, offset) => articlesPage(ctx, siteId, query, offset),
    article: (siteId, slug, options) => article(ctx, siteId, slug, options),
    generate: (siteId, body) => generate(ctx, siteId, body),
    audit: (body) => audit(ctx, body),
    brief: (body) => brief(ctx, body),
    keywords: (siteId) => keywords(ctx, siteId),
    snapshot: (siteId) => snapshot(ctx, siteId),
    digest: (siteId) => digest(ctx, siteId),
    sitemap: (siteId, conditional) => sitemap(ctx, siteId, conditional),
    rss: (siteId, conditional) => rss(ctx, siteId, conditional),
  };
}
