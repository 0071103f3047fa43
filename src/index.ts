// The package's main entry point: the Astro integration (default export), its option types and the error
// its routes throw when the upstream feed fails.
/**
 * The Astro integration (default export): the `/sitemap.xml`, `/rss.xml` and `robots.txt` routes, the dev refresh, its option types and the error its routes throw.
 *
 * @packageDocumentation
 * @module astro-content-publisher
 */
import { publisher } from './integration/index.js';

export {
  publisher,
  UpstreamFeedError,
  type PublisherOptions,
  type SitemapOptions,
  type RssOptions,
  type DevRefreshOptions,
  type InvalidateOptions,
  type UpstreamFailure,
} from './integration/index.js';
export default publisher;
