// Packs sitemap <url> entries into one urlset or, over the protocol's limits, a sitemap index and parts.

import { SITEMAP_NS } from './sitemap-parse.js';
import { escapeXmlText } from './xml-text.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** The sitemap protocol's limits per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export type SitemapOutput = { kind: 'urlset'; xml: string } | { kind: 'index'; xml: string; parts: string[] };

export interface PackOptions {
  /** The urlset start tag (with its namespace declarations) and end tag. */
  open: string;
  close: string;
  maxUrlsPerFile: number;
  maxBytesPerFile: number;
  /** URL of part n (0-based), listed in the index. */
  partUrl: (n: number) => string;
}

export function packSitemap(entries: string[], opts: PackOptions): SitemapOutput {
  const head = `${XML_DECLARATION}${opts.open}\n`;
  const tail = `\n${opts.close}\n`;
  const frame = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const sizes = entries.map((e) => Buffer.byteLength(e) + 1);
  const total = sizes.reduce((a, b) => a + b, frame);
  if (entries.length <= opts.maxUrlsPerFile && total <= opts.maxBytesPerFile) {
    return { kind: 'urlset', xml: head + entries.join('\n') + tail };
  }
  const parts: string[] = [];
  let start = 0;
  while (start < entries.length) {
    let end = start;
    let bytes = frame;
    // Always take at least one entry, so a single oversized entry cannot loop forever.
    while (end < entries.length && end - start < opts.maxUrlsPerFile && (end === start || bytes + (sizes[end] ?? 0) <= opts.maxBytesPerFile)) {
      bytes += sizes[end] ?? 0;
      end++;
    }
    parts.push(head + entries.slice(start, end).join('\n') + tail);
    start = end;
  }
  const list = parts.map((_, n) => `<sitemap><loc>${escapeXmlText(opts.partUrl(n))}</loc></sitemap>`).join('\n');
  return { kind: 'index', xml: `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${list}\n</sitemapindex>\n`, parts };
}
