import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Static output: the blog's own pages that ask search engines not to index them (a theme's tag and author
 * pages often do, and its `@astrojs/sitemap` filter left them out). Listing them in the sitemap gets "Submitted
 * URL marked noindex" in Search Console, so the sitemap written at the end of the build leaves them out.
 */

const META = /<meta\b[^>]*>/gi;
const ATTRIBUTE = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');

/** Whether the page's head has `<meta name="robots" content="…noindex…">` (or `none`, or for `googlebot`). */
export function pageSaysNoindex(html: string): boolean {
  const end = html.search(/<\/head\s*>|<body\b/i);
  const head = end === -1 ? html.slice(0, 65_536) : html.slice(0, end);
  for (const [tag] of head.matchAll(META)) {
    const name = ATTRIBUTE('name').exec(tag);
    const content = ATTRIBUTE('content').exec(tag);
    const robots = (name?.[1] ?? name?.[2] ?? name?.[3] ?? '').trim().toLowerCase();
    if (robots !== 'robots' && robots !== 'googlebot') continue;
    const directives = (content?.[1] ?? content?.[2] ?? content?.[3] ?? '').toLowerCase().split(/[\s,]+/);
    if (directives.includes('noindex') || directives.includes('none')) return true;
  }
  return false;
}

/** The built file of a page URL under `blogSite` (directory or file format), if there is one. */
function builtFile(outDir: URL, blogSite: string, url: string): string | undefined {
  if (!url.startsWith(blogSite)) return undefined;
  const path = decodeURI(url.slice(blogSite.length).split(/[?#]/)[0] ?? '');
  const bare = path.replace(/\/+$/, '');
  const candidates = path.endsWith('.html')
    ? [path]
    : bare === ''
      ? ['index.html']
      : [`${bare}/index.html`, `${bare}.html`];
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, outDir));
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** `urls` split by what their built page says: indexable (or not built here), and marked noindex. */
export function splitNoindex(
  outDir: URL,
  blogSite: string,
  urls: readonly string[],
): { indexable: string[]; noindex: string[] } {
  const indexable: string[] = [];
  const noindex: string[] = [];
  for (const url of urls) {
    const file = builtFile(outDir, blogSite, url);
    (file && pageSaysNoindex(readFileSync(file, 'utf8')) ? noindex : indexable).push(url);
  }
  return { indexable, noindex };
}
