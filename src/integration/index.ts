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
} from './options.js';
export { UpstreamFeedError, type UpstreamFailure } from '../client/public-feed.js';
