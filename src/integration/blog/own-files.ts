import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { robotsTxtBody, robotsTxtProblem, type ListsOurSitemap } from './conflicts.js';
import { sitemapLinksIn, sitemapLinksProblem, type SitemapFacts, type SitemapLink } from './sitemap-links.js';
import { pathIn } from '../settings/route-config.js';

/**
 * The blog's own files that decide what this integration may publish: its robots.txt (in `public/`, as a
 * route, or in the built output), its dependencies. Thin I/O around the decisions in conflicts.ts.
 */

const ENDPOINT_EXTENSIONS = ['.ts', '.js', '.mjs', '.mts'];
const ROBOTS_ROUTE_FILES = ENDPOINT_EXTENSIONS.map((ext) => `robots.txt${ext}`);

/**
 * Whether the project has an endpoint file of its own for `path` (`/rss.xml` -> `src/pages/rss.xml.js`):
 * then this integration does not inject its route there (Astro would serve one of the two, and announces
 * such collisions as a future hard error).
 */
export function hasOwnRouteFile(pagesDir: URL, path: string): boolean {
  const relative = path.replace(/^\/+/, '');
  return ENDPOINT_EXTENSIONS.some((ext) => existsSync(new URL(`${relative}${ext}`, pagesDir)));
}

/** Whether the project has a robots.txt of its own before the build (a public file or a route file). */
export function hasOwnRobotsTxt(publicDir: URL, pagesDir: URL): boolean {
  return (
    existsSync(new URL('robots.txt', publicDir)) ||
    ROBOTS_ROUTE_FILES.some((file) => existsSync(new URL(file, pagesDir)))
  );
}

/** The warning for `public/robots.txt` when it does not name the sitemap (undefined: fine, or no such file). */
export function checkPublicRobotsTxt(publicDir: URL, sitemapUrl: string): string | undefined {
  const file = new URL('robots.txt', publicDir);
  if (!existsSync(file)) return undefined;
  return robotsTxtProblem(readFileSync(file, 'utf8'), sitemapUrl, 'public/robots.txt');
}

/** The sitemap index `@astrojs/sitemap` writes. */
const OTHER_INDEX = 'sitemap-index.xml';

/**
 * Whether a sitemap URL is ours or leads to ours: a sitemap index of the built site that lists it (the "Both"
 * setup of the migrating guide: `@astrojs/sitemap`'s index names ours through `customSitemaps`). With that
 * integration in `integrations`, its `sitemap-index.xml` not written yet (it writes at the end of the build too,
 * after us when listed after us) is given the benefit of the doubt: the conflict warning says to list ours in it.
 */
export function builtIndexListsOurs(
  outDir: URL,
  blogSite: string,
  sitemapUrl: string,
  otherSitemapIntegration: boolean,
): ListsOurSitemap {
  const site = new URL(blogSite);
  return (url) => {
    if (url === sitemapUrl) return true;
    const parsed = URL.parse(url);
    if (!parsed || parsed.origin !== site.origin || !parsed.pathname.startsWith(site.pathname)) return false;
    const file = pathIn(outDir, parsed.pathname.slice(site.pathname.length));
    if (!existsSync(file)) return otherSitemapIntegration && parsed.pathname.endsWith(`/${OTHER_INDEX}`);
    try {
      const xml = readFileSync(file, 'utf8');
      return /<sitemapindex\b/.test(xml) && xml.includes(`<loc>${sitemapUrl}</loc>`);
    } catch {
      return false;
    }
  };
}

/**
 * Static output, at `astro:build:done`: keeps a robots.txt the build produced (from `public/` or a route)
 * and returns the warning when it leads to no sitemap of ours (see builtIndexListsOurs); otherwise writes ours
 * when `serve` is set.
 */
