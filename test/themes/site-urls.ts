/**
 * "Every URL the built site names answers 200": every `href`, `src` and `srcset` URL of every HTML page in
 * the output, every `<loc>` of the sitemap (and of its parts when it is an index) and every link of the
 * feeds, requested from a running `astro preview`. URLs on another origin than the blog's are counted,
 * not requested (the test machine reaches no other host); the service's own URLs are listed apart, since
 * a page naming the service (rather than the blog) is a finding of its own.
 */
import { execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, relative, sep } from 'node:path';
import { Parser } from 'htmlparser2';

export interface SiteUrlCheck {
  /** Distinct URLs on the blog's origin that were requested. */
  checked: number;
  /** Those that did not answer 200, with their status and the first file that names them. */
  failures: Array<{ url: string; status: number; from: string }>;
  /** Distinct URLs on other origins (not requested), by origin. */
  external: Map<string, number>;
  /** URLs on the service's public site origin (`serviceOrigin`), with the file naming them. */
  serviceUrls: Array<{ url: string; from: string }>;
  sitemapLocs: string[];
  /** Item links, per feed path. */
  feedLinks: Map<string, string[]>;
  /** HTML pages read. */
  pages: number;
}

const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset']);
/** Schemes that name no document to request. */
const SKIPPED = /^(?:mailto|tel|javascript|data|blob|about):/i;

/** The URLs that a page's attributes name, resolved against the page's own URL. */
export function urlsOfHtml(html: string, pageUrl: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        for (const [name, value] of Object.entries(attributes)) {
          if (!URL_ATTRIBUTES.has(name)) continue;
          const candidates =
            name === 'srcset' ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '') : [value.trim()];
          for (const candidate of candidates) {
            if (candidate === '' || SKIPPED.test(candidate)) continue;
            try {
              const url = new URL(candidate, pageUrl);
              url.hash = '';
              found.push(url.href);
            } catch {
              found.push(`invalid:${candidate}`);
            }
          }
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return found;
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) => unescapeXml(m[1] ?? ''));
/** Every URL a feed names besides its items' links: the channel's, `atom:link` and enclosures. */
const otherFeedUrlsOf = (xml: string) =>
  [
    ...xml.matchAll(/<link>\s*([^<]*?)\s*<\/link>/g),
    ...xml.matchAll(/<atom:link\b[^>]*\shref="([^"]*)"/g),
    ...xml.matchAll(/<enclosure\b[^>]*\surl="([^"]*)"/g),
  ].map((m) => unescapeXml(m[1] ?? ''));
const itemLinksOf = (xml: string) =>
  [...xml.matchAll(/<item\b[\s\S]*?<link>\s*([^<]*?)\s*<\/link>/g)].map((m) => unescapeXml(m[1] ?? ''));
const unescapeXml = (text: string) =>
  text
    .replace(/^<!\[CDATA\[|\]\]>$/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/** The public URL of an output file: `en/blog/x/index.html` -> `<site>/en/blog/x/`. */
function pageUrlOf(outDir: string, file: string, site: string): string {
  const path = relative(outDir, file).split(sep).join('/');
  return new URL(path.replace(/(^|\/)index\.html$/, '$1'), site).href;
}

/**
 * Checks the built site in `outDir` against the preview server at `local`. `site` is the blog's public
 * URL (Astro's `site`); `feeds` the paths of the feeds to read (e.g. `['/en/rss.xml']`).
 */
export async function checkSiteUrls(opts: {
  local: string;
  outDir: string;
  site: string;
  serviceOrigin: string;
  sitemapPath?: string;
  feeds: string[];
}): Promise<SiteUrlCheck> {
  const origin = new URL(opts.site).origin;
  const toLocal = (url: string) => opts.local + url.slice(origin.length);
  const targets = new Map<string, string>();
  const external = new Map<string, number>();
  const externalSeen = new Set<string>();
  const serviceUrls: SiteUrlCheck['serviceUrls'] = [];
  const add = (url: string, from: string) => {
    if (url.startsWith('invalid:')) {
      targets.set(url, from);
      return;
    }
    const target = new URL(url);
    if (target.origin === origin) {
      if (!targets.has(target.href)) targets.set(target.href, from);
      return;
    }
    if (target.origin === opts.serviceOrigin) serviceUrls.push({ url, from });
    if (externalSeen.has(url)) return;
    externalSeen.add(url);
    external.set(target.origin, (external.get(target.origin) ?? 0) + 1);
  };

  const pages = await htmlFiles(opts.outDir);
  for (const file of pages) {
    const from = relative(opts.outDir, file);
    for (const url of urlsOfHtml(await readFile(file, 'utf8'), pageUrlOf(opts.outDir, file, opts.site))) add(url, from);
  }

  const sitemapPath = opts.sitemapPath ?? '/sitemap.xml';
  const sitemapLocs: string[] = [];
  const sitemapXml = await (await fetch(opts.local + sitemapPath)).text();
  const parts = /<sitemapindex\b/.test(sitemapXml) ? locsOf(sitemapXml) : [];
  for (const part of parts) add(part, sitemapPath);
  for (const xml of parts.length > 0
    ? await Promise.all(parts.map(async (part) => (await fetch(toLocal(part))).text()))
    : [sitemapXml]) {
    sitemapLocs.push(...locsOf(xml));
  }
  for (const loc of sitemapLocs) add(loc, sitemapPath);

  const feedLinks = new Map<string, string[]>();
  for (const feed of opts.feeds) {
    const response = await fetch(opts.local + feed);
    const xml = await response.text();
    if (response.status !== 200) targets.set(new URL(feed, opts.site).href, 'the test (feed)');
    const links = itemLinksOf(xml);
    feedLinks.set(feed, links);
    for (const link of links) add(link, feed);
    for (const url of otherFeedUrlsOf(xml)) add(url, feed);
  }

  const robots = await fetch(`${opts.local}/robots.txt`);
  const robotsText = await robots.text();
  if (robots.status === 200) {
    for (const m of robotsText.matchAll(/^sitemap:\s*(\S+)/gim)) add(m[1] ?? '', '/robots.txt');
  }

  const failures: SiteUrlCheck['failures'] = [];
  for (const [url, from] of targets) {
    if (url.startsWith('invalid:')) {
      failures.push({ url, status: 0, from });
      continue;
    }
    const response = await fetch(toLocal(url), { redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status !== 200) failures.push({ url, status: response.status, from });
  }
  return { checked: targets.size, failures, external, serviceUrls, sitemapLocs, feedLinks, pages: pages.length };
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts the project's own `astro preview` (its installed CLI) on a free port and resolves with its URL
 * and a function that stops it.
 */
export async function startPreview(dir: string, env: NodeJS.ProcessEnv): Promise<{ local: string; stop: () => void }> {
  const port = await freePort();
  const server = spawn(
    join(dir, 'node_modules/.bin/astro'),
    ['preview', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: dir,
      env,
      stdio: 'ignore',
      detached: true,
    },
  );
  const stop = () => {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  };
  const local = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(local)).arrayBuffer();
      return { local, stop };
    } catch (error) {
      if (Date.now() > deadline || server.exitCode !== null) {
        stop();
        throw new Error(`astro preview in ${dir} did not answer at ${local} within 60 s: ${String(error)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Runs a command; a failure throws with its whole output. */
export async function sh(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeout = 300_000,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as { code?: unknown }).code;
        reject(
          new Error(`\`${command} ${args.join(' ')}\` in ${cwd} failed (exit ${String(code)}):\n${stdout}\n${stderr}`),
        );
      } else resolve({ stdout, stderr });
    });
  });
}
