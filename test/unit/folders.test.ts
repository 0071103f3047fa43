/**
 * Issue 40, items 1 and 5: `src/` reads as the architecture. Each folder has a one-line purpose at its top (the
 * first line of its index.ts, or its README.md), and imports only go down the order below: a module may import
 * from its own folder and from the folders listed before its own, never from one listed after it. The check
 * reads every import, export-from and `import()` of src/ (type-only ones too: they are a dependency a reader
 * has to follow all the same).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The folders, lowest first, each with the reason it sits where it does. src/loader/ and src/integration/ are
 * mapped folder by folder; any other top-level folder counts as one (its subfolders are part of it).
 */
const ORDER: ReadonlyArray<readonly [string, string]> = [
  ['options', 'message prefix, option fields, redaction: every boundary uses them, they use nothing of ours'],
  ['html', "an article's HTML (sanitising, links to articles): needs only the options"],
  ['feeds', 'the XML readers and writers of sitemap and feed: pure, over the HTML link helpers'],
  ['client', 'the REST client and the public feeds fetcher: decodes XML with the feeds readers'],
  ['loader/state', 'what the loaders keep between builds: stored shapes, read by every step above'],
  ['loader/errors', 'the errors and warnings the loaders throw and log'],
  ['loader/entries', 'an article as an entry: its schema and safety, used by every writer of entries'],
  ['loader/process', 'records the loaders publish for the integration: they need the entry shape'],
  ['loader/images', "an entry's images: need the entry schema and the cacheDir files"],
  ['loader/budget', 'the request budget and clients: the rate window is a per-process record'],
  ['loader/evidence', 'what the signals prove: pure, over the stored state'],
  ['loader/options', 'the loaders options: the images option, the moves kept, the runs record'],
  ['loader/sync', 'the sync steps: budget, evidence, images and entries under them'],
  ['loader/articles', 'articlesLoader: runs the sync steps and reports what they did'],
  ['loader/live', 'liveArticlesLoader: entries, budget and process records, no sync steps'],
  ['loader/data', 'keywordsLoader and digestLoader: the budget and the stored state'],
  ['loader', 'the ./loaders entry point: re-exports the loaders'],
  ['integration/settings', "the routes' settings: the shape every part of the integration passes around"],
  ['integration/options', "publisher() options: resolved into the routes' settings"],
  ['integration/blog', "what the blog has: reads the settings and the loaders' records"],
  ['integration/links', 'links to the blog: need to know which articles the blog has'],
  ['integration/cache', "copies of upstream documents: the loaders' local invalidation only"],
  ['integration/proxy', "the sitemap and feed as the blog's: the blog's articles and its links"],
  ['integration/invalidate', 'the invalidation endpoint and its wiring into the options'],
  ['integration/dev', 'astro dev: polls the feed through the proxy, refreshes the loaders'],
  ['integration/build', 'the end-of-build passes: proxy, cache, links and what the blog has'],
  ['integration/vite', 'the Vite plugins: the settings module and the assets the build pass reads'],
  ['integration/routes', 'the injected routes: over the proxy, the cache, the links and the invalidation'],
  ['integration', 'publisher() and ./rss: the hooks wire every folder of the integration'],
  ['head', "an article page's head: the entry helpers and the blog's URL layout (the routes' settings)"],
  ['index.ts', 'the package entry point: re-exports the integration'],
  ['watch', "content-publisher watch: the client, the feeds and the loaders' cache tags"],
  ['simulator', "the local service for tests and demos: the client's shapes"],
  ['cli', 'the command line: runs the watcher, the simulator and the client'],
];

const MAPPED = ['loader', 'integration'];
/** The folder a file of src/ belongs to, as ORDER names it. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return file;
  if (MAPPED.includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

function sources(dir = SRC): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name))
    .map((e) => relative(SRC, join(e.parentPath, e.name)).split('\\').join('/'));
}

interface Edge {
  from: string;
  to: string;
  file: string;
  specifier: string;
}
let found: Edge[] | undefined;
function edges(): Edge[] {
  if (found) return found;
  const out: Edge[] = [];
  for (const file of sources()) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), fileName));
      if (target.startsWith('../')) continue;
      const from = folderOf(file);
      const to = folderOf(target.replace(/\.js$/, '.ts'));
      if (from !== to) out.push({ from, to, file, specifier: fileName });
    }
  }
  return (found = out);
}

const rank = new Map(ORDER.map(([folder], i) => [folder, i]));

describe('src/ folders', () => {
  it('every folder is in the order, with a reason, and every folder in the order exists', () => {
    const present = [...new Set(sources().map(folderOf))].sort();
    expect(
      present.filter((f) => !rank.has(f)),
      'add these to ORDER in test/unit/folders.test.ts',
    ).toEqual([]);
    expect(
      ORDER.map(([f]) => f).filter((f) => !present.includes(f)),
      'gone from src/: drop from ORDER',
    ).toEqual([]);
    for (const [folder, reason] of ORDER) expect(reason.length, folder).toBeGreaterThan(10);
  });

  it('imports only go down: no module imports from a folder listed after its own', () => {
    const upward = edges()
      .filter((e) => rank.get(e.to)! > rank.get(e.from)!)
      .map((e) => `src/${e.file} imports ${e.specifier} (${e.from} -> ${e.to}, which is above it)`);
    expect(upward).toEqual([]);
  });

  it('no circle across folders', () => {
    const next = new Map<string, Set<string>>();
    for (const e of edges()) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]) => {
      state.set(node, 'open');
      for (const to of next.get(node) ?? []) {
        if (state.get(to) === 'open') circles.push([...path.slice(path.indexOf(to)), to].join(' -> '));
        else if (!state.has(to)) visit(to, [...path, to]);
      }
      state.set(node, 'done');
    };
    for (const node of next.keys()) if (!state.has(node)) visit(node, [node]);
    expect(circles).toEqual([]);
  });

  it('each folder starts with its one-line purpose (index.ts comment or README.md)', () => {
    const lacking: string[] = [];
    for (const [folder] of ORDER) {
      if (folder.endsWith('.ts')) continue;
      const dir = join(SRC, folder);
      const index = join(dir, 'index.ts');
      const readme = join(dir, 'README.md');
      const first = existsSync(index)
        ? (/^\s*(?:\/\/|\/\*\*?)\s*(.*)/.exec(readFileSync(index, 'utf8'))?.[1] ?? '')
        : existsSync(readme)
          ? (readFileSync(readme, 'utf8').split('\n')[0] ?? '')
          : '';
      if (first.trim().length < 20) lacking.push(`src/${folder}`);
    }
    expect(lacking, 'start its index.ts with a `// purpose` line, or give it a README.md').toEqual([]);
  });

  it('the check sees the imports it judges (a folder that imports nothing of ours would hide a parse error)', () => {
    expect(edges().length).toBeGreaterThan(100);
  });
});