export async function settleBuiltRobotsTxt(
  outDir: URL,
  sitemapUrl: string,
  serve: boolean,
  listsOurs: ListsOurSitemap,
  served?: (url: string) => boolean,
): Promise<{ written: boolean; warning?: string | undefined }> {
  const file = new URL('robots.txt', outDir);
  let existing: string | undefined;
  try {
    existing = await readFile(file, 'utf8');
  } catch {
    existing = undefined;
  }
  if (existing !== undefined)
    return {
      written: false,
      warning: robotsTxtProblem(existing, sitemapUrl, "The blog's robots.txt", listsOurs, served),
    };
  if (!serve) return { written: false };
  await mkdir(outDir, { recursive: true });
  await writeFile(file, robotsTxtBody(sitemapUrl), 'utf8');
  return { written: true };
}

/** Names of the project's dependencies (package.json), empty when unreadable. */
export function projectDependencies(root: URL): string[] {
  try {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies'].flatMap((key) =>
      Object.keys((pkg[key] as Record<string, string> | undefined) ?? {}),
    );
  } catch {
    return [];
  }
}

/**
 * The files at `paths` that an earlier build left in `outDir` (`vite.build.emptyOutDir: false` keeps `dist`
 * for incremental builds), read when this build starts, before it writes anything. The function it returns
 * says, at the end of the build, whether a file is still as that earlier build left it (no route, `public/`
 * or other integration wrote it since): then it is not the blog's own, and ours is written over it.
 */
export function earlierOutputs(outDir: URL, publicDir: URL, paths: Iterable<string>): (path: string) => boolean {
  const mtime = (path: string) => {
    try {
      return statSync(pathIn(outDir, path)).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const before = new Map<string, number>();
  for (const path of paths) {
    const time = mtime(path);
    if (time !== undefined) before.set(path, time);
  }
  return (path) => before.has(path) && mtime(path) === before.get(path) && !existsSync(pathIn(publicDir, path));
}

/** At most this many built pages are read for links to a sitemap: a theme's head and footer repeat on every page. */
const SITEMAP_LINK_PAGES = 40;

/**
 * The built pages read for links to a sitemap: the home page, the 404 page, and the first page of each folder
 * of the output (`blog/`, `tags/`, `about/`), so that each of a theme's layouts is seen once.
 */
export function sitemapLinkPages(htmlFiles: readonly string[]): string[] {
  const sorted = [...htmlFiles].filter((file) => file.endsWith('.html')).sort();
  const chosen = new Set<string>(sorted.filter((file) => file === 'index.html' || file === '404.html'));
  const folders = new Set<string>();
  for (const file of sorted) {
    if (chosen.size >= SITEMAP_LINK_PAGES) break;
    const folder = file.includes('/') ? file.slice(0, file.indexOf('/')) : '';
    if (folders.has(folder)) continue;
    folders.add(folder);
    chosen.add(file);
  }
  return [...chosen];
}

/** Whether the built output (or, for its names, another sitemap integration writing after us) has a file at `url`. */
export function builtFileAt(outDir: URL, blogSite: string, otherSitemapIntegration: boolean): (url: string) => boolean {
  const site = new URL(blogSite);
  return (url) => {
    const parsed = URL.parse(url);
    if (!parsed || parsed.origin !== site.origin || !parsed.pathname.startsWith(site.pathname)) return false;
    if (existsSync(pathIn(outDir, decodeURIComponent(parsed.pathname.slice(site.pathname.length))))) return true;
    return otherSitemapIntegration && /\/(?:sitemap-index|sitemap-\d+)\.xml$/.test(parsed.pathname);
  };
}

/**
 * Static output: the warning for built pages that link to a sitemap the build does not write (a footer's
 * `<a href>`, a `<link rel="sitemap">`), read from a sample of the pages (sitemapLinkPages).
 */
export async function checkBuiltSitemapLinks(
  outDir: URL,
  htmlFiles: readonly string[],
  blogSite: string,
  facts: SitemapFacts,
): Promise<string | undefined> {
  const found: Array<SitemapLink & { page: string }> = [];
  for (const page of sitemapLinkPages(htmlFiles)) {
    let html;
    try {
      html = await readFile(pathIn(outDir, page), 'utf8');
    } catch {
      continue;
    }
    const pageUrl = new URL(page.replace(/(^|\/)index\.html$/, '$1'), blogSite).href;
    for (const link of sitemapLinksIn(html, pageUrl)) found.push({ ...link, page });
  }
  return sitemapLinksProblem(found, facts);
}
