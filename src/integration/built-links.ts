import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { articleTargetOf } from './article-links-response.js';
import { articleLinkContextOf } from './known-articles.js';
import { rewriteLinkChunk } from './link-tags.js';
import type { RouteConfig } from './route-config.js';

/**
 * Static output, at `astro:build:done`: the links inside the built pages that still name a service article
 * which the blog now has (and built) go to the blog's page. The middleware already did this for every page
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
  const target = articleTargetOf(ctx);
  let rewritten = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = join(entry.parentPath, entry.name);
    // As bytes (latin1: one character per byte), with the middleware's linear scan: a page in any
    // encoding keeps every byte the rewrite does not change, and hostile text costs linear time.
    const html = (await readFile(file)).toString('latin1');
    const next = rewriteLinkChunk(html, target, true).out;
    if (next === html) continue;
    await writeFile(file, Buffer.from(next, 'latin1'));
    rewritten += 1;
  }
  return rewritten;
}
