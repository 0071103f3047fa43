// Rewrites an upstream RSS feed for the blog at the string level: only the URL values are spliced in,
// so CDATA sections, namespaces, unknown extension elements, the items and their order stay intact.

import { z } from 'zod';
import { isOnOrigins, toOriginSet } from './article-url.js';
import { absolutizeHtmlUrls } from './html-urls.js';
import { rewriteOptionsSchema, validateOptions } from './rewrite-options.js';
import { ATOM_NS, contentEncodedOf, parseRssDocument } from './rss-parse.js';
import { splice, strayAmpersandEdits, type Edit } from './splice.js';
import { attribute, isSingleCdata, namespaceOf, textOf, type XmlElement } from './xml-scan.js';
import { escapeXmlAttribute, escapeXmlText, toCdata } from './xml-text.js';

export const rewriteRssOptionsSchema = rewriteOptionsSchema.extend({
  /** The feed's own public URL on the blog, written into `atom:link rel="self"`. */
  selfUrl: z.url({ error: 'must be the absolute URL of the blog\'s feed, e.g. https://blog.example.com/rss.xml' }),
});
export type RewriteRssOptions = z.input<typeof rewriteRssOptionsSchema>;

/**
 * Rewrites channel `link`, `atom:link rel="self"` (to `selfUrl`), item `link` and permalink `guid`s
 * (isPermaLink not "false") on `upstreamOrigins` through `mapUrl`; makes relative URLs in item
 * `description` and `content:encoded` absolute against the item's upstream link and maps their links.
 * The XML declaration is set to UTF-8, since the result is a JS string served as UTF-8.
 */
export function rewriteRss(xml: string, options: RewriteRssOptions): string {
  const opts = validateOptions(rewriteRssOptionsSchema, options, 'rewriteRss');
  const doc = parseRssDocument(xml, { url: opts.url, maxBytes: opts.maxBytes });
  const source = doc.xml;
  const origins = toOriginSet(opts.upstreamOrigins);
  const rewrite = (value: string): string => (isOnOrigins(value, origins) ? opts.mapUrl(value) : value);
  const edits: Edit[] = [];
  const plain = (parent: XmlElement, local: string): XmlElement | undefined =>
    parent.children.find((c) => c.prefix === '' && c.local === local);
  const rewriteText = (element: XmlElement | undefined): void => {
    if (!element) return;
    const value = textOf(source, element).trim();
    const next = rewrite(value);
    if (next !== value) edits.push({ start: element.startTagEnd, end: element.contentEnd, text: escapeXmlText(next) });
  };

  const declaration = /^<\?xml[^?]*?encoding\s*=\s*(["'])([^"']*)\1/.exec(source);
  if (declaration?.[2] !== undefined && declaration[2].toLowerCase() !== 'utf-8') {
    const end = declaration[0].length - 1;
    edits.push({ start: end - declaration[2].length, end, text: 'UTF-8' });
  }

  const channelLink = plain(doc.channel, 'link');
  rewriteText(channelLink);
  const image = plain(doc.channel, 'image');
  if (image) rewriteText(plain(image, 'link'));
  for (const child of doc.channel.children) {
    if (child.local !== 'link' || child.prefix === '' || namespaceOf(source, child) !== ATOM_NS) continue;
    if (attribute(source, child, 'rel')?.value !== 'self') continue;
    const href = attribute(source, child, 'href');
    if (href) edits.push({ start: href.valueStart, end: href.valueEnd, text: escapeXmlAttribute(opts.selfUrl) });
  }

  const fallbackBase = channelLink ? textOf(source, channelLink).trim() : opts.url;
  for (const item of doc.items) {
    const link = plain(item, 'link');
    const upstreamLink = link ? textOf(source, link).trim() : '';
    rewriteText(link);
    const guid = plain(item, 'guid');
    if (guid && attribute(source, guid, 'isPermaLink')?.value.trim() !== 'false') rewriteText(guid);
    const base = URL.canParse(upstreamLink) ? upstreamLink : URL.canParse(fallbackBase) ? fallbackBase : opts.url;
    for (const html of [plain(item, 'description'), contentEncodedOf(source, item)]) {
      if (!html || !URL.canParse(base)) continue;
      const before = textOf(source, html);
      const after = absolutizeHtmlUrls(before, base, rewrite);
      if (after === before) continue;
      // Keep the author's choice of CDATA vs escaped text.
      const text = isSingleCdata(source, html) ? toCdata(after) : escapeXmlText(after);
      edits.push({ start: html.startTagEnd, end: html.contentEnd, text });
    }
  }
  // Stray `&nbsp;`-like references copied as they are would make the output ill-formed for every reader.
  edits.push(...strayAmpersandEdits(doc.strayAmpersands, 0, source.length, edits));
  return splice(source, 0, source.length, edits);
}
