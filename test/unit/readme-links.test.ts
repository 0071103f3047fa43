/**
 * Every link to the documentation names a heading that exists: the links in error messages and comments of
 * src/ (`https://www.npmjs.com/package/astro-content-publisher#<anchor>`, the published README, written out or
 * as the options toolkit's `docs: '<anchor>'`), and the
 * links between the README and the pages of docs/. Anchors are computed the way GitHub (and npm) compute
 * them from a heading: lower-case, punctuation removed, spaces to hyphens, a repeated one suffixed -1, -2.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** GitHub's anchor of a heading's text (inline code marks and emphasis are not part of it). */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file: one per heading outside code fences, plus explicit `<a id>`s. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fence = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    if (fence) continue;
    const id = /<a id="([^"]+)"><\/a>/.exec(line)?.[1];
    if (id) anchors.add(id);
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (!heading) continue;
    const base = githubSlug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ext))
    .map((entry) => join(entry.parentPath, entry.name));
}

const readme = join(root, 'README.md');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
/** Where the README links the docs: the files of the published package, which npm and unpkg serve. */
const DOCS_BASE = 'https://unpkg.com/astro-content-publisher/';

/** The Markdown link targets of a file, outside code fences. */
function linksOf(file: string): string[] {
  let fence = false;
  const text = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fence = !fence;
      return !fence;
    })
    .join('\n');
  return [...text.matchAll(/\]\(([^)\s]*)\)/g)].map((match) => match[1]!);
}
const docs = filesUnder(join(root, 'docs'), '.md');

describe('links to the documentation', () => {
  it('computes anchors as GitHub does', () => {
    expect(githubSlug('`budget.maxRequests`')).toBe('budgetmaxrequests');
    expect(githubSlug('Migrating from `@astrojs/sitemap` and `@astrojs/rss`')).toBe(
      'migrating-from-astrojssitemap-and-astrojsrss',
    );
    expect(githubSlug('Deploy: keep the store between builds')).toBe('deploy-keep-the-store-between-builds');
    expect(githubSlug("Images through Astro's image pipeline")).toBe('images-through-astros-image-pipeline');
    expect(githubSlug('`allowInsecureHttp`')).toBe('allowinsecurehttp');
  });

  it('every README link in src/ names a heading of the README, and none says "README section" without a link', () => {
    const readmeAnchors = anchorsOf(readme);
    const links: string[] = [];
    const broken: string[] = [];
    const unlinked: string[] = [];
    for (const file of filesUnder(join(root, 'src'), '.ts')) {
      const text = readFileSync(file, 'utf8');
      const where = relative(root, file);
      for (const match of text.matchAll(
        /https:\/\/www\.npmjs\.com\/package\/astro-content-publisher(?:#([^\s`'")\].,;]*))?/g,
      )) {
        // The bare address is allowed only as the constant the toolkit builds its links from (README_URL).
        if (match[1] === undefined && text.startsWith("';", match.index + match[0].length)) continue;
        links.push(`${where}#${match[1] ?? ''}`);
        if (!match[1] || !readmeAnchors.has(match[1])) broken.push(`${where}: ${match[0]}`);
      }
      for (const match of text.matchAll(/README(?:'s)?(?: section|, section|,) "[^"\n]*"/g))
        unlinked.push(`${where}: ${match[0]}`);
      // The options toolkit links `${README_URL}#${context.docs}`: each boundary's `docs` is an anchor.
      for (const match of text.matchAll(/\bdocs: '([^']*)'/g)) {
        links.push(`${where}#${match[1]}`);
        if (!readmeAnchors.has(match[1]!)) broken.push(`${where}: docs: '${match[1]}'`);
      }
    }
    expect(broken).toEqual([]);
    expect(unlinked).toEqual([]);
    // The boundaries that link to their options: loader, integration, rss handler, simulator, conflicts, CI notice.
    expect(links.length).toBeGreaterThanOrEqual(12);
  });

  it('every link of the docs pages resolves to a file and a heading that exist', () => {
    const broken: string[] = [];
    for (const file of docs) {
      for (const target of linksOf(file)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(linked)) broken.push(`${relative(root, file)}: ${target} (no such file)`);
        else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) {
          broken.push(`${relative(root, file)}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every README link works where the README is read (the npm page, the repository): in-page, or an absolute address of a shipped file', () => {
    const shipped = pkg.files;
    const broken: string[] = [];
    let absolute = 0;
    for (const target of linksOf(readme)) {
      if (target.startsWith('#')) {
        if (!anchorsOf(readme).has(target.slice(1))) broken.push(`${target} (no such heading)`);
        continue;
      }
      if (target.startsWith(DOCS_BASE)) {
        absolute += 1;
        const [path, anchor] = target.slice(DOCS_BASE.length).split('#') as [string, string | undefined];
        const file = join(root, path);
        if (!existsSync(file)) broken.push(`${target} (no such file)`);
        else if (!shipped.some((entry) => path === entry || path.startsWith(`${entry}/`)))
          broken.push(`${target} (not in package.json "files": not on unpkg)`);
        else if (anchor !== undefined && !anchorsOf(file).has(anchor)) broken.push(`${target} (no such heading)`);
        continue;
      }
      // A relative link resolves on the repository but not on the npm page (no "repository" to resolve it against).
      if (!/^https?:/.test(target)) broken.push(`${target} (relative: dead on the npm page)`);
    }
    expect(broken).toEqual([]);
    expect(absolute).toBeGreaterThanOrEqual(20);
  });

  it('the README links every guide and reference page', () => {
    const text = readFileSync(readme, 'utf8');
    const pages = docs.filter(
      (page) => !relative(join(root, 'docs'), page).startsWith(`reference${sep}astro-content-publisher${sep}`),
    );
    expect(pages.length).toBeGreaterThanOrEqual(12);
    for (const page of pages)
      expect(text, relative(root, page)).toContain(`](${DOCS_BASE}${relative(root, page).split(sep).join('/')}`);
  });

  it('the README fits a first read: at most 20 KB', () => {
    expect(readFileSync(readme).length).toBeLessThanOrEqual(20 * 1024);
  });
});
