// Rewrites an upstream <urlset> so every URL on the service's domain points at the blog. String-level:
// each <url> element is copied from the source with only the URL values spliced in, which keeps
// lastmod/changefreq/priority, extension elements, CDATA and prefixes exactly as they were, and is fast
// enough for a 50,000-URL sitemap (see bench/).

import { z } from 'zod';
import { isOnOrigins, toOriginSet } from './article-url.js';
import { rewriteOptionsSchema, validateOptions } from './rewrite-options.js';
import { splice, strayAmpersandEdits, type Edit } from './splice.js';
import { childNamed, parseSitemapDocument, SITEMAP_NS } from './sitemap-parse.js';
import { packSitemap, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS, type SitemapOutput } from './sitemap-split.js';
import { attribute, attributesOf, namespaceOf, scanReferences, textOf, type XmlElement } from './xml-scan.js';
import { escapeXmlText } from './xml-text.js';

const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';

export const rewriteSitemapOptionsSchema = rewriteOptionsSchema.extend({
  /** The blog's own pages, added after the upstream URLs (sorted by loc; an upstream entry with the same loc wins). */
  extraUrls: z.array(z.object({ loc: z.url({ error: 'must hold absolute URLs' }), lastmod: z.string().optional() })).default([]),
  /**
   * Above this many URLs the output is a sitemap index plus parts.
   * @default 50000 (the sitemap protocol's limit)
   */
  maxUrlsPerFile: z.int().positive().max(SITEMAP_MAX_URLS).default(SITEMAP_MAX_URLS),
  /**
   * Above this many bytes (UTF-8) the output is a sitemap index plus parts.
   * @default 52428800 (50 MB, the sitemap protocol's limit)
   */
  maxBytesPerFile: z.int().min(1024).max(SITEMAP_MAX_BYTES).default(SITEMAP_MAX_BYTES),
  /** The public URL of part n (0-based) when the output is split, e.g. n => `https://blog.example.com/sitemap-${n}.xml`. */
  partUrl: z.custom<(n: number) => string>((v) => typeof v === 'function', { error: 'must be a function (n) => part URL' }),
});
export type RewriteSitemapOptions = z.input<typeof rewriteSitemapOptionsSchema>;

/** Escapes for an attribute value whatever its quote character. */
function escapeAttr(value: string): string {
  return escapeXmlText(value).replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

/**
 * Rewrites an upstream sitemap for the blog: every `<loc>`, `xhtml:link` href and `image:loc` on one of
 * `upstreamOrigins` goes through `mapUrl`; everything else in each `<url>` is kept as is; `extraUrls` are
 * appended; duplicates (by rewritten loc) are dropped, first one wins; order = upstream order, then the
 * extra URLs sorted. Over `maxUrlsPerFile`/`maxBytesPerFile` the result is a `<sitemapindex>` and parts.
 * An upstream `<sitemapindex>` is refused (XmlSafetyError, reason 'sitemap-index').
 */
export function rewriteSitemap(xml: string, options: RewriteSitemapOptions): SitemapOutput {
  const opts = validateOptions(rewriteSitemapOptionsSchema, options, 'rewriteSitemap');
  const doc = parseSitemapDocument(xml, { url: opts.url, maxBytes: opts.maxBytes });
  const source = doc.xml;
  const root = doc.root;
  const origins = toOriginSet(opts.upstreamOrigins);
  const rewrite = (value: string): string => (isOnOrigins(value, origins) ? opts.mapUrl(value) : value);
  const seen = new Set<string>();
  const entries: string[] = [];
  const rewriteText = (element: XmlElement, edits: Edit[]): string => {
    const value = textOf(source, element).trim();
    const next = rewrite(value);
    if (next !== value) edits.push({ start: element.startTagEnd, end: element.contentEnd, text: escapeXmlText(next) });
    return next;
  };

  for (const url of doc.urls) {
    const loc = childNamed(url, 'loc');
    if (!loc) continue; // a <url> without <loc> is invalid and useless to crawlers
    const edits: Edit[] = [];
    const newLoc = rewriteText(loc, edits);
    if (newLoc === '' || seen.has(newLoc)) continue;
    seen.add(newLoc);
    for (const child of url.children) {
      if (child.prefix === url.prefix) continue;
      if (child.local === 'link' && namespaceOf(source, child) === XHTML_NS) {
        const href = attribute(source, child, 'href');
        const next = href && rewrite(href.value.trim());
        if (href && next !== href.value.trim()) edits.push({ start: href.valueStart, end: href.valueEnd, text: escapeAttr(next ?? '') });
      } else if (child.local === 'image' && namespaceOf(source, child) === IMAGE_NS) {
        const imageLoc = childNamed(child, 'loc');
        if (imageLoc) rewriteText(imageLoc, edits);
      }
    }
    // Stray `&nbsp;`-like references copied as they are would make the output ill-formed for every reader.
    edits.push(...strayAmpersandEdits(doc.strayAmpersands, url.start, url.end, edits));
    entries.push(splice(source, url.start, url.end, edits));
  }

  const tag = root.prefix === '' ? '' : `${root.prefix}:`;
  const extras = [...opts.extraUrls].sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
  for (const extra of extras) {
    if (seen.has(extra.loc)) continue;
    seen.add(extra.loc);
    const lastmod = extra.lastmod ? `<${tag}lastmod>${escapeXmlText(extra.lastmod)}</${tag}lastmod>` : '';
    entries.push(`<${tag}url><${tag}loc>${escapeXmlText(extra.loc)}</${tag}loc>${lastmod}</${tag}url>`);
  }

  return packSitemap(entries, {
    open: openTag(source, root, doc.strayAmpersands),
    close: `</${root.name}>`,
    maxUrlsPerFile: opts.maxUrlsPerFile,
    maxBytesPerFile: opts.maxBytesPerFile,
    partUrl: opts.partUrl,
  });
}

/**
 * The upstream root start tag (so extension prefixes stay declared), bound to the sitemap 0.9 namespace:
 * some generators still use Google's pre-standard namespace or none, which no crawler's schema accepts.
 */
function openTag(xml: string, root: XmlElement, strayAmpersands: readonly number[]): string {
  const tag = sitemapStartTag(xml, root);
  if (strayAmpersandEdits(strayAmpersands, root.start, root.startTagEnd, []).length === 0) return tag;
  // Escape the root's stray `&`s in the built tag (a start tag holds no CDATA or comment to skip).
  return splice(tag, 0, tag.length, strayAmpersandEdits(scanReferences(tag).stray, 0, tag.length, []));
}

function sitemapStartTag(xml: string, root: XmlElement): string {
  let tag = xml.slice(root.start, root.startTagEnd);
  if (tag.endsWith('/>')) tag = `${tag.slice(0, -2).trimEnd()}>`;
  if (namespaceOf(xml, root) === SITEMAP_NS) return tag;
  const declaration = root.prefix === '' ? 'xmlns' : `xmlns:${root.prefix}`;
  const existing = attributesOf(xml, root).find((a) => a.name === declaration);
  if (existing) {
    const from = existing.valueStart - root.start;
    return tag.slice(0, from) + SITEMAP_NS + tag.slice(existing.valueEnd - root.start);
  }
  const nameEnd = 1 + root.name.length;
  return `${tag.slice(0, nameEnd)} ${declaration}="${SITEMAP_NS}"${tag.slice(nameEnd)}`;
}
