import {
  DEFAULT_MAX_RSS_BYTES,
  DEFAULT_MAX_XML_BYTES,
  makeArticleUrlMapper,
  XmlSafetyError,
} from '../../feeds/index.js';
import { parseRssDocument, plainChildText } from '../../feeds/rss-parse.js';
import { rewriteRssDocument } from '../../feeds/rss-rewrite.js';
import { parseAnySitemap, sitemapIndexEntries, urlsetDocument } from '../../feeds/sitemap-parse.js';
import { writeExtraUrls, writeSitemapUrls } from '../../feeds/sitemap-rewrite.js';
import { indexOf, packGroup, packSitemap, type PackedGroup, type WrittenUrl } from '../../feeds/sitemap-split.js';
import type { SafeXmlDocument } from '../../feeds/safe-xml.js';
import { textOf, type XmlElement } from '../../feeds/xml-scan.js';
import { fetchPublicFeed } from '../../client/public-feed.js';
import {
  articleLanguage,
  applyTrailingSlash,
  articleLinkTarget,
  blogArticleUrl,
  parseUrl,
  serviceArticleRef,
  type ArticleLinkContext,
} from '../../html/article-links.js';
import { missingArticleOf, type KnownArticles } from '../blog/feed-filter.js';
import { articleTargetOf, onDemandContextOf } from '../links/article-links-response.js';
import { noteServiceHome, noteServiceOrigins } from '../../loader/process/service-origins.js';
import { boundUrlset, urlBoundWarning } from '../../feeds/sitemap-url-bound.js';
import { liveArticlesSeen } from '../../loader/process/live-articles-seen.js';
import { articleLinkContextOf, blogPageServedOf, knownArticlesOf } from '../blog/known-articles.js';
import { hreflangAlternates } from './hreflang.js';
import { memoLinkTarget } from '../links/link-tags.js';
import { forEachIndexPart, IndexPartsError, type PartLimits } from './index-parts.js';
import { blogUrl, sitemapPartPath, type RouteConfig } from '../settings/route-config.js';

export const SITEMAP_MAX_BYTES = DEFAULT_MAX_XML_BYTES;
export const RSS_MAX_BYTES = DEFAULT_MAX_RSS_BYTES;
/**
 * An upstream sitemap index is proxied with at most this many parts, together at most
 * SITEMAP_INDEX_MAX_TOTAL_BYTES (about 150,000 URLs): the on-demand route keeps the rewritten parts in
 * memory, and one refresh parses them. Within these bounds a refresh adds at most about 350 MB to the
 * server's resident memory (measured: test/security/sitemap-index.test.ts). The parts are fetched
 * SITEMAP_INDEX_CONCURRENCY at once, all of them within one `timeoutMs` deadline, so a cold route waits
 * for the network at most twice `timeoutMs` (the index, then its parts), plus the rewriting; a route
 * with a copy answers at once (stale-while-revalidate).
 */
export const SITEMAP_INDEX_MAX_PARTS = 50;
export const SITEMAP_INDEX_MAX_TOTAL_BYTES = 16 * 1024 * 1024;
export const SITEMAP_INDEX_CONCURRENCY = 4;

/** What the sitemap route serves: one urlset, or an index and its parts (part n at index n - 1). */
export type SitemapFiles = ({ kind: 'urlset'; xml: string } | { kind: 'index'; xml: string; parts: string[] }) & {
  /**
   * The service's articles left out because the blog does not have them or (static output) has no page for
   * them: how many, and the blog's URL the first one would have had.
   */
  leftOut?: { count: number; example: string | undefined };
};

/** Fetches one part of an upstream sitemap index, under the deadline and byte budget the parts share. */
export type FetchSitemapPart = (url: string, limits: PartLimits) => Promise<string>;

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origins that count as "the service's domain": the service's own origin plus the origins its feed
 * uses for article URLs (the site's domain in the service, which the routes do not otherwise know).
 * Every `<loc>` of the service's sitemap and every item link of its feed is a page of the site (an article,
 * or its home, blog index or a tag page), so their origins are safe to treat as upstream.
 */
function upstreamOrigins(config: RouteConfig, urls: Iterable<string | undefined>): string[] {
  const origins = new Set<string>([config.serviceOrigin]);
  for (const url of urls) {
    const origin = originOf(url);
    if (origin !== undefined && origin !== 'null') origins.add(origin);
  }
  return [...origins];
}

