// Writes an upstream <urlset> for the blog from an allow-list (see sitemap-rules.ts): each <url> with
// the sitemap 0.9 elements and the image, news, video and hreflang extensions, its page URLs pointing at
// the blog, files on the service's CDN unchanged, and nothing else. Linear in the document: one pass
// over the <url> elements, namespace declarations read once per start tag (see bench/).

import { z } from 'zod';
import { AllowListWriter, type UrlKind } from './allowlist-writer.js';
import { isOnOrigins, toOriginSet } from './article-url.js';
import { rewriteOptionsSchema, validateOptions } from './rewrite-options.js';
import { childNamed, parseSitemapDocument, SITEMAP_NS, type SitemapDocument } from './sitemap-parse.js';
import { SITEMAP_URL } from './sitemap-rules.js';
import {
  packSitemap,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  type SitemapOutput,
  type WrittenUrl,
} from './sitemap-split.js';
import { NamespaceResolver } from './xml-namespaces.js';
import { textOf, type XmlElement } from './xml-scan.js';
import { escapeXmlAttribute, escapeXmlText } from './xml-text.js';

export const rewriteSitemapOptionsSchema = rewriteOptionsSchema.extend({
  /** The blog's own pages, added after the upstream URLs (sorted by loc; an upstream entry with the same loc wins). */
  extraUrls: z
    .array(z.object({ loc: z.url({ error: 'must hold absolute URLs' }), lastmod: z.string().optional() }))
    .default([]),
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
  partUrl: z.custom<(n: number) => string>((v) => typeof v === 'function', {
    error: 'must be a function (n) => part URL',
  }),
});
export type RewriteSitemapOptions = z.input<typeof rewriteSitemapOptionsSchema>;

export interface WriteUrlsOptions {
  url: string;
  upstreamOrigins: readonly string[];
  mapUrl: (upstream: string) => string;
  /** Rewritten locs already written (by an earlier part): later duplicates are dropped. */
  seen: Set<string>;
  onWarning?: ((message: string) => void) | undefined;
  /**
   * `hreflang` alternates to add to the `<url>` of a rewritten loc (one per language version, itself
   * included), unless the upstream `<url>` already has some.
   */
  alternates?: ((loc: string) => ReadonlyArray<{ hreflang: string; href: string }>) | undefined;
  /**
   * Whether the `<url>` of an upstream `<loc>` (trimmed) is written at all: false leaves it out (a page the
   * blog does not have), decided on the one parse of the document.
   * @default every `<url>` is written
   */
  keep?: ((loc: string) => boolean) | undefined;
}

/** The `<xhtml:link>` elements of the alternates (the urlset declares the `xhtml` prefix). */
function alternateLinks(links: ReadonlyArray<{ hreflang: string; href: string }>): string {
  return links
    .map(
      (link) =>
        `<xhtml:link rel="alternate" hreflang="${escapeXmlAttribute(link.hreflang)}" href="${escapeXmlAttribute(link.href)}"/>`,
    )
    .join('');
}

/**
 * The `<url>` elements of a parsed urlset written for the blog, those `keep` refuses and duplicates (by
 * rewritten loc) dropped.
 */
