/**
 * The pure half of the image step: find the `<img>` of sanitised article HTML, decide which may be fetched,
 * and swap each fetched one for the placeholder that Astro's `render(entry)` resolves through its image
 * service (`__ASTRO_IMAGE_="{json}"`, the content layer's contract for rendered HTML, as Markdown uses it).
 * Works on the sanitiser's output only: well-formed tags, every attribute double-quoted.
 */

export interface ArticleImage {
  /** The whole tag as it appears in the HTML. */
  tag: string;
  src: string;
  attributes: Record<string, string>;
}

/** Formats Astro's image service reads and re-encodes. SVG is left out on purpose: never fetched, never inlined. */
export const RASTER_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

const IMG_TAG = /<img\b[^>]*>/g;
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)="([^"]*)"/g;

function decodeAttribute(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

function encodeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Every `<img>` with an http(s) `src`, in document order. */
export function findImages(html: string): ArticleImage[] {
  const out: ArticleImage[] = [];
  for (const [tag] of html.matchAll(IMG_TAG)) {
    const attributes: Record<string, string> = {};
    for (const [, name, value] of tag.matchAll(ATTRIBUTE))
      if (name && value !== undefined) attributes[name.toLowerCase()] = decodeAttribute(value);
    const src = attributes.src;
    if (src && /^https?:\/\//i.test(src)) out.push({ tag, src, attributes });
  }
  return out;
}

/** Astro's `image.remotePatterns` entry (the same shape, read from the user's config). */
export interface RemotePattern {
  protocol?: string;
  hostname?: string;
  port?: string;
  pathname?: string;
}

function matchHostname(hostname: string, pattern: string): boolean {
  if (pattern.startsWith('**.')) return hostname.endsWith(pattern.slice(2));
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return hostname.endsWith(suffix) && !hostname.slice(0, -suffix.length).includes('.');
  }
  return hostname === pattern;
}

function matchPathname(pathname: string, pattern: string): boolean {
  if (pattern.endsWith('/**')) return pathname.startsWith(pattern.slice(0, -2));
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -1);
    return pathname.startsWith(base) && !pathname.slice(base.length).includes('/');
  }
  return pathname === pattern;
}

/** Whether Astro would optimise this remote URL: the same rules as `image.domains` / `image.remotePatterns`. */
export function isAllowedImageUrl(
  src: string,
  allow: { domains?: readonly string[]; remotePatterns?: readonly RemotePattern[] },
): boolean {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  if (allow.domains?.includes(url.hostname)) return true;
  return (allow.remotePatterns ?? []).some(
    (p) =>
      (!p.protocol || `${p.protocol.replace(/:$/, '')}:` === url.protocol) &&
      (!p.hostname || matchHostname(url.hostname, p.hostname)) &&
      // A URL on its protocol's default port has an empty `port`; a pattern naming that port matches it.
      (!p.port || p.port === (url.port || (url.protocol === 'https:' ? '443' : '80'))) &&
      (!p.pathname || matchPathname(url.pathname, p.pathname)),
  );
}

/** Whether a URL names an SVG by its path (checked again on the response's type). */
export function looksLikeSvg(src: string): boolean {
  try {
    return new URL(src).pathname.toLowerCase().endsWith('.svg');
  } catch {
    return false;
  }
}

/** What Astro's `getImage` receives for one image: responsive (`srcset`/`sizes`), dimensions kept. */
export interface ImagePlaceholder {
  src: string;
  alt: string;
  index: number;
  width?: number;
  height?: number;
  layout: 'constrained';
  loading?: string;
  decoding?: string;
  title?: string;
}

function dimension(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= 20_000 ? n : undefined;
}

/** The placeholder tag for one image; `localSrc` is the downloaded copy the content layer imports. */
export function placeholderTag(image: ArticleImage, localSrc: string, index: number): string {
  const a = image.attributes;
  const props: ImagePlaceholder = {
    src: localSrc,
    alt: a.alt ?? '',
    index,
    layout: 'constrained',
    ...(dimension(a.width) ? { width: dimension(a.width) } : {}),
    ...(dimension(a.height) ? { height: dimension(a.height) } : {}),
    ...(a.loading ? { loading: a.loading } : {}),
    ...(a.decoding ? { decoding: a.decoding } : {}),
    ...(a.title ? { title: a.title } : {}),
  };
  return `<img __ASTRO_IMAGE_="${encodeAttribute(JSON.stringify(props))}">`;
}

/** Replaces the tags of the images that have a local copy; the others keep their remote URL untouched. */
export function replaceImages(
  html: string,
  local: ReadonlyMap<string, string>,
): { html: string; imagePaths: string[] } {
  const imagePaths: string[] = [];
  let index = 0;
  // Astro scans the whole HTML for `__ASTRO_IMAGE_="..."`: the same characters in the article's text (an
  // article about Astro, or a hostile service) would be parsed as a placeholder and fail the page. An entity
  // for the last underscore reads the same in a browser and matches nothing.
  const neutral = local.size > 0 ? html.replaceAll('__ASTRO_IMAGE_', '__ASTRO_IMAGE&#95;') : html;
  const out = neutral.replace(IMG_TAG, (tag) => {
    const image = findImages(tag)[0];
    const localSrc = image ? local.get(image.src) : undefined;
    if (!image || !localSrc) return tag;
    if (!imagePaths.includes(localSrc)) imagePaths.push(localSrc);
    return placeholderTag(image, localSrc, index++);
  });
  return { html: out, imagePaths };
}
