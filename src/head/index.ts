// The package's `./head` entry point: an article page's head (meta description, canonical URL, Open Graph,
// hreflang, JSON-LD) from its entry. The component `astro-content-publisher/components/ArticleHead.astro` renders it.
/**
 * `articleHead(entry, options)`: everything an article page's head needs, from its entry, as a plain object for a
 * theme's own head component; `components/ArticleHead.astro` renders it.
 *
 * @packageDocumentation
 * @module astro-content-publisher/head
 */
export {
  articleHead,
  type ArticleHead,
  type ArticleHeadEntry,
  type ArticleHeadOptions,
  type BlogPostingJsonLd,
  type HeadLink,
  type HeadMeta,
  type HeadParty,
  type JsonLdParty,
} from './article-head.js';
export { jsonLdText } from './json-ld.js';
