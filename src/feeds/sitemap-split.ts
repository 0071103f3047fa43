// Packs written sitemap <url> entries into one urlset or, over the protocol's limits, a sitemap index
// and parts. Each part listed in an index carries the newest <lastmod> of its URLs, so a crawler can skip
// the parts where nothing changed.

import { SITEMAP_NS } from './sitemap-parse.js';
import { W3C_DATETIME } from './sitemap-rules.js';
import { WELL_KNOWN_NAMESPACES as NS } from './xml-namespaces.js';
import { escapeXmlAttribute, escapeXmlText } from './xml-text.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** The sitemap protocol's limits per file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

/** Every urlset declares the sitemap namespace and the four extensions the writer may use. */
export const URLSET_OPEN = `<urlset xmlns="${SITEMAP_NS}"${(['image', 'news', 'video', 'xhtml'] as const).map((p) => ` xmlns:${p}="${escapeXmlAttribute(NS[p] ?? '')}"`).join('')}>`;
const URLSET_CLOSE = '</urlset>';

export type SitemapOutput = { kind: 'urlset'; xml: string } | { kind: 'index'; xml: string; parts: string[] };

/** One written `<url>` element with the values the packing needs. */
export interface WrittenUrl {
  xml: string;
  lastmod?: string | undefined;
}

/** URLs that belong together (one upstream part), with the upstream index's lastmod for them if any. */
export interface UrlGroup {
  entries: WrittenUrl[];
  lastmod?: string | undefined;
}

export interface PackOptions {
  maxUrlsPerFile: number;
  maxBytesPerFile: number;
  /** URL of part n (0-based), listed in the index. */
  partUrl: (n: number) => string;
}

/** The newest of W3C datetime values, as written; unparsable values are ignored. */
export function newestLastmod(values: Iterable<string | undefined>): string | undefined {
  let best: string | undefined;
  let bestTime = -Infinity;
  for (const value of values) {
    if (value === undefined || !W3C_DATETIME.test(value)) continue;
    const time = Date.parse(value);
    if (Number.isFinite(time) && time > bestTime) {
      best = value;
      bestTime = time;
    }
  }
  return best;
}

/** The first and last lines of a urlset, around one line per `<url>`. */
const HEAD_LINE = `${XML_DECLARATION}${URLSET_OPEN}`;
const TAIL_LINE = `${URLSET_CLOSE}\n`;
const FRAME = Buffer.byteLength(HEAD_LINE) + Buffer.byteLength(TAIL_LINE) + 2;

function urlset(entries: readonly WrittenUrl[]): string {
  if (entries.length === 0) return `${HEAD_LINE}\n\n${TAIL_LINE}`;
  // One join, the frame included: the part comes out as one flat string rather than a rope around the
  // joined entries, which whoever reads or sends it first copies again (7 MB for 50,000 URLs).
  const lines = [HEAD_LINE];
  for (const e of entries) lines.push(e.xml);
  lines.push(TAIL_LINE);
  return lines.join('\n');
}

export function packSitemap(entries: WrittenUrl[], opts: PackOptions): SitemapOutput {
  if (entries.length <= opts.maxUrlsPerFile) {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: when 3 times the length fits, the size does too, and
    // no entry needs measuring (measuring flattens each one, 50,000 copies in a large sitemap).
    let length = 0;
    for (const e of entries) length += e.xml.length + 1;
    if (FRAME + 3 * length <= opts.maxBytesPerFile) return { kind: 'urlset', xml: urlset(entries) };
    let total = FRAME;
    for (const e of entries) total += Buffer.byteLength(e.xml) + 1;
    if (total <= opts.maxBytesPerFile) return { kind: 'urlset', xml: urlset(entries) };
  }
  return packSitemapGroups([{ entries }], opts);
}

/** Parts written from one group, with the lastmod each will carry in the index. */
export interface PackedGroup {
  parts: string[];
  lastmods: Array<string | undefined>;
}

/**
 * One group in as few parts as the limits allow. Packing each upstream part as soon as it is written
 * keeps only the flat part texts alive, not every entry of every part (the peak memory of a proxied
 * 120,000-URL index stays near that of one 50,000-URL rewrite).
 */
export function packGroup(group: UrlGroup, opts: Pick<PackOptions, 'maxUrlsPerFile' | 'maxBytesPerFile'>): PackedGroup {
  const { entries } = group;
  const sizes = entries.map((e) => Buffer.byteLength(e.xml) + 1);
  const parts: string[] = [];
  const lastmods: Array<string | undefined> = [];
  let start = 0;
  while (start < entries.length) {
    let end = start;
    let bytes = FRAME;
    // Always take at least one entry, so a single oversized entry cannot loop forever.
    while (
      end < entries.length &&
      end - start < opts.maxUrlsPerFile &&
      (end === start || bytes + (sizes[end] ?? 0) <= opts.maxBytesPerFile)
    ) {
      bytes += sizes[end] ?? 0;
      end++;
    }
    const chunk = entries.slice(start, end);
    parts.push(urlset(chunk));
    lastmods.push(newestLastmod(chunk.map((e) => e.lastmod)));
    start = end;
  }
  // An upstream part written as one part keeps the upstream index's lastmod when it has a valid one.
  if (parts.length === 1 && group.lastmod !== undefined && W3C_DATETIME.test(group.lastmod))
    lastmods[0] = group.lastmod;
  return { parts, lastmods };
}

/** The sitemap index listing packed groups, in order. */
export function indexOf(
  groups: readonly PackedGroup[],
  partUrl: (n: number) => string,
): SitemapOutput & { kind: 'index' } {
  const parts = groups.flatMap((g) => g.parts);
  const lastmods = groups.flatMap((g) => g.lastmods);
  const list = parts
    .map((_, n) => {
      const lastmod = lastmods[n];
      return `<sitemap><loc>${escapeXmlText(partUrl(n))}</loc>${lastmod === undefined ? '' : `<lastmod>${escapeXmlText(lastmod)}</lastmod>`}</sitemap>`;
    })
    .join('\n');
  return {
    kind: 'index',
    xml: `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${list}\n</sitemapindex>\n`,
    parts,
  };
}

/** Always an index: each group in as few parts as the limits allow, in order. */
export function packSitemapGroups(groups: UrlGroup[], opts: PackOptions): SitemapOutput & { kind: 'index' } {
  return indexOf(
    groups.map((g) => packGroup(g, opts)),
    opts.partUrl,
  );
}