/**
 * A service article URL goes where the blog's pages send it (src/html/article-links.ts, the mapping the
 * in-article links use): the blog's page when the blog has the article, else the service's public URL.
 * Any other service URL keeps the feeds' mapping (same path on the blog's origin).
 */
function mapper(
  config: RouteConfig,
  origins: string[],
  target: (href: string, pageLanguage?: string) => string | undefined,
): (upstream: string, pageLanguage?: string) => string {
  const other = makeArticleUrlMapper({
    blogSite: config.blogSite,
    // Only non-article URLs reach this mapper: the pattern is not used.
    articlePattern: '/blog/[slug]/',
    upstreamOrigins: origins,
  });
  const site = config.blogSite === '' ? null : parseUrl(config.blogSite);
  /** A page of the blog's (not its home) under the blog's trailingSlash rule, as Astro serves it. */
  const slashed = (href: string): string => {
    const url = site && parseUrl(href);
    if (!url || url.origin !== site!.origin || url.pathname === '/' || url.pathname === site!.pathname) return href;
    const path = applyTrailingSlash(url.pathname, config.trailingSlash);
    return path === url.pathname ? href : url.origin + path + url.search + url.hash;
  };
  return (upstream, pageLanguage) => {
    const url = URL.canParse(upstream.trim()) ? new URL(upstream.trim()) : undefined;
    if (url === undefined || serviceArticleRef(url, origins) === undefined) return slashed(other(upstream));
    return target(upstream, pageLanguage) ?? upstream;
  };
}

/**
 * The origins of the feed plus those the loaders saw, what the blog has (undefined: no loader, every
 * article counts as had) and the mapping context built from both.
 */
function knownFor(
  config: RouteConfig,
  origins: string[],
): { origins: string[]; known: KnownArticles | undefined; ctx: ArticleLinkContext } {
  const known = knownArticlesOf(config, origins);
  const all = known ? [...known.origins] : origins;
  // On demand without an articles loader, once liveArticlesLoader has listed in this process, the pages' own
  // context: its last list says which articles the blog serves, so the feed's links go where the pages' links go.
  // (Not in a static build: there the end of the build settles the feeds by the pages it wrote.)
  const onDemand =
    known === undefined && liveArticlesSeen(config.siteId) !== undefined ? onDemandContextOf(config) : undefined;
  const ctx = articleLinkContextOf(config, origins) ??
    (onDemand && { ...onDemand, serviceOrigins: [...new Set([...onDemand.serviceOrigins, ...all])] }) ?? {
      blogSite: config.blogSite,
      articlePattern: config.articlePattern,
      trailingSlash: config.trailingSlash,
      serviceOrigins: all,
    };
  return { origins: all, known, ctx };
}

const warn = (message: string): void =>
  console.warn(message.startsWith('[') ? message : `[astro-content-publisher] ${message}`);

/** An upstream file within the protocol's 50,000 URLs (cut before parsing: see sitemap-url-bound.ts), said once. */
function bounded(text: string, url: string): string {
  const bound = boundUrlset(text);
  if (bound.total !== undefined) warn(urlBoundWarning(url, bound.total));
  return bound.xml;
}

/** Every `<loc>` of a urlset: their origins are the service's site domain. */
function* locs(doc: ReturnType<typeof urlsetDocument>): Iterable<string | undefined> {
  for (const url of doc.urls) {
    const loc = url.children.find((c) => c.local === 'loc');
    yield loc ? textOf(doc.xml, loc).trim() : undefined;
  }
}

/**
 * The service's sitemap rewritten for the blog, merged with the blog's own pages, split when too big.
 * An upstream `<sitemapindex>` is proxied: each part (on the index's own origin only) is fetched with
 * `fetchPart`, rewritten and served as a part of the blog's index with its upstream `lastmod`; the blog's
 * own pages come last, in parts of their own.
 */
