// What a blog changes in the service's feed when it serves it from its own endpoint (rssHandler): the
// channel's title and description, items of its own, a language or item filter. String-level on the
// already rewritten feed, like the rewriters: everything else stays byte for byte.

import { z } from 'zod';
import { applyTrailingSlash, articleLanguage, blogArticleRef, type BlogLayout } from '../../html/article-links.js';
import { parseRssDocument } from '../../feeds/rss-parse.js';
import { splice, type Edit } from '../../feeds/splice.js';
import { textOf, type XmlElement } from '../../feeds/xml-scan.js';
import { escapeXmlText } from '../../feeds/xml-text.js';
import { knownArticlesOf } from '../blog/known-articles.js';
import type { RouteConfig } from '../settings/route-config.js';

/**
 * One item of the blog's own, added to the feed (the fields `@astrojs/rss` users know). Other fields are ignored,
 * not refused: the usual mapping spreads a post's frontmatter (`{ ...post.data, link }`).
 */
export const extraRssItemSchema = z.looseObject({
  title: z.string({ error: '`items[].title` must be a string.' }),
  /**
   * Absolute URL, or a path on the blog: resolved against the blog's site and base (a path from the site's root,
   * like `/blog/post/`, goes under the base too), with the blog's `trailingSlash`.
   */
  link: z.string({ error: '`items[].link` must be a string URL or path.' }),
  pubDate: z.date({ error: '`items[].pubDate` must be a Date.' }).optional(),
  description: z.string({ error: '`items[].description` must be a string.' }).optional(),
  /** Written as `<category>` elements. */
  categories: z.array(z.string(), { error: '`items[].categories` must be an array of strings.' }).optional(),
});
export type ExtraRssItem = z.input<typeof extraRssItemSchema>;

/** What the filter sees of an item of the service's feed. */
export interface RssItemView {
  title: string;
  link: string;
  /** The article's language, when the blog's loaders know the article. */
  language: string | undefined;
}

export const rssHandlerOptionsSchema = z.strictObject({
  /**
   * The channel's `<title>`.
   * @default the service's channel title
   */
  title: z.string({ error: '`title` must be a string.' }).optional(),
  /**
   * The channel's `<description>`.
   * @default the service's channel description
   */
  description: z.string({ error: '`description` must be a string.' }).optional(),
  /**
   * Only the service's articles in this language (as the loaders recorded them, e.g. `'en'`).
   * @default undefined (every language)
   */
  language: z.string({ error: '`language` must be a language code such as "en".' }).optional(),
  /**
   * Items of the blog's own (local posts), merged with the service's by `pubDate`, newest first.
   * @default []
   */
  items: z
    .array(extraRssItemSchema, { error: '`items` must be an array of { title, link, pubDate?, description? }.' })
    .default([]),
  /**
   * Called for each of the service's items; return `false` to leave it out.
   * @default undefined (every item the blog has)
   */
  filter: z
    .custom<(item: RssItemView) => boolean>((v) => typeof v === 'function', {
      error: '`filter` must be a function (item) => boolean.',
    })
    .optional(),
});
export type { RssHandlerOptions } from './rss-handler-docs.js';
export type ParsedRssHandlerOptions = z.output<typeof rssHandlerOptionsSchema>;

export interface CustomizeContext extends BlogLayout {
  /** The languages the blog has each slug in, from the loaders. */
  languages: Readonly<Record<string, readonly string[]>>;
  /** Told the link of an item of the blog's own left out: the service's feed has an article at that URL. */
  onDuplicate?: (link: string) => void;
}

const plain = (parent: XmlElement, local: string) => parent.children.find((c) => c.prefix === '' && c.local === local);

/** An item's link on the blog: under its base (also from the site's root) and by its trailingSlash rule. */
function itemLink(link: string, layout: Pick<BlogLayout, 'blogSite' | 'trailingSlash'>): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return new URL(link).href;
  const site = new URL(layout.blogSite);
  const base = site.pathname.replace(/\/$/, '');
  const path = link.startsWith('/') && !(link === base || link.startsWith(`${base}/`)) ? `${base}${link}` : link;
  const url = new URL(path, site);
  if (url.origin === site.origin && url.pathname !== '/' && url.pathname !== site.pathname)
    url.pathname = applyTrailingSlash(url.pathname, layout.trailingSlash);
  return url.href;
}

/** An item of the blog's own as RSS, at `link` (its link on the blog, itemLink). */
function itemXml(item: z.output<typeof extraRssItemSchema>, link: string): string {
  const parts = [
    `<title>${escapeXmlText(item.title)}</title>`,
    `<link>${escapeXmlText(link)}</link>`,
    `<guid isPermaLink="true">${escapeXmlText(link)}</guid>`,
  ];
  if (item.pubDate) parts.push(`<pubDate>${item.pubDate.toUTCString()}</pubDate>`);
  if (item.description !== undefined) parts.push(`<description>${escapeXmlText(item.description)}</description>`);
  for (const category of item.categories ?? []) parts.push(`<category>${escapeXmlText(category)}</category>`);
  return `<item>${parts.join('')}</item>`;
}

