export { createClient, type Client } from './client.js';
export { CLIENT_DEFAULTS, clientOptionsSchema, type ClientLogger, type ClientOptions } from './options.js';
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
export { HINTS } from './error-map.js';
export { parseRetryAfter, backoffDelay, decideRetry, RETRYABLE_STATUSES, type RetryDecision, type RetryInput } from './retry-timing.js';
export { redactText } from './redact.js';
export { accountSchema, usageSchema, type Account, type Usage } from './resources/account.js';
export { siteSchema, type Site } from './resources/sites.js';
export {
  articleDetailSchema,
  articleListItemSchema,
  type ArticleDetail,
  type ArticleListItem,
  type ArticleQuery,
} from './resources/articles.js';
export { ARTICLE_TYPES, generateResultSchema, type ArticleLength, type ArticleType, type GenerateBody, type GenerateResult } from './resources/generate.js';
export { auditResultSchema, briefResultSchema, type AuditBody, type AuditResult, type BriefBody, type BriefResult } from './resources/content-tools.js';
export { keywordRecordSchema, snapshotResultSchema, type KeywordRecord, type SnapshotResult } from './resources/keywords.js';
export { digestSchema, type Digest } from './resources/digest.js';
export type { FeedConditions, FeedResponse } from './resources/feeds.js';
