// An article's HTML: the sanitising policy, its headings and images, its links to other articles.
export { sanitizeArticle, type SanitizeArticleOptions, type SanitizedArticle } from './sanitize.js';
export {
  sanitizeOptionsSchema,
  resolvePolicy,
  SanitizeOptionsError,
  type SanitizeOptions,
  type ResolvedPolicy,
} from './options.js';
export { slugify, type Heading } from './headings.js';
export {
  SANITIZER_POLICY_VERSION,
  ALLOWED_SCHEMES,
  BASE_ALLOWED_TAGS,
  BASE_ALLOWED_ATTRIBUTES,
  DEFAULT_IFRAME_HOSTS,
  IFRAME_SANDBOX,
} from './policy.js';
export {
  articleLinkTarget,
  blogArticleUrl,
  applyTrailingSlash,
  type ArticleLinkContext,
  type BlogLayout,
} from './article-links.js';
