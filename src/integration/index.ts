// publisher(): the integration and its options; its hooks (integration.ts) wire the folders below, rss-handler.ts is ./rss.
export { publisher, INTEGRATION_NAME } from './integration.js';
export {
  publisherOptionsSchema,
  sitemapOptionsSchema,
  rssOptionsSchema,
  devRefreshOptionsSchema,
  type PublisherOptions,
  type SitemapOptions,
  type RssOptions,
  type DevRefreshOptions,
  type InvalidateOptions,
} from './options/options.js';
export { UpstreamFeedError, type UpstreamFailure } from '../client/public-feed.js';
