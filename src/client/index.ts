// The package's `./client` entry point: the factory, its options, the error classes and guard, and the
// response types. Retry timing, hints, redaction and the response schemas are internal.
/**
 * The typed REST client of the service's API v1: `createClient()`, its options, the error classes and their guard, and the response types.
 *
 * @packageDocumentation
 * @module astro-content-publisher/client
 */
export { createClient, type Client } from './client.js';
export type { ClientLogger, ClientOptions } from './options.js';
export type { RateLimitState } from './rate-limit.js';
export {
  ApiError,
  CmsUnavailableError,
  ConfigError,
  ForbiddenError,
  MissingApiKeyError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PublisherError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  isPublisherError,
  type PublisherErrorCode,
} from './errors.js';
export type { Account, Usage } from './resources/account.js';
export type { Site } from './resources/sites.js';
export type { ArticleDetail, ArticleListItem, ArticleQuery } from './resources/articles.js';
export type { ArticleLength, ArticleType, GenerateBody, GenerateResult } from './resources/generate.js';
export type { AuditBody, AuditResult, BriefBody, BriefResult } from './resources/content-tools.js';
export type { KeywordRecord, SnapshotResult } from './resources/keywords.js';
export type { Digest } from './resources/digest.js';
export type { FeedConditions, FeedResponse } from './resources/feeds.js';
