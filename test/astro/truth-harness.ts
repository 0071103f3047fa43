/**
 * "One blog, one truth" checks of a built site: every URL of /sitemap.xml, every item link of /rss.xml and
 * every internal link of every article page is requested from `astro preview`; the figures (URLs checked,
 * how many did not answer 200) are what the closing note reports.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { preview, type AstroInlineConfig } from 'astro';

export interface LinkCheck {
  /** Every distinct URL requested (sitemap locs, feed links, article pages' internal links). */
  checked: number;
  /** The URLs that did not answer 200, with their status. */
  failures: Array<{ url: string; status: number; from: string }>;
  sitemapLocs: string[];
  rssLinks: string[];
  /** Article pages found in the output (index.html files under the article folder). */
  articlePages: number;
  /** Links in article pages still pointing at a service article the blog has. */
  serviceLinksToOwnArticles: string[];
}

const locsOf = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
const itemLinksOf = (xml: string) =>
  [...xml.matchAll(/<item>[\s\S]*?<link>([^<]*)<\/link>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/**
 * Serves `outDir` with `astro preview` and checks the links. `site` is the blog's public origin: its URLs
 * are requested from the preview server instead. `articleDir` is the output folder of the article pages
 * relative to outDir (e.g. `blog`).
 */
export async function checkBuiltSite(opts: {
  root: string;
  outDir: string;
  config: AstroInlineConfig;
  site: string;
  articleDir: string;
  serviceOrigin: string;
  /** Slugs the blog has (its article pages). */
  ownSlugs: ReadonlySet<string>;
}): Promise<LinkCheck> {
  const server = await preview({
    ...opts.config,
    root: opts.root,
    outDir: opts.outDir,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
  });
  try {
    return await checkLinks({ ...opts, local: `http://127.0.0.1:${server.port}`, base: opts.config.base ?? '/' });
  } finally {
    await server.stop();
  }
}

/**
 * The checks of `checkBuiltSite` against a server already running at `local` (sitemap-coexist serves its
 * build its own way).
 */
export async function checkLinks(opts: {
  local: string;
  outDir: string;
  base: string;
  site: string;
  articleDir: string;
  serviceOrigin: string;
  ownSlugs: ReadonlySet<string>;
}): Promise<LinkCheck> {
  const { local } = opts;
  const origin = new URL(opts.site).origin;
  const get = async (url: string) => fetch(url.replace(origin, local), { redirect: 'manual' });
  const sitemapPath = opts.base.replace(/\/?$/, '/') + 'sitemap.xml';
  const rssPath = opts.base.replace(/\/?$/, '/') + 'rss.xml';
  const sitemapLocs = locsOf(await (await get(local + sitemapPath)).text());
  const rssLinks = itemLinksOf(await (await get(local + rssPath)).text());
  const targets = new Map<string, string>();
  for (const loc of sitemapLocs) targets.set(loc, 'sitemap');
  for (const link of rssLinks) if (!targets.has(link)) targets.set(link, 'rss');

  const articleRoot = join(opts.outDir, opts.articleDir);
  const pages = await htmlFiles(articleRoot);
  const serviceLinksToOwnArticles: string[] = [];
  for (const file of pages) {
    const html = await readFile(file, 'utf8');
    const from = relative(opts.outDir, file);
    const pageUrl = new URL(from, `${origin}${opts.base.replace(/\/?$/, '/')}`).href;
    for (const m of html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)) {
      const href = (m[1] ?? '').replaceAll('&amp;', '&');
      const absolute = new URL(href, pageUrl);
      if (absolute.origin === origin) {
        absolute.hash = '';
        if (!targets.has(absolute.href)) targets.set(absolute.href, from);
      } else if (absolute.origin === opts.serviceOrigin) {
        // The service's article URL, with the language first on a multilingual service (/fr/blog/<slug>/).
        const slug = /^(?:\/[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?)?\/blog\/([^/]+)\/?$/.exec(absolute.pathname)?.[1];
        if (slug !== undefined && opts.ownSlugs.has(slug)) serviceLinksToOwnArticles.push(`${from}: ${href}`);
      }
    }
  }
  const failures: LinkCheck['failures'] = [];
  for (const [url, from] of targets) {
    const response = await get(url);
    await response.arrayBuffer();
    if (response.status !== 200) failures.push({ url, status: response.status, from });
  }
  return {
    checked: targets.size,
    failures,
    sitemapLocs,
    rssLinks,
    articlePages: pages.length,
    serviceLinksToOwnArticles,
  };
}

/** The slugs of the article pages in the output (`<articleDir>/<slug>/index.html` or `<articleDir>/<slug>.html`). */
export async function builtSlugs(outDir: string, articleDir: string): Promise<Set<string>> {
  const files = await htmlFiles(join(outDir, articleDir));
  return new Set(
    files
      .map((f) => relative(join(outDir, articleDir), f).replace(/(?:\/index)?\.html$/, ''))
      .filter((s) => s !== 'index' && !s.includes('/')),
  );
}