export async function buildSitemap(
  body: string,
  config: RouteConfig,
  localPages: readonly string[],
  fetchPart?: FetchSitemapPart,
): Promise<SitemapFiles> {
  if (config.sitemap === false)
    throw new TypeError('[astro-content-publisher] buildSitemap() called with the sitemap disabled.');
  const { path, maxUrlsPerFile } = config.sitemap;
  const url = config.sitemapUrl;
  const pack = {
    maxUrlsPerFile,
    maxBytesPerFile: SITEMAP_MAX_BYTES,
    partUrl: (n: number) => blogUrl(config, sitemapPartPath(path, n + 1)),
  };
  const seen = new Set<string>();
  // Service articles listed upstream whose page the blog has: the blog's own article pages beside them are not added twice.
  const listed = new Set<string>();
  const leftOut = { count: 0, example: undefined as string | undefined };
  const served = blogPageServedOf(config);
  /**
   * One upstream urlset written for the blog, without the articles the blog does not have: the writer asks per
   * `<url>` (`keep`), on the document's one parse.
   */
  const writeUrlset = (doc: SafeXmlDocument, partUrl: string): WrittenUrl[] => {
    const urlset = urlsetDocument(doc);
    const { origins, known, ctx } = knownFor(config, upstreamOrigins(config, locs(urlset)));
    const target = memoLinkTarget((href) => articleLinkTarget(href, ctx));
    const articleLocs: string[] = [];
    for (const loc of locs(urlset)) {
      const ref = loc !== undefined && URL.canParse(loc) ? serviceArticleRef(new URL(loc), origins) : undefined;
      if (ref === undefined || loc === undefined) continue;
      if (target(loc) === undefined) {
        leftOut.count += 1;
        leftOut.example ??= blogArticleUrl(ref.slug, ctx, articleLanguage(ref, ctx));
        continue;
      }
      listed.add(ref.slug);
      const language = articleLanguage(ref, ctx);
      if (language !== undefined) listed.add(`${language}/${ref.slug}`);
      articleLocs.push(loc);
    }
    const mapUrl = mapper(config, origins, target);
    // A page of the service's site that is no article (its home, a tag page) goes to the same path on the blog:
    // listed only where the blog serves that page.
    const unservedPage = (link: string) => {
      const url = served && parseUrl(link.trim());
      if (!url || !origins.includes(url.origin) || serviceArticleRef(url, origins) !== undefined) return false;
      const mapped = parseUrl(mapUrl(link));
      return mapped !== null && !served!(mapped);
    };
    const missing = known && missingArticleOf(known, ctx);
    const keep = known || served ? (link: string) => !(missing?.(link) || unservedPage(link)) : undefined;
    return writeSitemapUrls(urlset, {
      url: partUrl,
      upstreamOrigins: origins,
      mapUrl,
      seen,
      onWarning: warn,
      alternates: hreflangAlternates(articleLocs, ctx, target),
      keep,
    });
  };
  const extras = (): Array<{ loc: string }> => {
    const localArticles = (config.localArticlePages ?? [])
      .filter((page) => !listed.has(page.language === undefined ? page.slug : `${page.language}/${page.slug}`))
      .map((page) => page.url);
    return [...localPages, ...localArticles].map((loc) => ({ loc }));
  };
  const doc = parseAnySitemap(bounded(body, url), { url, maxBytes: SITEMAP_MAX_BYTES });
  if (doc.root.local === 'urlset') {
    const entries = writeUrlset(doc, url);
    entries.push(...writeExtraUrls(extras(), seen));
    return { ...packSitemap(entries, pack), leftOut };
  }
  // A relative <loc> (not allowed by the protocol, written by some generators) is a part on the index's origin.
  const parts = sitemapIndexEntries(doc).map((part) =>
    URL.canParse(part.loc, url) ? { ...part, loc: new URL(part.loc, url).href } : part,
  );
  const refuse = (detail: string): never => {
    throw new XmlSafetyError({ url, kind: 'sitemap index', reason: 'index-part', detail });
  };
  if (parts.length > SITEMAP_INDEX_MAX_PARTS)
    refuse(
      `it lists ${parts.length} sitemaps; at most ${SITEMAP_INDEX_MAX_PARTS} are proxied. Point the sitemap option at a smaller index.`,
    );
  const indexOrigin = new URL(url).origin;
  const foreign = parts.find((part) => originOf(part.loc) !== indexOrigin);
  // A part elsewhere would make the blog's server fetch any address an upstream names.
  if (foreign)
    refuse(
      `it lists ${foreign.loc}, which is not on ${indexOrigin}; only parts on the index's own origin are proxied.`,
    );
  if (!fetchPart) refuse('it is a sitemap index, and no way to fetch its parts was given.');
  const groups: PackedGroup[] = [];
  try {
    await forEachIndexPart(
      parts.map((part) => part.loc),
      fetchPart!,
      {
        concurrency: SITEMAP_INDEX_CONCURRENCY,
        deadlineMs: config.timeoutMs,
        maxTotalBytes: SITEMAP_INDEX_MAX_TOTAL_BYTES,
      },
      (partBody, i) => {
        const part = parts[i]!;
        const partDoc = parseAnySitemap(bounded(partBody, part.loc), {
          url: part.loc,
          maxBytes: SITEMAP_INDEX_MAX_TOTAL_BYTES,
        });
        if (partDoc.root.local !== 'urlset')
          refuse(`its part ${part.loc} is itself a sitemap index; nested indexes are not proxied.`);
        // Packed right away: only the part texts stay in memory, not this part's tree and entries.
        groups.push(packGroup({ entries: writeUrlset(partDoc, part.loc), lastmod: part.lastmod }, pack));
      },
    );
  } catch (error) {
    if (error instanceof IndexPartsError) refuse(`${error.message}; nothing was published.`);
    throw error;
  }
  const own = writeExtraUrls(extras(), seen);
  // An empty upstream index (no parts) leaves the blog's own pages: one urlset, as without an index.
  if (groups.length === 0) return { ...packSitemap(own, pack), leftOut };
  if (own.length > 0) groups.push(packGroup({ entries: own }, pack));
  return { ...indexOf(groups, pack.partUrl), leftOut };
}

