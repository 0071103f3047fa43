/**
 * The sitemap under the name themes link to, and the links to a sitemap the build does not write (issue 38,
 * item 3). Themes written for `@astrojs/sitemap` name `/sitemap-index.xml` in their `<link rel="sitemap">`, their
 * footer and their robots.txt: the integration serves its sitemap there as well (a copy of `/sitemap.xml`, which
 * is a sitemap or, split, the index of its parts), unless the blog has a file of its own at that name. Pure
 * decisions; the hooks do the I/O (integration.ts, build-done.ts, own-files.ts).
 */

import { PREFIX } from '../../options/prefix.js';

/** The name `@astrojs/sitemap` gives its index, and so the one themes link to. */
export const SITEMAP_ALIAS_PATH = '/sitemap-index.xml';

/** The alias's path for a sitemap at `path`, or undefined when the sitemap is at that name already. */
export function sitemapAliasPath(path: string): string | undefined {
  return path.replace(/^\/+/, '') === SITEMAP_ALIAS_PATH.slice(1) ? undefined : SITEMAP_ALIAS_PATH;
}

/** A link to a sitemap found in a built page. */
export interface SitemapLink {
  /** The link's absolute URL. */
  url: string;
  /** The element that names it, as the warning shows it. */
  element: '<link rel="sitemap">' | '<a href>' | '<link href>';
}

// A file name that says "sitemap" (sitemap.xml, sitemap-index.xml, sitemap_index.xml, sitemap-0.xml).
const SITEMAP_FILE = /\/[^/]*sitemap[^/]*\.xml$/i;
const TAG = /<(a|link)\b[^>]*>/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const REL_SITEMAP = /\srel\s*=\s*(?:"[^"]*\bsitemap\b[^"]*"|'[^']*\bsitemap\b[^']*'|sitemap(?=[\s/>]))/i;

const decode = (value: string) =>
  value.replaceAll('&amp;', '&').replaceAll('&#38;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

/**
 * The links of a page to a sitemap of the blog's origin: every `<link rel="sitemap">`, and every `<a href>` or
 * other `<link href>` to a file named like a sitemap (`.../sitemap-index.xml`). A page that never says
 * "sitemap" is not scanned.
 */
export function sitemapLinksIn(html: string, pageUrl: string): SitemapLink[] {
  if (!/sitemap/i.test(html)) return [];
  const origin = new URL(pageUrl).origin;
  const links: SitemapLink[] = [];
  for (const [tag, name] of html.matchAll(TAG)) {
    const match = HREF.exec(tag);
    const value = match?.[1] ?? match?.[2] ?? match?.[3];
    if (value === undefined) continue;
    const url = URL.parse(decode(value), pageUrl);
    if (url === null || url.origin !== origin) continue;
    url.hash = '';
    const rel = name!.toLowerCase() === 'link' && REL_SITEMAP.test(tag);
    if (!rel && !SITEMAP_FILE.test(url.pathname)) continue;
    links.push({
      url: url.href,
      element: rel ? '<link rel="sitemap">' : name!.toLowerCase() === 'a' ? '<a href>' : '<link href>',
    });
  }
  return links;
}

/** What the check knows of the build's files: whether a URL leads to our sitemap, and whether the build serves it. */
export interface SitemapFacts {
  /** Our sitemap's URL. */
  sitemapUrl: string;
  /** Whether a URL is our sitemap, its alias, or a built index that lists it (own-files.ts builtIndexListsOurs). */
  leadsToOurs: (url: string) => boolean;
  /** Whether the build serves a file at the URL (a file in the output, or one another integration writes later). */
  served: (url: string) => boolean;
}

/**
 * The warning for links of the blog's pages to a sitemap that the build does not write (they answer 404), and
 * for a `<link rel="sitemap">` naming a sitemap that does not lead to ours; undefined when every link is fine.
 * `found` are the links with the page (a path of the output) they were found on.
 */
export function sitemapLinksProblem(
  found: ReadonlyArray<SitemapLink & { page: string }>,
  facts: SitemapFacts,
): string | undefined {
  const bad = new Map<string, Array<SitemapLink & { page: string }>>();
  for (const link of found) {
    if (facts.leadsToOurs(link.url)) continue;
    // A footer link to the blog's own sitemap file is fine; a sitemap link for crawlers must lead to ours.
    if (link.element !== '<link rel="sitemap">' && facts.served(link.url)) continue;
    bad.set(link.url, [...(bad.get(link.url) ?? []), link]);
  }
  if (bad.size === 0) return undefined;
  const ours = new URL(facts.sitemapUrl).pathname;
  const each = [...bad].map(([url, links]) => {
    const elements = [...new Set(links.map((l) => l.element))].join(' and ');
    const pages = [...new Set(links.map((l) => `/${l.page}`))];
    const where = `${pages.slice(0, 2).join(', ')}${pages.length > 2 ? ` and ${pages.length - 2} more` : ''}`;
    const state = facts.served(url)
      ? "which does not list the service's articles"
      : 'which the build does not write (it answers 404)';
    return `${url} (${elements} in ${where}), ${state}`;
  });
  const [first] = bad.keys();
  const name = new URL(first!).pathname;
  return (
    `${PREFIX} The blog's pages link to ${each.join('; ')}. ` +
    `Point the link${bad.size > 1 ? 's' : ''} at ${ours} in the component that renders ${bad.size > 1 ? 'them' : 'it'} (the layout's head, often BaseHead.astro, or the footer)` +
    (bad.size === 1 && !facts.served(first!)
      ? `, or serve the sitemap under that name: publisher({ sitemap: { path: "${name}" } })`
      : '') +
    '.'
  );
}
