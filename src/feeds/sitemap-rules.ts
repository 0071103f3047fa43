// What the sitemap writer keeps inside each <url>, and how each URL is written. The README's routes
// section documents the same table.

import type { ElementRule } from './allowlist-writer.js';
import { WELL_KNOWN_NAMESPACES as NS } from './xml-namespaces.js';

const text: ElementRule = { content: 'text' };

/** The W3C datetime profile the sitemap schema accepts for lastmod (a date, or a date and time with a zone). */
export const W3C_DATETIME = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;
/** An image, video or player file on the service's CDN: the blog does not have it, so the URL stays. */
const file: ElementRule = { content: 'text', url: 'file' };
const n = (uri: string | undefined, local: string): string => `${uri ?? ''}|${local}`;
const texts = (uri: string | undefined, locals: string[]): Record<string, ElementRule> =>
  Object.fromEntries(locals.map((l) => [n(uri, l), text]));

const image: ElementRule = {
  content: 'container',
  children: {
    [n(NS.image, 'loc')]: file,
    [n(NS.image, 'license')]: file,
    ...texts(NS.image, ['caption', 'geo_location', 'title']),
  },
};

const news: ElementRule = {
  content: 'container',
  children: {
    [n(NS.news, 'publication')]: { content: 'container', children: texts(NS.news, ['name', 'language']) },
    ...texts(NS.news, ['access', 'genres', 'publication_date', 'title', 'keywords', 'stock_tickers']),
  },
};

const video: ElementRule = {
  content: 'container',
  children: {
    [n(NS.video, 'thumbnail_loc')]: file,
    [n(NS.video, 'content_loc')]: file,
    [n(NS.video, 'player_loc')]: {
      content: 'text',
      url: 'file',
      attributes: { allow_embed: 'keep', autoplay: 'keep' },
    },
    [n(NS.video, 'restriction')]: { content: 'text', attributes: { relationship: 'keep' } },
    [n(NS.video, 'platform')]: { content: 'text', attributes: { relationship: 'keep' } },
    [n(NS.video, 'price')]: { content: 'text', attributes: { currency: 'keep', type: 'keep', resolution: 'keep' } },
    [n(NS.video, 'uploader')]: { content: 'text', attributes: { info: 'file' } },
    [n(NS.video, 'gallery_loc')]: { content: 'text', url: 'file', attributes: { title: 'keep' } },
    [n(NS.video, 'id')]: { content: 'text', attributes: { type: 'keep' } },
    ...texts(NS.video, [
      'title',
      'description',
      'duration',
      'expiration_date',
      'rating',
      'view_count',
      'publication_date',
      'family_friendly',
      'requires_subscription',
      'live',
      'tag',
      'category',
    ]),
  },
};

/** `<url>`: the sitemap 0.9 elements and the image, news, video and hreflang extensions. */
export const SITEMAP_URL: ElementRule = {
  content: 'container',
  children: {
    // Article pages and the other pages of the service's site: the blog has them.
    [n('', 'loc')]: { content: 'text', url: 'page' },
    // Values the sitemap schema refuses (a lastmod of "202-05-20", a priority of 5) are dropped: crawlers
    // ignore or reject them, and one would make the whole part invalid.
    [n('', 'lastmod')]: { content: 'text', pattern: W3C_DATETIME },
    [n('', 'changefreq')]: { content: 'text', pattern: /^(?:always|hourly|daily|weekly|monthly|yearly|never)$/ },
    [n('', 'priority')]: { content: 'text', pattern: /^(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/ },
    [n(NS.image, 'image')]: image,
    [n(NS.news, 'news')]: news,
    [n(NS.video, 'video')]: video,
    // Language versions of the page: pages of the same site, so they map like <loc>. An empty element
    // with these three attributes only.
    [n(NS.xhtml, 'link')]: {
      content: 'empty',
      attributes: { rel: 'keep', hreflang: 'keep', href: 'page' },
      requires: { rel: /^alternate$/i, href: /^https?:\/\//i },
    },
  },
};

/** `<sitemap>` of a sitemap index: its `<loc>` is handled by the index proxy, `<lastmod>` is kept. */
export const SITEMAP_INDEX_ENTRY: ElementRule = {
  content: 'container',
  children: { [n('', 'loc')]: file, [n('', 'lastmod')]: text },
};