/** One part of an upstream sitemap index, under the index's timeout and the deadline and budget of all parts. */
export async function fetchSitemapPart(
  url: string,
  config: Pick<RouteConfig, 'timeoutMs'>,
  limits: PartLimits,
): Promise<string> {
  const fetched = await fetchPublicFeed(url, {
    timeoutMs: config.timeoutMs,
    maxBytes: Math.min(SITEMAP_MAX_BYTES, limits.maxBytes),
    signal: limits.signal,
  });
  if (fetched.status !== 200)
    throw new Error(`[astro-content-publisher] Could not get ${url}: unexpected status ${fetched.status}.`);
  return fetched.body;
}

/** The service's RSS feed with every service URL pointing at the blog. */
export function buildRss(body: string, config: RouteConfig): string {
  if (config.rss === false)
    throw new TypeError('[astro-content-publisher] buildRss() called with the RSS route disabled.');
  const url = config.rssUrl;
  // The feed is parsed once: its links, the items the blog lists and the writing all read this tree.
  const doc = parseRssDocument(body, { url, maxBytes: RSS_MAX_BYTES });
  const home = plainChildText(doc.xml, doc.channel, 'link');
  const itemLinks = doc.items.flatMap((item) => plainChildText(doc.xml, item, 'link') ?? []);
  const feedOrigins = upstreamOrigins(config, [home, ...itemLinks]);
  // For the pages' links (the middleware): the site's home, and the hosts of most article URLs, not any item's.
  noteServiceHome(config.siteId, home);
  noteServiceOrigins(config.siteId, itemLinks);
  const { origins, known, ctx } = knownFor(config, feedOrigins);
  // An item of an article the blog does not have is left out (an item without a link names none).
  const missing = known && missingArticleOf(known, ctx);
  const keepItem = missing && ((item: XmlElement) => !missing(plainChildText(doc.xml, item, 'link') ?? ''));
  const onBlog = articleTargetOf(ctx);
  // The pages' mapping: a link to an article the service stopped publishing loses its address (UNLINK).
  const mapUrl = mapper(config, origins, onBlog);
  /** The language of an item's article: its URL's, else the only one the blog has its slug in. */
  const itemLanguage = (itemUrl: string): string | undefined => {
    const item = parseUrl(itemUrl);
    const ref = item === null ? undefined : serviceArticleRef(item, origins);
    return ref === undefined ? undefined : articleLanguage(ref, ctx);
  };
  return rewriteRssDocument(
    doc,
    {
      url,
      upstreamOrigins: origins,
      mapUrl,
      // A link naming no language in an item's HTML goes where the article's page sends it: the item's language.
      mapItemLink: (upstream, itemUrl) => mapUrl(upstream, itemLanguage(itemUrl)),
      maxBytes: RSS_MAX_BYTES,
      selfUrl: blogUrl(config, config.rss.path),
      onWarning: warn,
    },
    keepItem,
  );
}
