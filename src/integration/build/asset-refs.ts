/**
 * Which files of the build's assets folder (`/_astro/`) the built pages name, and where a named file that
 * is not in the output can take its bytes from. Pure: the I/O is in kept-assets.ts.
 *
 * Why: Vite writes one file for assets of equal bytes, under the name that sorts first (`<name>.<hash>.<ext>`,
 * the hash being the bytes'), and Astro then deletes an image's original when the source it recorded for that
 * file was not referenced. A page that Astro's incremental build keeps names the files of the build that
 * rendered it: when a later build brings an image with the same bytes as a kept page's featured image under a
 * name that sorts before it, the kept page's `og:image` (the original, `featuredImageAsset.src`) names a file
 * this build did not write, or wrote and deleted, and answers 404.
 */

/** Where the build's assets are served from. */
export interface AssetLocation {
  /** The pages' root: the site's origin and `base` (`https://blog.example.com/blog/`). */
  siteRoot: string;
  /** Absolute URL prefixes of the assets folder, each ending in `/` (the site's, then each `assetsPrefix`). */
  prefixes: string[];
  /** `/<folder>/`, in every URL of an asset: a tag without it names none. */
  marker: string;
}

/** The config fields that place the assets. */
export interface AssetConfig {
  site?: string | undefined;
  base: string;
  build: { assets: string; assetsPrefix?: string | Record<string, string> | undefined };
}

// Without `site`, root-relative URLs still resolve; absolute ones of the blog cannot be told apart.
const NO_SITE = 'http://localhost';

/** The assets folder (`build.assets`, such as `_astro`) without leading or trailing slashes. */
export const assetsFolder = (folder: string): string => folder.replace(/^\/+|\/+$/g, '');

/** The URL prefixes under which `config` serves the assets folder. */
export function assetLocation(config: AssetConfig): AssetLocation {
  const origin = config.site && URL.canParse(config.site) ? new URL(config.site).origin : NO_SITE;
  const siteRoot = new URL(config.base.replace(/\/?$/, '/'), origin).href;
  const folder = assetsFolder(config.build.assets);
  const prefix = config.build.assetsPrefix;
  const others = typeof prefix === 'string' ? [prefix] : Object.values(prefix ?? {});
  const prefixes = [siteRoot, ...others.filter((p) => URL.canParse(p)).map((p) => p.replace(/\/?$/, '/'))].map(
    (root) => `${new URL(root).href}${folder}/`,
  );
  return { siteRoot, prefixes: [...new Set(prefixes)], marker: `/${folder}/` };
}

// One tag, then its attributes: URLs in text (an article about Astro may quote `/_astro/…`) are not names.
const TAG = /<[A-Za-z][^<>]*>/g;
const ATTRIBUTE = /\s[^\s=<>"'/]+\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;

/** A file name directly in the assets folder: one path segment, no way out of it. */
function fileName(rest: string): string | undefined {
  if (rest === '' || rest.includes('/')) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  return /[/\\\0]/.test(name) || name.startsWith('.') ? undefined : name;
}

/**
 * The names of files in the assets folder that a page's tags name (`src`, `srcset`, `href`, `content`…):
 * root-relative, relative to `pageUrl`, or absolute under one of `location.prefixes`.
 */
export function assetNamesIn(html: string, pageUrl: string, location: AssetLocation): string[] {
  const names = new Set<string>();
  // Most pages name few assets among many links: only tags and values with the folder in them are parsed.
  if (!html.includes(location.marker)) return [];
  for (const [tag] of html.matchAll(TAG)) {
    if (!tag.includes(location.marker)) continue;
    for (const attribute of tag.matchAll(ATTRIBUTE)) {
      const value = (attribute[1] ?? attribute[2] ?? attribute[3] ?? '').replaceAll('&amp;', '&');
      if (!value.includes(location.marker)) continue;
      // `srcset` lists "url 320w, url 640w"; other attributes hold one URL, or none.
      for (const token of value.split(/[\s,]+/)) {
        if (!token.includes(location.marker) || !URL.canParse(token, pageUrl)) continue;
        const url = new URL(token, pageUrl);
        const address = url.origin + url.pathname;
        const prefix = location.prefixes.find((p) => address.startsWith(p));
        const name = prefix === undefined ? undefined : fileName(address.slice(prefix.length));
        if (name !== undefined) names.add(name);
      }
    }
  }
  return [...names];
}

/** `.<hash>.<ext>` of a built asset's name, which says its bytes; undefined for a name without one. */
export function contentSuffix(name: string): string | undefined {
  return /.(\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9]+)$/.exec(name)?.[1];
}

