/**
 * The documented type of `rssHandler(options)`: what an editor shows on hover. Proven equal to the schema's
 * input in ./rss-customize.ts (see src/options/documented.ts), which stays the one definition.
 */
import type { z } from 'zod';
import type { Documents, Proof } from '../../options/documented.js';
import type { ExtraRssItem, RssItemView, rssHandlerOptionsSchema } from './rss-customize.js';

/** The options of `rssHandler(options)` from `astro-content-publisher/rss`. */
export interface RssHandlerOptions {
  /**
   * The channel's `<title>`.
   * @default the service's channel title
   */
  title?: string | undefined;
  /**
   * The channel's `<description>`.
   * @default the service's channel description
   */
  description?: string | undefined;
  /**
   * Only the service's articles in this language (as the loaders recorded them, e.g. `'en'`).
   * @default undefined (every language)
   */
  language?: string | undefined;
  /**
   * Items of the blog's own (local posts), merged with the service's by `pubDate`, newest first: `title`, `link`
   * (a path goes under the blog's base, with its `trailingSlash`), `pubDate`, `description`, `categories`; other
   * fields (a spread frontmatter) are ignored.
   * @default []
   */
  items?: ExtraRssItem[] | undefined;
  /**
   * Called for each of the service's items; return `false` to leave it out.
   * @default undefined (every item the blog has)
   */
  filter?: ((item: RssItemView) => boolean) | undefined;
}

export type RssHandlerOptionsMatchSchema = Proof<Documents<RssHandlerOptions, z.input<typeof rssHandlerOptionsSchema>>>;
