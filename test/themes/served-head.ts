/**
 * What a crawler reads from a served article page (issue 38, item 6): the head's title, meta tags and links, the
 * JSON-LD blocks, and what an old URL answers after a rename. Read from the running server, not from dist/:
 * what a host serves is what ranks.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { expect } from 'vitest';
import type { ServiceDetail } from './theme-checks.js';

export interface ServedHead {
  titles: string[];
  /** The contents of each `<meta>` by its `name` or `property`. */
  meta: Map<string, string[]>;
  links: Array<{ rel: string; href: string; hreflang?: string | undefined }>;
  /** The text of every `<script type="application/ld+json">` of the page (head or body). */
  jsonLd: string[];
}

/** Reads the head of an HTML page. */
export function headOf(html: string): ServedHead {
  const document = parseDocument(html);
  const head = DomUtils.getElementsByTagName('head', document)[0];
  if (head === undefined) throw new Error('the page has no <head>');
  const within = (tag: string) => DomUtils.getElementsByTagName(tag, head);
  const meta = new Map<string, string[]>();
  for (const element of within('meta')) {
    const key = element.attribs.property ?? element.attribs.name;
    if (key !== undefined) meta.set(key, [...(meta.get(key) ?? []), element.attribs.content ?? '']);
  }
  return {
    titles: within('title').map((element) => DomUtils.textContent(element)),
    meta,
    links: within('link').map(({ attribs }) => ({
      rel: attribs.rel ?? '',
      href: attribs.href ?? '',
      hreflang: attribs.hreflang,
    })),
    jsonLd: DomUtils.getElementsByTagName('script', document)
      .filter((element) => element.attribs.type === 'application/ld+json')
      .map((element) => DomUtils.textContent(element)),
  };
}

/** GETs a page of the served site; rejects unless it answers 200. */
export async function servedPage(local: string, path: string): Promise<string> {
  const response = await fetch(new URL(path, local), { redirect: 'manual' });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return body;
}

/** ISO 8601 with an explicit offset (`Z` alone is not one a reader can tell from a missing zone in some tools). */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?[+-]\d{2}:\d{2}$/;

const one = (head: ServedHead, key: string, page: string): string => {
  const values = head.meta.get(key) ?? [];
  expect(values, `${page}: one ${key}`).toHaveLength(1);
  return values[0]!;
};

/**
 * Checks every head tag of item 2 on a served article page of a one-language blog: `canonical` is the blog's URL
 * of the article, `modifiedTag` whether the theme's head writes `article:modified_time` (the JSON-LD always has
 * `dateModified`). Returns the `og:image` URL, for the caller to request.
 */
export function expectArticleHead(
  head: ServedHead,
  page: string,
  article: ServiceDetail,
  opts: { canonical: string; modifiedTag: boolean },
): string {
  const site = new URL(opts.canonical).origin;
  expect(head.titles, `${page}: one <title>`).toHaveLength(1);
  expect(head.titles[0], page).toContain(article.title);
  const description = one(head, 'description', page);
  // The meta description (cut at 160 characters on a word, then an ellipsis).
  expect(description.length, page).toBeGreaterThan(0);
  expect((article.meta_description ?? '').replace(/\s+/g, ' '), page).toContain(description.replace(/…$/, ''));
  expect(
    head.links.filter((l) => l.rel === 'canonical').map((l) => l.href),
    `${page}: canonical`,
  ).toEqual([opts.canonical]);
  expect(one(head, 'og:type', page), page).toBe('article');
  const image = one(head, 'og:image', page);
  expect(image, `${page}: og:image on the blog`).toMatch(new RegExp(`^${site}/_astro/`));
  const published = one(head, 'article:published_time', page);
  expect(published, page).toMatch(ISO_WITH_OFFSET);
  expect(Date.parse(published), page).toBe(Date.parse(article.published_at));
  if (opts.modifiedTag) {
    const modified = one(head, 'article:modified_time', page);
    expect(modified, page).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(modified), page).toBe(Date.parse(article.updated_at));
  }
  expect(one(head, 'twitter:card', page), page).toBe('summary_large_image');
  // One language: no hreflang alternates (the sitemap lists none either).
  expect(
    head.links.filter((l) => l.hreflang !== undefined),
    `${page}: hreflang`,
  ).toEqual([]);

  expect(head.jsonLd, `${page}: one JSON-LD block`).toHaveLength(1);
  // Escaped at the JSON level: no `<` or `>` an article's text could close the element with.
  expect(head.jsonLd[0], page).not.toMatch(/[<>]/);
  const data = JSON.parse(head.jsonLd[0]!) as Record<string, unknown>;
  expect(data, page).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: article.title,
    mainEntityOfPage: { '@type': 'WebPage', '@id': opts.canonical },
    inLanguage: article.language,
    image: [image],
  });
  expect(data.datePublished, page).toMatch(ISO_WITH_OFFSET);
  expect(Date.parse(String(data.datePublished)), page).toBe(Date.parse(article.published_at));
  expect(data.dateModified, page).toMatch(ISO_WITH_OFFSET);
  expect(Date.parse(String(data.dateModified)), page).toBe(Date.parse(article.updated_at));
  return image;
}