/** One file of the assets folder as the bundler wrote it: its name, and the names of the sources it holds. */
export interface EmittedAsset {
  /** `<name>.<hash>.<ext>` (the first source's name, in sort order). */
  file: string;
  /** The sources' file names (`<name>.<ext>`): several when their bytes are equal. */
  sources: string[];
}

/**
 * Every name under which the build could have written the bytes of `asset`: its own, and for each source
 * of equal bytes the name it would have had alone (`<source name>.<hash>.<ext>`, the hash being the bytes').
 * Empty when the bundler's names do not follow `<name>.<hash>.<ext>` (a custom `assetFileNames`).
 */
export function namesOfBytes(asset: EmittedAsset): string[] {
  const suffix = contentSuffix(asset.file);
  if (suffix === undefined) return [];
  const names = asset.sources.map((source) => source.replace(/\.[^./\\]*$/, '') + suffix);
  return names.includes(asset.file) ? names : [];
}

/** A file the output holds, a source in the loader's image cache, or a file of Astro's own image cache. */
export type CopySource = { output: string } | { source: string } | { astroCache: string };

export interface AssetCopy {
  to: string;
  from: CopySource;
}

/**
 * The source that gave `name` (`<source name>.<hash>.<ext>`) when an earlier build wrote `asset`'s bytes under
 * it: the same hash and extension as the file the bundler wrote now. Such a source has left this build (its
 * article dropped the image, or left), and the pages kept since still name its file. Undefined otherwise.
 */
export function departedSourceOf(name: string, asset: EmittedAsset): string | undefined {
  const suffix = contentSuffix(asset.file);
  if (suffix === undefined || namesOfBytes(asset).length === 0 || contentSuffix(name) !== suffix) return undefined;
  const source = name.slice(0, -suffix.length) + suffix.slice(suffix.lastIndexOf('.'));
  return asset.sources.includes(source) ? undefined : source;
}

/**
 * For each name the pages name that is not in the output (`present`) but holds the bytes of a file the
 * bundler wrote in this build (`emitted`), where to copy them from: that file when it is still there (Astro
 * deletes an original it believes unreferenced), else one of its sources that `sourceExists`. A name an
 * earlier build gave those bytes, after a source that this build no longer has (departedSourceOf), counts
 * when `departedExists` says that source is still there (the loader's image cache keeps every image it
 * downloaded, and names each after its URL's hash). `missing`:
 * such names with no file to copy. A name that no file of this build holds (a page's own broken URL, or a
 * name an article made up) gets nothing, so the copies never outnumber the build's own names and theirs.
 */
export function planAssetCopies(
  named: Iterable<string>,
  present: ReadonlySet<string>,
  emitted: readonly EmittedAsset[],
  sourceExists: (source: string) => boolean,
  departedExists: (source: string) => boolean = () => false,
): { copies: AssetCopy[]; missing: string[] } {
  const byName = new Map<string, EmittedAsset>();
  const bySuffix = new Map<string, EmittedAsset>();
  for (const asset of emitted) {
    for (const name of namesOfBytes(asset)) byName.set(name, asset);
    const suffix = contentSuffix(asset.file);
    if (suffix !== undefined) bySuffix.set(suffix, asset);
  }
  const departed = (name: string): EmittedAsset | undefined => {
    const suffix = contentSuffix(name);
    const asset = suffix === undefined ? undefined : bySuffix.get(suffix);
    const source = asset === undefined ? undefined : departedSourceOf(name, asset);
    return asset && source !== undefined && departedExists(source)
      ? { file: asset.file, sources: [...asset.sources, source] }
      : undefined;
  };
  const copies: AssetCopy[] = [];
  const missing: string[] = [];
  for (const name of new Set(named)) {
    const asset = present.has(name) ? undefined : (byName.get(name) ?? departed(name));
    if (asset === undefined) continue;
    const output = [asset.file, ...namesOfBytes(asset)].find((file) => present.has(file));
    const source = asset.sources.find(sourceExists);
    if (output !== undefined) copies.push({ to: name, from: { output } });
    else if (source !== undefined) copies.push({ to: name, from: { source } });
    else missing.push(name);
  }
  return { copies, missing };
}