export function writeSitemapUrls(doc: SitemapDocument, opts: WriteUrlsOptions): WrittenUrl[] {
  const source = doc.xml;
  const origins = toOriginSet(opts.upstreamOrigins);
  const ns = new NamespaceResolver(source);
  // The <loc> is mapped once for the duplicate check and again by the writer: remember the last one.
  let lastUpstream = '';
  let lastMapped = '';
  const page = (value: string): string => {
    if (value !== lastUpstream) {
      lastUpstream = value;
      lastMapped = isOnOrigins(value, origins) ? opts.mapUrl(value) : value;
    }
    return lastMapped;
  };
  // The writer maps the <loc> of the <url> being written to the newLoc already mapped for the check.
  let locElement: XmlElement | undefined;
  let newLoc = '';
  const writer = new AllowListWriter({
    xml: source,
    ns,
    sourceNs: ns.resolve(doc.root) ?? '',
    targetNs: SITEMAP_NS,
    mapUrl: (kind: UrlKind, value: string, element: XmlElement) =>
      kind === 'file' ? value : element === locElement ? newLoc : page(value),
    html: (text) => text,
  });
  const out: WrittenUrl[] = [];
  for (const url of doc.urls) {
    const loc = childNamed(url, 'loc');
    if (!loc) continue; // a <url> without <loc> is invalid and useless to crawlers
    const upstream = textOf(source, loc).trim();
    if (opts.keep !== undefined && !opts.keep(upstream)) continue;
    locElement = loc;
    newLoc = page(upstream);
    if (newLoc === '' || opts.seen.has(newLoc)) continue;
    opts.seen.add(newLoc);
    const lastmod = childNamed(url, 'lastmod');
    let xml = writer.write(url, SITEMAP_URL);
    const alternates = opts.alternates?.(newLoc);
    if (alternates !== undefined && alternates.length > 0) {
      const close = xml.lastIndexOf('</');
      if (close > 0 && !xml.includes('hreflang='))
        xml = xml.slice(0, close) + alternateLinks(alternates) + xml.slice(close);
    }
    out.push({
      xml,
      lastmod: lastmod ? textOf(source, lastmod).trim() || undefined : undefined,
    });
  }
  for (const warning of [...doc.warnings, ...writer.warnings(`The sitemap at ${opts.url}`)]) opts.onWarning?.(warning);
  return out;
}

/** The blog's own pages as `<url>` entries, sorted by loc, skipping those already written. */
export function writeExtraUrls(
  extraUrls: ReadonlyArray<{ loc: string; lastmod?: string | undefined }>,
  seen: Set<string>,
): WrittenUrl[] {
  const out: WrittenUrl[] = [];
  const extras = [...extraUrls].sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
  for (const extra of extras) {
    if (seen.has(extra.loc)) continue;
    seen.add(extra.loc);
    const lastmod = extra.lastmod ? `<lastmod>${escapeXmlText(extra.lastmod)}</lastmod>` : '';
    out.push({ xml: `<url><loc>${escapeXmlText(extra.loc)}</loc>${lastmod}</url>`, lastmod: extra.lastmod });
  }
  return out;
}

/**
 * Rewrites an upstream sitemap for the blog: every `<loc>` and `xhtml:link` href on one of
 * `upstreamOrigins` goes through `mapUrl`; image, video and player files keep their URL; `extraUrls` are
 * appended; duplicates (by rewritten loc) are dropped, first one wins; order = upstream order, then the
 * extra URLs sorted. Over `maxUrlsPerFile`/`maxBytesPerFile` the result is a `<sitemapindex>` (each part
 * with the newest lastmod of its URLs) and parts. An upstream `<sitemapindex>` is refused here
 * (XmlSafetyError, reason 'sitemap-index'): see sitemap-index.ts for proxying one.
 */
export function rewriteSitemap(xml: string | Uint8Array, options: RewriteSitemapOptions): SitemapOutput {
  const opts = validateOptions(rewriteSitemapOptionsSchema, options, 'rewriteSitemap');
  const doc = parseSitemapDocument(xml, { url: opts.url, maxBytes: opts.maxBytes });
  const seen = new Set<string>();
  const entries = writeSitemapUrls(doc, {
    url: opts.url,
    upstreamOrigins: opts.upstreamOrigins,
    mapUrl: opts.mapUrl,
    seen,
    onWarning: opts.onWarning,
  });
  entries.push(...writeExtraUrls(opts.extraUrls, seen));
  return packSitemap(entries, {
    maxUrlsPerFile: opts.maxUrlsPerFile,
    maxBytesPerFile: opts.maxBytesPerFile,
    partUrl: opts.partUrl,
  });
}