/**
 * What an old URL answers after a rename: a 301/308 and its `Location`, or (a static build served as files) the
 * redirect page's instant refresh target, canonical link and robots directive.
 */
export async function servedMove(
  local: string,
  path: string,
): Promise<{ status: number; location?: string | null; refresh?: string; canonical?: string; robots?: string }> {
  const response = await fetch(new URL(path, local), { redirect: 'manual' });
  const html = await response.text();
  if (response.status !== 200) return { status: response.status, location: response.headers.get('location') };
  const head = headOf(html);
  return {
    status: 200,
    refresh: /^0;url=(.+)$/.exec(
      DomUtils.getElementsByTagName('meta', parseDocument(html)).find((m) => m.attribs['http-equiv'] === 'refresh')
        ?.attribs.content ?? '',
    )?.[1],
    canonical: head.links.find((l) => l.rel === 'canonical')?.href,
    robots: head.meta.get('robots')?.[0],
  };
}

/**
 * The served blog after a rename and an unpublish (issue 38, item 6): every live article's head, its `og:image`
 * answering 200, the old URL redirecting for good to the new one (which answers 200), the unpublished article's
 * URL answering 404 (not a redirect), and `/sitemap-index.xml`, the name themes link to, listing the articles.
 */
export async function expectServedBlog(
  local: string,
  blog: {
    site: string;
    pageOf: (slug: string) => string;
    live: ServiceDetail[];
    moved: { from: string; to: string };
    unpublished: string;
    modifiedTag: boolean;
  },
): Promise<void> {
  const urlOf = (slug: string) => `${blog.site}${blog.pageOf(slug)}`;
  for (const article of blog.live) {
    const page = blog.pageOf(article.slug);
    const head = headOf(await servedPage(local, page));
    const image = expectArticleHead(head, page, article, {
      canonical: urlOf(article.slug),
      modifiedTag: blog.modifiedTag,
    });
    const response = await fetch(new URL(new URL(image).pathname, local));
    await response.arrayBuffer();
    expect(response.status, image).toBe(200);
  }
  expect(blog.live.map((a) => a.slug)).toContain(blog.moved.to);

  // A static build served as files: the redirect page, an instant refresh (read as permanent), canonical, noindex.
  const move = await servedMove(local, blog.pageOf(blog.moved.from));
  if (move.status === 200) {
    expect(move).toEqual({
      status: 200,
      refresh: urlOf(blog.moved.to),
      canonical: urlOf(blog.moved.to),
      robots: 'noindex',
    });
  } else {
    expect(move).toEqual({ status: 301, location: urlOf(blog.moved.to) });
  }
  await servedPage(local, blog.pageOf(blog.moved.to));

  const gone = await fetch(new URL(blog.pageOf(blog.unpublished), local), { redirect: 'manual' });
  const goneHtml = await gone.text();
  expect(gone.status, blog.pageOf(blog.unpublished)).toBe(404);
  expect(goneHtml).not.toMatch(/http-equiv="refresh"/);

  const sitemap = await servedPage(local, '/sitemap-index.xml');
  const parts = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const urls = /<sitemapindex\b/.test(sitemap)
    ? (await Promise.all(parts.map((part) => servedPage(local, new URL(part).pathname)))).join('\n')
    : sitemap;
  for (const article of blog.live) expect(urls, 'sitemap-index.xml').toContain(`<loc>${urlOf(article.slug)}</loc>`);
  expect(urls).not.toContain(urlOf(blog.moved.from));
  expect(urls).not.toContain(urlOf(blog.unpublished));
}
