// URL fixes inside the HTML of RSS `description`/`content:encoded`. Feed readers resolve relative URLs
// inconsistently (against the feed URL, the item link, or not at all), so relative href/src/srcset/poster
// values are made absolute against the item's upstream link. The HTML itself is not re-serialised: only
// the attribute values are replaced, so everything else stays as the service wrote it.

const TAG = /<[a-zA-Z][^>]*>/g;
const URL_ATTRIBUTE = /(\s)(href|src|poster|srcset)(\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

function decodeAmp(value: string): string {
  return value.replaceAll('&amp;', '&');
}

function encodeAttr(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

function absolute(value: string, base: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#') || HAS_SCHEME.test(trimmed)) return value;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return value;
  }
}

/**
 * Returns the HTML with relative URLs made absolute against `base`; `mapLink` is then applied to every
 * (now absolute) `href`, so links to the service's pages can point at the blog. Images and media
 * (`src`, `srcset`, `poster`) are only made absolute: the blog does not host them.
 */
export function absolutizeHtmlUrls(html: string, base: string, mapLink: (absoluteUrl: string) => string): string {
  if (!html.includes('<')) return html;
  return html.replace(TAG, (tag) =>
    tag.replace(URL_ATTRIBUTE, (whole, space: string, name: string, eq: string, dq?: string, sq?: string, bare?: string) => {
      const raw = dq ?? sq ?? bare ?? '';
      const value = decodeAmp(raw);
      const lower = name.toLowerCase();
      let next: string;
      if (lower === 'srcset') {
        next = value
          .split(',')
          .map((candidate) => {
            const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
            return [absolute(url, base), ...descriptor].join(' ');
          })
          .join(', ');
      } else {
        next = absolute(value, base);
        if (lower === 'href' && HAS_SCHEME.test(next)) next = mapLink(next);
      }
      if (next === value) return whole;
      return `${space}${name}${eq}"${encodeAttr(next)}"`;
    }),
  );
}
