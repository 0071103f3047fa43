import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fetchPublicFeed } from '../../client/public-feed.js';
import { buildSitemap, fetchSitemapPart, SITEMAP_MAX_BYTES, type SitemapFiles } from '../proxy/feed-transform.js';
import { bodyOrLastGood, keepLastGood } from '../cache/last-good-files.js';
import { FeedBuildError } from '../cache/feed-build-error.js';
import { pathIn, sitemapPartPath, type RouteConfig } from '../settings/route-config.js';

/** The sitemap's files in `outDir`: the file at `path`, then its numbered parts while they exist. */
export function sitemapFilesIn(outDir: URL, path: string): string[] {
  const files = [path];
  for (let part = 1; existsSync(pathIn(outDir, sitemapPartPath(path, part))); part += 1)
    files.push(sitemapPartPath(path, part));
  return files;
}

/**
 * Static output: the sitemap is written in `astro:build:done`, once every page is built, so the blog's own
 * pages (including those of dynamic routes) can be merged. A broken upstream fails the build with the URL
 * and the reason; with `lastGood`, an outage of the service (of the sitemap or of one of its parts) takes the
 * copy of that document an earlier build kept there instead, and says so through `warn` (last-good.ts).
 * Returns the files written, relative to the output directory, and the service's articles left out (see
 * SitemapFiles). Parts numbered past the
 * last one written that an earlier build left in the output (`leftover`, own-files.ts: kept with
 * `emptyOutDir: false`) are removed: no part of an old sitemap stays served.
 */
export async function writeStaticSitemap(
  config: RouteConfig,
  localPages: readonly string[],
  outDir: URL,
  leftover: (path: string) => boolean = () => false,
  lastGood?: { dir: string; warn: (message: string) => void },
): Promise<{ files: string[]; leftOut: SitemapFiles['leftOut'] }> {
  if (config.sitemap === false) return { files: [], leftOut: undefined };
  const { path } = config.sitemap;
  let files;
  // The bodies fetched now, kept as the last good copies once the sitemap was built from them.
  const fresh = new Map<string, string>();
  const body = async (url: string, fetchBody: () => Promise<string>) => {
    const got = await bodyOrLastGood(lastGood?.dir, url, fetchBody, (message) => lastGood?.warn(message));
    if (got.fresh) fresh.set(url, got.body);
    return got.body;
  };
  try {
    const root = await body(config.sitemapUrl, async () => {
      const fetched = await fetchPublicFeed(config.sitemapUrl, {
        timeoutMs: config.timeoutMs,
        maxBytes: SITEMAP_MAX_BYTES,
      });
      if (fetched.status !== 200)
        throw new Error(
          `[astro-content-publisher] Could not get ${config.sitemapUrl}: unexpected status ${fetched.status}.`,
        );
      return fetched.body;
    });
    files = await buildSitemap(root, config, localPages, (part, limits) =>
      body(part, () => fetchSitemapPart(part, config, limits)),
    );
    if (lastGood) for (const [url, text] of fresh) keepLastGood(lastGood.dir, url, text);
  } catch (error) {
    throw new FeedBuildError(error, 'sitemap');
  }
  const outputs: Array<[string, string]> = [[path, files.xml]];
  if (files.kind === 'index') files.parts.forEach((xml, i) => outputs.push([sitemapPartPath(path, i + 1), xml]));
  for (const [file, xml] of outputs) {
    const target = pathIn(outDir, file);
    await mkdir(new URL('.', target), { recursive: true });
    await writeFile(target, xml, 'utf8');
  }
  for (let part = outputs.length; ; part += 1) {
    const file = sitemapPartPath(path, part);
    const target = pathIn(outDir, file);
    if (!existsSync(target) || !leftover(file)) break;
    await rm(target);
  }
  return { files: outputs.map(([file]) => file), leftOut: files.leftOut };
}
