/**
 * The sitemap protocol's bound on URLs per file (50,000), applied to an upstream `<urlset>` before it is parsed.
 * The size cap alone (50 MiB) lets one file hold about 520,000 short URLs: 12 s of CPU per refresh on demand,
 * repeated every minute under `no-store`. Pure: the document is cut after its 50,000th `</url>` and closed.
 * One pass of `indexOf` over the text, so counting what lies beyond costs far less than parsing it.
 */

/** The protocol's limit: "no more than 50,000 URLs" per sitemap file. */
export const MAX_UPSTREAM_URLS = 50_000;

export interface BoundedUrlset {
  /** The document, cut after the last URL kept (unchanged when within the bound or not a urlset). */
  xml: string;
  /** The `<url>` elements the upstream file holds, counted only when over the bound. */
  total?: number;
}

// The root start tag, after the prolog: its prefix names the `<url>` elements (`<sm:urlset>`, `<sm:url>`).
const URLSET_START = /<(?:([A-Za-z_][\w.-]*):)?urlset[\s>/]/;

/**
 * `xml` with at most `max` `<url>` elements: cut after the `max`-th end tag and closed with the root's end tag.
 * End tags inside comments and CDATA sections are skipped. A document that is not a urlset (an index, not XML)
 * is returned as it is: the safe parse decides about it.
 */
export function boundUrlset(xml: string, max = MAX_UPSTREAM_URLS): BoundedUrlset {
  const root = URLSET_START.exec(xml.slice(0, 64 * 1024));
  if (!root) return { xml };
  const prefix = root[1] === undefined ? '' : `${root[1]}:`;
  const end = `</${prefix}url>`;
  let count = 0;
  let cut = -1;
  let pos = root.index;
  for (;;) {
    const lt = xml.indexOf('<', pos);
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      const close = xml.indexOf('-->', lt + 4);
      if (close === -1) break;
      pos = close + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const close = xml.indexOf(']]>', lt + 9);
      if (close === -1) break;
      pos = close + 3;
    } else if (xml.startsWith(end, lt)) {
      count += 1;
      pos = lt + end.length;
      if (count === max) cut = pos;
    } else pos = lt + 1;
  }
  if (cut === -1 || count === max) return { xml };
  return { xml: `${xml.slice(0, cut)}\n</${prefix}urlset>\n`, total: count };
}

/** The warning for a cut file: what was kept, why, and what the service should do. */
export function urlBoundWarning(url: string, total: number, max = MAX_UPSTREAM_URLS): string {
  return (
    `[astro-content-publisher] The sitemap ${url} lists ${total.toLocaleString('en-US')} URLs; the sitemap protocol ` +
    `allows ${max.toLocaleString('en-US')} per file, so only its first ${max.toLocaleString('en-US')} are served. ` +
    'A larger site needs a sitemap index upstream (its parts are proxied).'
  );
}
