import { publisher } from './integration/index.js';

export {
  publisher,
  publisherOptionsSchema,
  UpstreamFeedError,
  type PublisherOptions,
  type SitemapOptions,
  type RssOptions,
  type DevRefreshOptions,
  type UpstreamFailure,
} from './integration/index.js';
export default publisher;
