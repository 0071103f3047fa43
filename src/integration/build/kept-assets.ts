import { constants, existsSync } from 'node:fs';
import { copyFile, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assetNamesIn,
  assetsFolder,
  contentSuffix,
  namesOfBytes,
  planAssetCopies,
  type AssetCopy,
  type AssetLocation,
  type EmittedAsset,
} from './asset-refs.js';

export interface KeptAssets {
  /** Files written under a name that a built page names (the same bytes as their source), with that page. */
  copied: Array<AssetCopy & { page: string }>;
  /** Names that a page names, whose bytes this build had, and that no file could give back. */
  missing: Array<{ name: string; page: string }>;
}

/**
 * Whether the loader's image cache holds an image that no file of this build came from (its article dropped
 * it, or left) with the size and extension of a file the bundler wrote: an earlier build may have written
 * those bytes under that image's name (Vite names equal bytes after the source that sorts first), and a page
 * kept since names it (departedSourceOf). Sizes only: no file is read.
 */
async function departedTwins(
  emitted: readonly EmittedAsset[],
  assets: string,
  present: ReadonlySet<string>,
  imagesDir: string,
): Promise<boolean> {
  const sources = new Set(emitted.flatMap((asset) => asset.sources));
  const extension = (name: string) => name.slice(name.lastIndexOf('.'));
  const left = (await readdir(imagesDir).catch(() => [] as string[])).filter((name) => !sources.has(name));
  if (left.length === 0) return false;
  // `<size><extension>` of a file, or undefined when it is gone; the files are stat'ed all at once.
  const keyOf = async (path: string, name: string) => {
    const size = (await stat(path).catch(() => undefined))?.size;
    return size === undefined ? undefined : `${size}${extension(name)}`;
  };
  const written = new Set(
    await Promise.all(
      emitted
        .filter((asset) => namesOfBytes(asset).length > 0)
        .map((asset) =>
          keyOf(
            present.has(asset.file) ? join(assets, asset.file) : join(imagesDir, asset.sources[0] ?? ''),
            asset.file,
          ),
        ),
    ),
  );
  const leftKeys = await Promise.all(left.map((name) => keyOf(join(imagesDir, name), name)));
  return leftKeys.some((key) => key !== undefined && written.has(key));
}

/**
 * Static pages, at `astro:build:done`: every file of the assets folder that a built page names, and whose
 * bytes this build's bundler wrote (`emitted`), is in the output. A page the incremental build kept names the
 * files of an earlier build, and Vite writes sources of equal bytes once, under the first name (asset-refs.ts):
 * such a name gets a copy of the file Vite wrote, or of its source in the loader's image cache (`imagesDir`)
 * when Astro deleted that file as an unreferenced original. A resized or converted image that a kept page names
 * and that this build did not generate (its original now has another name: Vite chose the other of two files
 * of equal bytes) is copied from Astro's own image cache (`astroAssetsDir`, `<cacheDir>/assets/`), which keeps
 * each generated file under its output name. Nothing else is written: only the names of this build's own files
 * and of Astro's generated images, with their own bytes.
 */
export async function keepNamedAssets(
  dir: URL,
  folder: string,
  location: AssetLocation,
  emitted: readonly EmittedAsset[],
  imagesDir: string,
  astroAssetsDir?: string,
): Promise<KeptAssets> {
  const root = fileURLToPath(dir);
  const assets = join(root, assetsFolder(folder));
  const present = new Set(await readdir(assets).catch(() => [] as string[]));
  // Generated images Astro keeps (`<original>.<content hash>_<variant>.<ext>`) of bytes this build has, under
  // whatever name (an article that left may have given them theirs), that the output lacks: pages kept since an
  // earlier build may name them. Those of bytes no longer in the build are no page's.
  const hashes = new Set(emitted.map((asset) => contentSuffix(asset.file)?.split('.')[1]).filter((h) => h));
  const hashOf = (name: string) => {
    const base = name.slice(0, name.lastIndexOf('_'));
    return base.slice(base.lastIndexOf('.') + 1);
  };
  const cached =
    astroAssetsDir === undefined || hashes.size === 0
      ? []
      : (await readdir(astroAssetsDir).catch(() => [] as string[])).filter(
          (name) => !name.endsWith('.json') && !present.has(name) && name.includes('_') && hashes.has(hashOf(name)),
        );
  // Every name of the build's bytes is in the output (no images, or none deleted nor written once for two),
  // Astro's image cache holds nothing the output lacks, and no image that left the build has the size of one it
  // wrote: no page can name a file that this function could give back, so the pages are not read.
  if (
    cached.length === 0 &&
    emitted.every((asset) => namesOfBytes(asset).every((name) => present.has(name))) &&
    !(await departedTwins(emitted, assets, present, imagesDir))
  )
    return { copied: [], missing: [] };
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  // Each name with the first page that names it (for the warning).
  const named = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = join(entry.parentPath, entry.name);
    const page = relative(root, file).split(sep).join('/');
    const html = await readFile(file, 'utf8');
    for (const name of assetNamesIn(html, new URL(page, location.siteRoot).href, location))
      if (!named.has(name)) named.set(name, page);
  }
  // A source's name comes from the bundler (a file's base name), or from a page (departedSourceOf, a name
  // without a separator): never a path out of the cache.
  const inImageCache = (source: string) =>
    /^[^/\\]+$/.test(source) && !source.startsWith('.') ? existsSync(join(imagesDir, source)) : false;
  const { copies, missing } = planAssetCopies(named.keys(), present, emitted, inImageCache, inImageCache);
  // Names of Astro's cache (listed by readdir: base names only) that a page names and the output lacks.
  const planned = new Set([...copies.map((copy) => copy.to), ...missing]);
  const inCache = new Set(cached);
  for (const name of named.keys())
    if (!present.has(name) && !planned.has(name) && inCache.has(name))
      copies.push({ to: name, from: { astroCache: name } });
  for (const copy of copies) {
    const from =
      'output' in copy.from
        ? join(assets, copy.from.output)
        : 'source' in copy.from
          ? join(imagesDir, copy.from.source)
          : join(astroAssetsDir ?? '', copy.from.astroCache);
    await copyFile(from, join(assets, copy.to), constants.COPYFILE_FICLONE);
  }
  return {
    copied: copies.map((copy) => ({ ...copy, page: named.get(copy.to) ?? '' })),
    missing: missing.map((name) => ({ name, page: named.get(name) ?? '' })),
  };
}
