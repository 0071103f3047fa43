// Writes an upstream RSS feed (2.0, 0.9x or 1.0) for the blog from an allow-list (see rss-rules.ts and
// allowlist-writer.ts): the listed elements with their text, URLs of the service's pages pointing at the
// blog, article HTML run through the package's sanitiser, and nothing else.

import { z } from 'zod';
import { sanitizeArticle } from '../html/index.js';
import { AllowListWriter, type UrlKind } from './allowlist-writer.js';
import { isOnOrigins, toOriginSet } from './article-url.js';
import { mapSanitizedLinks } from './html-links.js';
import { rewriteOptionsSchema, validateOptions } from './rewrite-options.js';
import { parseRssDocument, type RssDocument } from './rss-parse.js';
import { RSS1_ROOT, RSS2_ROOT, RSS2_ROOT_WITHOUT_CHANNEL } from './rss-rules.js';
import { XML_DECLARATION } from './sitemap-split.js';
import { declaredBaseOf, resolveAgainst } from './xml-base.js';
import { NamespaceResolver, RDF_NS } from './xml-namespaces.js';
import { attributesOf, textOf, type XmlElement } from './xml-scan.js';

export const rewriteRssOptionsSchema = rewriteOptionsSchema.extend({
  /** The feed's own public URL on the blog, written into `atom:link rel="self"`. */
  selfUrl: z.url({ error: "must be the absolute URL of the blog's feed, e.g. https://blog.example.com/rss.xml" }),
  /**
   * Maps a link inside an item's HTML (on one of `upstreamOrigins`), given the item's own link: a link that
   * names no language is then settled by the item's, as in the article's page.
   * @default mapUrl
   */
  mapItemLink: z
    .custom<(upstream: string, itemUrl: string) => string>((v) => typeof v === 'function', {
      error: 'must be a function (upstream URL, item URL) => blog URL',
    })
    .optional(),
});
export type RewriteRssOptions = z.input<typeof rewriteRssOptionsSchema>;

/**
 * The upstream page an item's HTML belongs to: its `<link>`, else its RSS 1.0 `rdf:about`; a relative one resolved
 * against the `xml:base` in scope.
 */
function itemLink(
  xml: string,
  item: XmlElement | undefined,
  baseOf: (element: XmlElement) => string | undefined,
): string | undefined {
  if (!item) return undefined;
  const link = item.children.find((c) => c.local === 'link' && c.prefix === '');
  const value = link
    ? resolveAgainst(textOf(xml, link).trim(), baseOf(link))
    : attributesOf(xml, item)
        .find((a) => a.name.endsWith(':about') || a.name === 'about')
        ?.value.trim();
  return value !== undefined && URL.canParse(value) ? value : undefined;
}

/**
 * Writes the feed for the blog: channel and item `<link>`, permalink `<guid>`s (every one of them),
 * `<comments>`, `feedburner:origLink` and RSS 1.0 `rdf:about`/`rdf:resource` on `upstreamOrigins` go
 * through `mapUrl`; `atom:link rel="self"` becomes `selfUrl`; files (enclosures, media, images) keep their
 * URL. Item `description` and `content:encoded` are sanitised as articles whose address is the item's
 * link (relative URLs resolved, links to the service mapped). A relative URL under a declared `xml:base` is
 * resolved against it (the output declares none). Output: UTF-8, every prefix declared, no
 * processing instruction, comment or XHTML/SVG/MathML element. Throws XmlSafetyError for unsafe input.
 */
export function rewriteRss(xml: string | Uint8Array, options: RewriteRssOptions): string {
  const opts = validateOptions(rewriteRssOptionsSchema, options, 'rewriteRss');
  return writeRss(parseRssDocument(xml, { url: opts.url, maxBytes: opts.maxBytes }), opts);
}

/**
 * `rewriteRss` of a feed already parsed with parseRssDocument, writing only the `<item>`s `keepItem` accepts:
 * the feed route reads the feed's links and decides what the blog lists on the one parse of the feed.
 */
export function rewriteRssDocument(
  doc: RssDocument,
  options: RewriteRssOptions,
  keepItem?: (item: XmlElement) => boolean,
): string {
  return writeRss(doc, validateOptions(rewriteRssOptionsSchema, options, 'rewriteRss'), keepItem);
}

function writeRss(
  doc: RssDocument,
  opts: z.output<typeof rewriteRssOptionsSchema>,
  keepItem?: (item: XmlElement) => boolean,
): string {
  const source = doc.xml;
  const origins = toOriginSet(opts.upstreamOrigins);
  const page = (value: string): string => (isOnOrigins(value, origins) ? opts.mapUrl(value) : value);
  // Relative links resolve against the `xml:base` declared around them (root, channel or item), where one is.
  const baseOf = declaredBaseOf(source, opts.url);
  const channelLink = itemLink(source, doc.channel, baseOf);
  const ns = new NamespaceResolver(source);
  const rss1 = doc.root.local === 'RDF';
  const sourceNs = (rss1 ? ns.resolve(doc.channel) : ns.resolve(doc.root)) ?? '';
  const writer = new AllowListWriter({
    xml: source,
    ns,
    sourceNs,
    targetNs: rss1 ? sourceNs : '',
    mapUrl: (kind: UrlKind, value: string, element: XmlElement) => {
      if (kind === 'self') return opts.selfUrl;
      const url = resolveAgainst(value, baseOf(element));
      return kind === 'page' ? page(url) : url;
    },
    omit: keepItem && new Set(doc.items.filter((item) => !keepItem(item))),
    html: (html, element) => {
      const articleUrl = baseOf(element) ?? itemLink(source, element.parent, baseOf) ?? channelLink ?? opts.url;
      const mapItemLink = opts.mapItemLink;
      const link = mapItemLink
        ? (value: string) => (isOnOrigins(value, origins) ? mapItemLink(value, articleUrl) : value)
        : page;
      return mapSanitizedLinks(sanitizeArticle(html, { articleUrl }).html, link);
    },
  });
  const body = writer.write(
    doc.root,
    rss1 ? RSS1_ROOT : doc.channel === doc.root ? RSS2_ROOT_WITHOUT_CHANNEL : RSS2_ROOT,
  );
  // The root's start tag ends at its first '>': attribute values are written escaped.
  const tagEnd = body.indexOf('>');
  for (const warning of [...doc.warnings, ...writer.warnings(`The RSS feed at ${opts.url}`)]) opts.onWarning?.(warning);
  return `${XML_DECLARATION}${body.slice(0, tagEnd)}${writer.declarations(rss1 ? [RDF_NS] : [])}${body.slice(tagEnd)}\n`;
}
