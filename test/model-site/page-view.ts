/**
 * What an article page of the model site shows, read from its HTML as served (the fixture's own markup:
 * `<article data-lang data-slug data-featured>`, `<h1>`, `img.featured`, the body's marker, images and links).
 */

export interface PageView {
  title: string | undefined;
  /** `lang:slug` of every marker in the article (not the head's description, which repeats it) (`mark-<lang>-<slug>-v<n>-end`) with its version. */
  markers: Array<{ key: string; version: number }>;
  /** The same for the body's last paragraph (`tail-<lang>-<slug>-v<n>-end`): a cut or teaser copy lacks it. */
  tails: Array<{ key: string; version: number }>;
  /** The remote featured image URL the page names (`data-featured`), '' for none. */
  featuredUrl: string;
  /** `src` and `srcset` URLs of the featured image element, if any. */
  featuredImg: { src: string; srcset: string[] } | undefined;
  /** `og:image`: the featured image's original (`featuredImageAsset.src`), as themes put it in the head. */
  ogImage: string | undefined;
  /** Every other `<img>` (the body's): its `src` and `srcset` URLs. */
  bodyImgs: Array<{ src: string; srcset: string[] }>;
  /** `href` of every link inside the article body. */
  links: string[];
  /** Where a redirect page (`<meta http-equiv="refresh">`, a renamed article's old URL) sends the reader. */
  redirectTo: string | undefined;
}

/** Text as HTML wrote it, its character references read (`&amp;`, `&lt;`, `&#34;`, `&#x27;` ...). */
const text = (html: string) =>
  html.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, ref: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref[0] !== '#') return named[ref.toLowerCase()]!;
    return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
  });

const attr = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1]?.replaceAll('&amp;', '&');
};

const srcsetUrls = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');

const marks = (html: string, which: 'mark' | 'tail') =>
  [...html.matchAll(new RegExp(`${which}-(en|fr)-([^\\s<>"]+?)-v(\\d+)-end`, 'g'))].map((m) => ({
    key: `${m[1]}:${m[2]}`,
    version: Number(m[3]),
  }));

export function readPage(html: string): PageView {
  const article = /<article\b[^>]*>/.exec(html)?.[0] ?? '';
  const body = /<div class="body">([\s\S]*)<\/div>\s*<\/article>/.exec(html)?.[1] ?? '';
  const imgs = [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
  const featured = imgs.find((tag) => /\sclass="[^"]*\bfeatured\b/.test(tag));
  const view = (tag: string) => ({ src: attr(tag, 'src') ?? '', srcset: srcsetUrls(attr(tag, 'srcset')) });
  const h1 = /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
  return {
    title: h1 === undefined ? undefined : text(h1),
    markers: marks(article + body, 'mark'),
    tails: marks(body, 'tail'),
    featuredUrl: attr(article, 'data-featured') ?? '',
    featuredImg: featured ? view(featured) : undefined,
    ogImage: attr(/<meta property="og:image"[^>]*>/.exec(html)?.[0] ?? '', 'content'),
    bodyImgs: imgs.filter((tag) => tag !== featured).map(view),
    links: [...body.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&')),
    redirectTo: /<meta http-equiv="refresh" content="\d+;url=([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&'),
  };
}

/** The featured image version a URL names (`.../<slug>/featured-<lang>-<n>.jpg`), null for none. */
export function featuredVersion(url: string, lang: string, slug: string): number | null | 'foreign' {
  if (url === '') return null;
  const match = new RegExp(`/sites/\\d+/${slug}/featured-${lang}-(\\d+)\\.jpg$`).exec(decodeURI(url));
  return match ? Number(match[1]) : 'foreign';
}

/** Every `<loc>` of a sitemap (or sitemap index) document. */
export const locsOf = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

/** Every item `<link>` of an RSS document. */
export const itemLinksOf = (xml: string) =>
  [...xml.matchAll(/<item>[\s\S]*?<link>([^<]*)<\/link>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
