/**
 * Everything a page's head needs for one article, from its entry, as a plain object (issue 38, item 2): the
 * title, the meta description, the blog's canonical URL, Open Graph and `article:` tags, the Twitter card, the
 * `hreflang` alternates and JSON-LD `BlogPosting`. Pure: the component (components/ArticleHead.astro) or the
 * theme's own head passes what only a page knows (its URL, the optimised image, the other languages' URLs).
 * Fields the article lacks are left out, never written as "undefined".
 */
import type { BlogPosting, ImageObject, Organization, Person, WithContext } from 'schema-dts';
import { entryDescription } from '../loader/entries/theme-fields.js';
import { jsonLdText } from './json-ld.js';

/** Where an entry keeps its article's fields when the collection's schema reshaped them (loader/entries/entry-schema.ts). */
const SERVICE_DATA = 'serviceData';

/** An entry of `articlesLoader` (`getCollection`, `getEntry`), whatever schema the collection maps it with. */
export interface ArticleHeadEntry {
  data: object;
  rendered?: { metadata?: object | undefined } | undefined;
}

/** A person or an organisation named as the articles' author or publisher. */
export interface HeadParty {
  name: string;
  /** Its page (absolute, or a path on the blog). */
  url?: string | undefined;
  /** @default 'Person' for an author, 'Organization' for the publisher */
  type?: 'Person' | 'Organization' | undefined;
  /** The publisher's logo (absolute, or a path on the blog). */
  logo?: string | undefined;
}

/** `articleHead`'s options: what only the page (and the blog's owner) knows. */
export interface ArticleHeadOptions {
  /** The blog's site URL (`Astro.site`): every URL of the head is made absolute against it. */
  site: URL | string;
  /** The article page's URL (`Astro.url`, or the URL the sitemap lists): the canonical URL is its path on `site`. */
  url: URL | string;
  /**
   * The featured image as the page serves it: the result of Astro's `getImage()` (or an `ImageMetadata`, or a
   * URL). Its URL is made absolute against `site`.
   * @default the article's `featuredImage` (the service's URL), when it has one
   */
  image?: string | { src: string; width?: number | undefined; height?: number | undefined } | undefined;
  /** The other languages' pages of the article (itself included or not): `hreflang` links, where there are two or more. */
  alternates?: ReadonlyArray<{ hreflang: string; href: string }> | undefined;
  /** The blog (or company) publishing the articles: JSON-LD `publisher` and `og:site_name`. */
  publisher?: HeadParty | undefined;
  /** The articles' author(s): JSON-LD `author`. */
  author?: HeadParty | readonly HeadParty[] | undefined;
  /** @default 'summary_large_image' with an image, else 'summary' */
  twitterCard?: 'summary' | 'summary_large_image' | undefined;
}

/** One `<meta>` element: by `name` (description, twitter:*) or by `property` (og:*, article:*). */
export type HeadMeta = { name: string; content: string } | { property: string; content: string };

/** One `<link>` element: the canonical URL, or an `hreflang` alternate. */
export interface HeadLink {
  rel: 'canonical' | 'alternate';
  href: string;
  hreflang?: string | undefined;
}

/** The JSON-LD `BlogPosting` of an article, as `articleHead` writes it (schema.org's type, the fields it sets). */
export interface BlogPostingJsonLd {
  '@context': 'https://schema.org';
  '@type': 'BlogPosting';
  headline: string;
  description?: string;
  datePublished?: string;
  dateModified?: string;
  image?: string[];
  url: string;
  mainEntityOfPage: { '@type': 'WebPage'; '@id': string };
  inLanguage?: string;
  keywords?: string[];
  author?: JsonLdParty | JsonLdParty[];
  publisher?: JsonLdParty;
}

/** A person or organisation in the JSON-LD. */
export interface JsonLdParty {
  '@type': 'Person' | 'Organization';
  name: string;
  url?: string;
  logo?: { '@type': 'ImageObject'; url: string };
}

/** What `articleHead` returns: the values, and the elements made of them (`meta`, `links`, `jsonLdText`). */
export interface ArticleHead {
  title: string;
  description: string;
  canonical: string;
  language?: string | undefined;
  /** The featured image (absolute URL), for `og:image` and the JSON-LD. */
  image?: { url: string; width?: number | undefined; height?: number | undefined } | undefined;
  /** ISO 8601 with an offset (`2024-05-01T00:00:00+00:00`). */
  publishedTime?: string | undefined;
  modifiedTime?: string | undefined;
  keywords: string[];
  /** `description`, `og:*`, `article:*` and `twitter:*`, in that order. */
  meta: HeadMeta[];
  /** The canonical link, then the `hreflang` alternates. */
  links: HeadLink[];
  jsonLd: BlogPostingJsonLd;
  /** `jsonLd` as text safe inside `<script type="application/ld+json">` (`<`, `>`, `&` as `\u` escapes). */
  jsonLdText: string;
}

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The article's own fields: those kept beside the entry where a schema reshaped them, else its data. */
function articleFields(entry: ArticleHeadEntry): Fields {
  const held = isObject(entry.rendered?.metadata) ? (entry.rendered.metadata as Fields)[SERVICE_DATA] : undefined;
  return isObject(held) ? held : (entry.data as Fields);
}

