/**
 * Static output: a renamed article's old URL redirects to its new one from the first build after the rename
 * (issue 38, item 1). Each old URL that nothing else serves gets a small redirect page (meta refresh, canonical
 * link, noindex: what a host without redirect rules can do), and, where the host reads one (Netlify and
 * Cloudflare, or a `_redirects` the blog already has), a 301 line appended to `_redirects`. The pages are never
 * listed in the sitemap or the feed: they are no page of Astro's. On demand the middleware answers 301 instead.
 */
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blogArticleUrl, blogPageKey, type PageSet } from '../../html/article-links.js';
import type { RouteConfig } from '../settings/route-config.js';

/** Adapters whose host reads `_redirects` in the output (each appends its own lines there too). */
const REDIRECTS_FILE_HOSTS = new Set(['@astrojs/netlify', '@astrojs/cloudflare']);

export interface MovedRedirect {
  /** The old URL's path on the blog's domain (`/blog/old/`), and the new URL, absolute. */
  from: string;
  to: string;
}

/**
 * The redirects of the renamed articles (`RouteConfig.articles.moved`): from the old URL, where the blog serves
 * no page (`pages`), to the new one, where it does. Never a loop, never a redirect to a page it does not serve.
 */
export function movedRedirects(config: RouteConfig, pages: PageSet): MovedRedirect[] {
  const moved = config.articles?.moved;
  if (moved === undefined || config.blogSite === '') return [];
  const out: MovedRedirect[] = [];
  for (const [key, to] of Object.entries(moved)) {
    const at = key.indexOf(':');
    const language = key.slice(0, at) || undefined;
    const from = key.slice(at + 1);
    const oldUrl = blogArticleUrl(from, config, language);
    const newUrl = blogArticleUrl(to, config, language);
    if (oldUrl === undefined || newUrl === undefined || oldUrl === newUrl) continue;
    if (pages.has(blogPageKey(new URL(oldUrl), config.blogSite))) continue;
    if (!pages.has(blogPageKey(new URL(newUrl), config.blogSite))) continue;
    out.push({ from: new URL(oldUrl).pathname, to: newUrl });
  }
  return out.sort((a, b) => a.from.localeCompare(b.from));
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page left at an old URL: sends readers and crawlers on, and is never indexed itself. */
export function redirectPage(to: string): string {
  const url = escapeAttribute(to);
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>Moved to ${url}</title>`,
    `<meta http-equiv="refresh" content="0;url=${url}">`,
    `<link rel="canonical" href="${url}">`,
    '<meta name="robots" content="noindex">',
    `</head><body><p>This article moved to <a href="${url}">${url}</a>.</p></body></html>`,
    '',
  ].join('\n');
}

/** The file a static build serves at a path (`/blog/x/` -> `blog/x/index.html`; `build.format: 'file'` -> `blog/x.html`). */
function fileOf(path: string, blogSite: string, format: 'directory' | 'file' | 'preserve'): string {
  const base = new URL(blogSite).pathname;
  const rel = decodeURIComponent(path.slice(base.length)).replace(/\/+$/, '');
  if (rel.endsWith('.html')) return rel;
  return format === 'file' ? `${rel}.html` : `${rel}/index.html`;
}

/**
 * Writes the redirects into a static build's output `dir`: a page at each old URL where no file is (after the
 * links pass removed the pages an earlier build left), and the 301 lines in `_redirects` where the host reads
 * it. Returns how many redirects were written, and whether `_redirects` got them.
 */
export function writeMovedRedirects(
  dir: URL,
  redirects: readonly MovedRedirect[],
  options: { blogSite: string; format: 'directory' | 'file' | 'preserve'; adapter: string | undefined },
): { pages: number; hostFile: boolean } {
  const root = fileURLToPath(dir);
  let pages = 0;
  for (const { from, to } of redirects) {
    const file = join(root, fileOf(from, options.blogSite, options.format));
    if (existsSync(file)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, redirectPage(to));
    pages += 1;
  }
  const hostFile = join(root, '_redirects');
  const readsFile =
    (options.adapter !== undefined && REDIRECTS_FILE_HOSTS.has(options.adapter)) || existsSync(hostFile);
  if (!readsFile || redirects.length === 0) return { pages, hostFile: false };
  // Appended: the blog's own lines (from public/) and the adapter's come first, and the first match wins. Netlify
  // serves a file at the path before a rule unless the rule is forced (`!`); Cloudflare applies rules first.
  const status = options.adapter === '@astrojs/netlify' ? '301!' : '301';
  const lines = redirects.map(({ from, to }) => `${from} ${new URL(to).pathname} ${status}`);
  appendFileSync(hostFile, `\n# astro-content-publisher: renamed articles\n${lines.join('\n')}\n`);
  return { pages, hostFile: true };
}