function dateOf(text: string | undefined): number {
  const time = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
}

/** The rewritten feed `xml` with the handler's options applied. */
export function customizeRss(xml: string, options: ParsedRssHandlerOptions, ctx: CustomizeContext): string {
  const doc = parseRssDocument(xml, { url: 'the rewritten feed', maxBytes: Number.MAX_SAFE_INTEGER });
  const source = doc.xml;
  const edits: Edit[] = [];
  for (const [local, value] of [
    ['title', options.title],
    ['description', options.description],
  ] as const) {
    const element = value === undefined ? undefined : plain(doc.channel, local);
    if (element && value !== undefined)
      edits.push({ start: element.startTagEnd, end: element.contentEnd, text: escapeXmlText(value) });
  }
  // A feed of one language says which (RSS 2.0's channel <language>), unless the service's already does.
  if (options.language !== undefined) {
    const language = plain(doc.channel, 'language');
    const after = plain(doc.channel, 'description') ?? plain(doc.channel, 'link') ?? plain(doc.channel, 'title');
    const text = escapeXmlText(options.language);
    if (language) edits.push({ start: language.startTagEnd, end: language.contentEnd, text });
    else if (after) {
      // On a line of its own, indented as the element it follows.
      const lineStart = source.lastIndexOf('\n', after.start) + 1;
      const indent = /^[ \t]*$/.test(source.slice(lineStart, after.start)) ? source.slice(lineStart, after.start) : '';
      edits.push({ start: after.end, end: after.end, text: `\n${indent}<language>${text}</language>` });
    }
  }
  // Items: the service's kept ones and the blog's own, newest first (stable for equal dates).
  const kept: Array<{ xml: string; time: number }> = [];
  const serviceLinks = new Set<string>();
  for (const item of doc.items) {
    const title = plain(item, 'title');
    const link = plain(item, 'link');
    const view: RssItemView = {
      title: title ? textOf(source, title).trim() : '',
      link: link ? textOf(source, link).trim() : '',
      language: undefined,
    };
    // The feed is already rewritten: an article's link is its page on the blog.
    const article = blogArticleRef(view.link, ctx);
    view.language = article === undefined ? undefined : articleLanguage(article, ctx);
    serviceLinks.add(view.link);
    const pubDate = plain(item, 'pubDate');
    const keep =
      (options.language === undefined || view.language === options.language) &&
      (options.filter === undefined || options.filter(view));
    if (keep)
      kept.push({
        xml: source.slice(item.start, item.end),
        time: dateOf(pubDate ? textOf(source, pubDate) : undefined),
      });
  }
  if (doc.items.length === 0 && options.items.length === 0) return splice(source, 0, source.length, edits);
  for (const item of options.items) {
    // A post of the blog's own at an article's URL (the same slug under a shared path): that page shows the
    // article, so the feed lists the article once, not two items with one guid.
    const link = itemLink(item.link, ctx);
    if (serviceLinks.has(link)) {
      ctx.onDuplicate?.(link);
      continue;
    }
    kept.push({ xml: itemXml(item, link), time: item.pubDate ? item.pubDate.getTime() : Number.NEGATIVE_INFINITY });
  }
  const ordered = kept.map((k, i) => ({ ...k, i })).sort((a, b) => b.time - a.time || a.i - b.i);
  const first = doc.items[0];
  const last = doc.items[doc.items.length - 1];
  // The items are replaced as one block where they were (or appended at the end of the channel); other
  // elements found between two items are kept, after the block.
  const start = first ? first.start : doc.channel.contentEnd;
  const end = last ? last.end : doc.channel.contentEnd;
  const between = (first?.parent?.children ?? [])
    .filter((c) => c.local !== 'item' && c.start >= start && c.end <= end)
    .map((c) => source.slice(c.start, c.end));
  edits.push({ start, end, text: [...ordered.map((k) => k.xml), ...between].join('\n') });
  return splice(source, 0, source.length, edits);
}

/** The links already warned about (once per process: an on-demand feed is rendered per request). */
const warnedDuplicates = new Set<string>();

function warnDuplicate(link: string): void {
  if (warnedDuplicates.has(link)) return;
  warnedDuplicates.add(link);
  console.warn(
    `[astro-content-publisher] rssHandler(): an item of \`items\` has the link ${link}, which the service's feed gives to one of its articles (a post of yours with an article's slug under the same path): the feed lists the article only, as that page shows it. Give your post another slug to list both.`,
  );
}

/** A feed route's answer with the options applied (an error answer goes out as it is). */
export async function customizedRss(
  response: Response,
  options: ParsedRssHandlerOptions,
  config: RouteConfig,
): Promise<Response> {
  if (response.status !== 200) return response;
  const xml = customizeRss(await response.text(), options, {
    blogSite: config.blogSite,
    articlePattern: config.articlePattern,
    trailingSlash: config.trailingSlash,
    languages: knownArticlesOf(config)?.languages ?? {},
    onDuplicate: warnDuplicate,
  });
  return new Response(xml, { status: 200, headers: response.headers });
}