/** A date as ISO 8601 with its offset, whole seconds (`2024-05-01T00:00:00+00:00`); undefined when not a date. */
export function isoWithOffset(value: unknown): string | undefined {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) return undefined;
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

const absolute = (url: string, site: URL | string) => new URL(url, site).href;

function party(value: HeadParty, type: 'Person' | 'Organization', site: URL | string): JsonLdParty {
  const logo = text(value.logo);
  const url = text(value.url);
  const made = {
    '@type': value.type ?? type,
    name: value.name,
    ...(url ? { url: absolute(url, site) } : {}),
    ...(logo ? { logo: { '@type': 'ImageObject' as const, url: absolute(logo, site) } } : {}),
  };
  // Checked against schema.org's own types where the object is made.
  made satisfies Person | Organization;
  made.logo satisfies ImageObject | undefined;
  return made;
}

/**
 * The head of an article page, from its entry (an entry of `articlesLoader`, through any schema) and what the
 * page knows. Render it with `components/ArticleHead.astro`, or pass its values to a theme's own head.
 */
export function articleHead(entry: ArticleHeadEntry, options: ArticleHeadOptions): ArticleHead {
  const article = articleFields(entry);
  const title = text(article.title) ?? '';
  const description = entryDescription({
    title,
    metaDescription: text(article.metaDescription),
    excerpt: text(article.excerpt),
  });
  const canonical = absolute(new URL(options.url, options.site).pathname, options.site);
  const language = text(article.language);
  const keywords = Array.isArray(article.keywords) ? article.keywords.filter((k): k is string => !!text(k)) : [];
  const publishedTime = isoWithOffset(article.publishedAt);
  const modifiedTime = isoWithOffset(article.updatedAt);
  const source = options.image ?? text(article.featuredImage);
  const image =
    source === undefined
      ? undefined
      : typeof source === 'string'
        ? { url: absolute(source, options.site) }
        : { url: absolute(source.src, options.site), width: source.width, height: source.height };
  const alternates = (options.alternates ?? []).map((a) => ({
    hreflang: a.hreflang,
    href: absolute(a.href, options.site),
  }));
  const authors = [options.author ?? []].flat().map((a) => party(a, 'Person', options.site));
  const publisher = options.publisher && party(options.publisher, 'Organization', options.site);

  const jsonLd = {
    '@context': 'https://schema.org' as const,
    '@type': 'BlogPosting' as const,
    headline: title,
    ...(description ? { description } : {}),
    ...(publishedTime ? { datePublished: publishedTime } : {}),
    ...(modifiedTime ? { dateModified: modifiedTime } : {}),
    ...(image ? { image: [image.url] } : {}),
    url: canonical,
    mainEntityOfPage: { '@type': 'WebPage' as const, '@id': canonical },
    ...(language ? { inLanguage: language } : {}),
    ...(keywords.length ? { keywords } : {}),
    ...(authors.length ? { author: authors.length === 1 ? authors[0]! : authors } : {}),
    ...(publisher ? { publisher } : {}),
  };
  jsonLd satisfies WithContext<BlogPosting>;

  const meta: HeadMeta[] = [{ name: 'description', content: description }];
  const og = (property: string, content: string | number | undefined) => {
    if (content !== undefined && content !== '') meta.push({ property, content: String(content) });
  };
  og('og:type', 'article');
  og('og:title', title);
  og('og:description', description);
  og('og:url', canonical);
  og('og:site_name', publisher?.name);
  og('og:image', image?.url);
  og('og:image:width', image?.width);
  og('og:image:height', image?.height);
  og('og:image:alt', image && title);
  og('article:published_time', publishedTime);
  og('article:modified_time', modifiedTime);
  for (const keyword of keywords) og('article:tag', keyword);
  meta.push({ name: 'twitter:card', content: options.twitterCard ?? (image ? 'summary_large_image' : 'summary') });
  meta.push({ name: 'twitter:title', content: title });
  meta.push({ name: 'twitter:description', content: description });
  if (image) meta.push({ name: 'twitter:image', content: image.url });

  const links: HeadLink[] = [{ rel: 'canonical', href: canonical }];
  // As in the sitemap: one language alone has no alternates; with two or more, each one, itself included.
  const languages = new Map(alternates.map((a) => [a.hreflang, a.href]));
  if (language && !languages.has(language)) languages.set(language, canonical);
  if (new Set(languages.values()).size > 1)
    for (const [hreflang, href] of [...languages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      links.push({ rel: 'alternate', hreflang, href });

  return {
    title,
    description,
    canonical,
    language,
    image,
    publishedTime,
    modifiedTime,
    keywords,
    meta,
    links,
    jsonLd,
    jsonLdText: jsonLdText(jsonLd),
  };
}
