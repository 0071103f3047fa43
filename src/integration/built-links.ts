import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  blogArticleRef,
  blogArticleUrl,
  pageKey,
  serviceArticleUrl,
  type ArticleLinkContext,
} from '../html/article-links.js';
import { articleTargetOf } from './article-links-response.js';
import { articleLinkContextOf } from './known-articles.js';
import { rewriteLinkChunk, type LinkTarget } from './link-tags.js';
import type { RouteConfig } from './route-config.js';

/** Pages read and rewritten at once at the end of a build. */
const PAGES_AT_ONCE = 16;

/**
 * The way back: a link that an earlier build pointed at the blog's page of an article (the blog's absolute URL
 * of it, as the middleware writes it) whose page this build did not write (the article left the blog, or is
 * left in another language only) goes to the article's URL on the service, keeping query and fragment. Only
 * when the built pages are known (static output); a page of the blog's own that was built is never touched.
 */
export function goneArticleTarget(ctx: ArticleLinkContext, serviceOrigin: string): LinkTarget {
  return (href) => {
    if (ctx.pages === undefined || serviceOrigin === '' || !URL.canParse(href)) return undefined;
    const url = new URL(href);
    const address = url.origin + url.pathname;
    const ref = blogArticleRef(address, ctx);
    if (ref === undefined || blogArticleUrl(ref.slug, ctx, ref.language) !== address) return undefined;
    const base = new URL(ctx.blogSite).pathname;
    if (ctx.pages.has(pageKey(url.pathname.slice(base.length)))) return undefined;
    return serviceArticleUrl(ref, serviceOrigin) + url.search + url.hash;
  };
}

/**
 * Static output, at `astro:build:done`: the links inside the built pages that still name a service article
 * which the blog now has (and built) go to the blog's page, and those that name the blog's page of an
 * article it no longer has (in that language) go back to the service (`goneArticleTarget`). The middleware already did this for every page
 * it rendered; a page that this build did not render (Astro's incremental build keeps a page whose
 * `cacheKey` did not change, such as an article whose own digest stayed while an article it links to
 * arrived) was written with the links of an earlier build. Returns how many files were rewritten.
 */
export async function rewriteBuiltArticleLinks(dir: URL, config: RouteConfig): Promise<number> {
  const ctx = articleLinkContextOf(config);
  if (ctx === undefined || config.blogSite === '') return 0;
  const root = fileURLToPath(dir);
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  const toBlog = articleTargetOf(ctx);
  // The site's public host on the service (its articles' `url`), not the API's origin.
  const publicOrigin = ctx.serviceOrigins.find((origin) => origin !== config.serviceOrigin) ?? '';
  const back = goneArticleTarget(ctx, publicOrigin);
  const target: LinkTarget = (href, pageLanguage) => toBlog(href, pageLanguage) ?? back(href, pageLanguage);
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
  let rewritten = 0;
  let next = 0;
  // Several pages read at once: one read at a time left the build waiting on the disk (at 1,000 pages,
  // about half of the end of a one-change rebuild was idle).
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      // As bytes (latin1: one character per byte), with the middleware's linear scan: a page in any
      // encoding keeps every byte the rewrite does not change, and hostile text costs linear time.
      const html = (await readFile(file)).toString('latin1');
      const out = rewriteLinkChunk(html, target, true).out;
      if (out === html) continue;
      await writeFile(file, Buffer.from(out, 'latin1'));
      rewritten += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PAGES_AT_ONCE, files.length) }, worker));
  return rewritten;
}
