import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoaderContext } from 'astro/loaders';
import { findImages, isAllowedImageUrl, looksLikeSvg, replaceImages, type RemotePattern } from '../../html/images.js';
import { ImageCache, imageCacheDir } from './image-cache.js';
import { IMAGE_IMPORT_PREFIX, serviceDataOf } from '../entries/entry-schema.js';
import { IMAGE_DEFAULTS, type ResolvedImagesOption } from './image-options.js';

const PLACEHOLDER = /<img __ASTRO_IMAGE_="([^"]+)">/g;

/** An image URL's host, all a warning names of it: the URL can carry a signed query string. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an unknown host';
  }
}

/** What `store.set` needs for an article whose images were localised. */
export interface LocalisedHtml {
  html: string;
  imagePaths: string[];
}

export interface ImageStep {
  /** One article's sanitised HTML: allowed images become placeholders of local copies; the rest stay remote. */
  localise(html: string): Promise<LocalisedHtml>;
  /**
   * The featured image's local copy (its path for the content layer, for the entry's `featuredImageAsset`),
   * through the same cache, bounds and allow-list as the HTML's images; `undefined` keeps the remote URL (a
   * failure is counted in the build's one warning).
   */
  localiseUrl(url: string | undefined): Promise<string | undefined>;
  /** Whether a stored featured image must be localised again: its copy is gone, it failed before, or images are off. */
  featuredStale(url: string | undefined, local: string | undefined): boolean;
  /** The `store.set` fields that make `render(entry)` resolve the placeholders of entry `id` (none without images). */
  entryFields(id: string, imagePaths: readonly string[]): { filePath?: string; assetImports?: string[] };
  /**
   * A stored article's HTML in this build: local copies that are gone (cache cleared by hand) fetched again,
   * images that failed before tried again, everything back to remote URLs when images were turned off.
   * `undefined` when nothing changes (the usual case: no request, no write).
   */
  refresh(html: string, imagePaths: readonly string[]): Promise<LocalisedHtml | undefined>;
  /**
   * Asks the hosts again about the local copies `paths` (as stored entries name them) that are past their
   * freshness, all at once within images.concurrency: a copy whose URL now answers other bytes gets a new name,
   * so the entries naming the old one are found stale by `refresh` and `featuredStale`.
   */
  revalidate(paths: readonly string[]): Promise<void>;
  /** One warning for the build's failed images (strict fails), and the summary's image figures. */
  finish(warn: (message: string) => void): string | undefined;
  /** The name -> URL index to keep in the loader's meta. */
  index(): Record<string, string>;
  /** Images downloaded so far in this build (for the progress lines). */
  downloads(): number;
}

/**
 * The loader's image step (see `html/images.ts` for the placeholder contract and `image-cache.ts` for the
 * downloads). Hosts come from Astro's own `image.domains` / `image.remotePatterns`, so one list decides what
 * Astro may optimise and what the loader may fetch.
 */
export async function createImageStep(
  ctx: LoaderContext,
  requested: ResolvedImagesOption,
  previousIndex: Record<string, string>,
): Promise<ImageStep> {
  const config = ctx.config;
  // Outside an Astro build (a hand-made context) nothing resolves placeholders: leave the HTML as it is.
  const option = config?.cacheDir && config.root ? requested : false;
  const allow = {
    domains: config.image?.domains ?? [],
    remotePatterns: (config.image?.remotePatterns ?? []) as RemotePattern[],
  };
  const dir = option === false ? '' : imageCacheDir(config.cacheDir);
  const cache = new ImageCache(
    dir,
    option === false ? { ...IMAGE_DEFAULTS, maxDownloads: 0, maxPixelsPerBuild: 0 } : option,
  );
  if (option !== false) await cache.open();
  const root = option === false ? '' : fileURLToPath(config.root);
  // How a local copy is named for the content layer. Inside the project (Astro's default cacheDir,
  // node_modules/.astro), from its root (`/node_modules/.astro/…/<file>`): Vite resolves that whatever the
  // importer, so an entry's `filePath` (which Astro needs to resolve the HTML's images, and which themes read
  // to build URLs and edit links) is its id, with no folder in it. A cacheDir outside the project: `./<file>`,
  // resolved against a name inside the cache folder given as every such entry's `filePath`.
  const fromRoot = relative(root, dir).split(sep).join('/');
  const inRoot = fromRoot !== '' && !fromRoot.startsWith('../') && !isAbsolute(fromRoot);
  const prefix = inRoot ? `/${fromRoot}/` : './';
  const cacheImporter = relative(root, join(dir, 'articles')).split(sep).join('/');
  const fileOf = (local: string) => local.slice(local.lastIndexOf('/') + 1);
  // A stored path in this build's form whose file is still cached (an entry stored with another cacheDir, or
  // before this naming, is localised again: from the cache, without a download).
  const current = (local: string) => local.startsWith(prefix) && cache.has(local.slice(prefix.length));
  const urls = new Map<string, string>(Object.entries(previousIndex));
  const failures: Array<{ url: string; reason: string }> = [];
  let notAllowed = 0;
  let deferred = 0;
  // The cache's files that the collection's stored entries name (HTML images and featured images).
  const namedFiles = (): Set<string> => {
    const named = new Set<string>();
    for (const id of ctx.store.keys()) {
      const entry = ctx.store.get(id);
      const paths = (entry?.rendered?.metadata?.imagePaths ?? []) as unknown[];
      const featured = serviceDataOf(entry)?.featuredImageAsset;
      for (const local of [...paths, featured]) if (typeof local === 'string') named.add(fileOf(local));
    }
    return named;
  };

  const localCopies = async (sources: string[]): Promise<Map<string, string>> => {
    const local = new Map<string, string>();
    await Promise.all(
      [...new Set(sources)].map(async (src) => {
        if (looksLikeSvg(src)) return; // never fetched nor inlined; stays an <img> of the remote SVG
        if (!isAllowedImageUrl(src, allow)) {
          notAllowed += 1;
          return;
        }
        const result = await cache.get(src);
        if ('deferred' in result) {
          if (result.deferred === 'downloads') deferred += 1;
        } else if ('error' in result) failures.push({ url: src, reason: result.error });
        else {
          local.set(src, `${prefix}${result.file}`);
          urls.set(result.file, src);
        }
      }),
    );
    return local;
  };

  const localise = async (html: string): Promise<LocalisedHtml> => {
    const images = option === false ? [] : findImages(html);
    if (images.length === 0) return { html, imagePaths: [] };
    return replaceImages(html, await localCopies(images.map((i) => i.src)));
  };

  return {
    localise,
    async localiseUrl(url) {
      if (option === false || !url) return undefined;
      return (await localCopies([url])).get(url);
    },
    featuredStale(url, local) {
      if (option === false) return local !== undefined;
      if (local) return !current(local);
      return url !== undefined && !looksLikeSvg(url) && isAllowedImageUrl(url, allow);
    },
    entryFields(id, imagePaths) {
      if (imagePaths.length === 0) return {};
      return { filePath: inRoot ? encodeURIComponent(id) : cacheImporter, assetImports: [...imagePaths] };
    },
    async refresh(html, imagePaths) {
      // Images off and none localised before: nothing to put back (the usual warm build without images).
      if (option === false && imagePaths.length === 0 && !html.includes(IMAGE_IMPORT_PREFIX)) return undefined;
      const intact = option !== false && imagePaths.every(current);
      const retry =
        option !== false && findImages(html).some((i) => !looksLikeSvg(i.src) && isAllowedImageUrl(i.src, allow));
      if (intact && !retry) return undefined;
      if (intact) return localise(html);
      // Back to plain <img> tags with the remote URLs, then localised again like a new article.
      const plain = html.replace(PLACEHOLDER, (full, json: string) => {
        try {
          const props = JSON.parse(
            json.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'),
          ) as Record<string, unknown>;
          const url = urls.get(fileOf(String(props.src)));
          if (!url) return '';
          const attr = (name: string) =>
            props[name] === undefined
              ? ''
              : ` ${name}="${String(props[name]).replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`;
          return `<img src="${url.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"${attr('alt')}${attr('width')}${attr('height')}${attr('loading')}${attr('decoding')}${attr('title')} />`;
        } catch {
          return full;
        }
      });
      return localise(plain);
    },
    async revalidate(paths) {
      if (option === false) return;
      const sources = new Set<string>();
      for (const local of paths) {
        const url = local.startsWith(prefix) ? urls.get(fileOf(local)) : undefined;
        if (url) sources.add(url);
      }
      // The copies asked about longest ago first: past images.maxDownloads the rest wait for a later build,
      // which then starts with them.
      const order = [...sources].sort((a, b) => cache.checkedAt(a) - cache.checkedAt(b));
      await Promise.all(order.map((url) => cache.revalidateIfStale(url)));
    },
    finish(warn) {
      if (failures.length) {
        const first = failures[0]!;
        // The host only: an image URL can carry a signed query string.
        const host = hostOf(first.url);
        warn(
          `${failures.length} article image(s) could not be fetched (first: from ${host}: ${first.reason}). They keep their remote URL in this build; the next build tries again.`,
        );
      }
      if (option !== false && cache.bounds.overBudget.length) warn(overBudgetLine(cache, option.maxPixelsPerBuild));
      if (option === false) return undefined;
      cache.save();
      // After every write of this build: what no entry names now, no page of it can show.
      const pruned = cache.prune(ctx.collection, namedFiles());
      const parts = [`images: ${cache.downloaded.length} downloaded, ${cache.reused} cached`];
      if (cache.revalidated) parts.push(`${cache.revalidated} unchanged on revalidation`);
      if (cache.replaced.length)
        parts.push(`${cache.replaced.length} replaced under the same URL (their articles written again)`);
      if (cache.keptStale) parts.push(`${cache.keptStale} kept after a failed revalidation (asked again next build)`);
      if (cache.deferredChecks)
        parts.push(
          `${cache.deferredChecks} stale kept unasked, asked in a later build (images.maxDownloads ${option.maxDownloads})`,
        );
      if (cache.keptFull) parts.push(`${cache.keptFull} replaced kept old (images.maxCacheBytes reached)`);
      if (pruned.files) parts.push(`${pruned.files} no entry names removed from the cache`);
      if (failures.length) parts.push(`${failures.length} failed`);
      // Like pending articles: a bound, not a failure; they stay remote until a later build fetches them.
      if (deferred) parts.push(`${deferred} left for the next build (images.maxDownloads ${option.maxDownloads})`);
      if (cache.bounds.overBudget.length)
        parts.push(`${cache.bounds.overBudget.length} left remote past images.maxPixelsPerBuild (tried next build)`);
      if (notAllowed) parts.push(`${notAllowed} from hosts not in image.domains/remotePatterns left remote`);
      return parts.length > 1 || cache.downloaded.length || cache.reused ? parts.join(', ') : undefined;
    },
    index: () => {
      // Only what the entries name: the index would otherwise keep every copy ever downloaded.
      const named = namedFiles();
      return Object.fromEntries([...urls].filter(([name]) => named.has(name)));
    },
    downloads: () => cache.downloaded.length,
  };
}

/** The one warning of a build that left images remote to stay within images.maxPixelsPerBuild. */
function overBudgetLine(cache: ImageCache, budget: number): string {
  const first = cache.bounds.overBudget[0]!;
  const mp = (pixels: number) => `${Math.round(pixels / 100_000) / 10} MP`;
  return `${cache.bounds.overBudget.length} article image(s) left remote in this build: decoding them would pass images.maxPixelsPerBuild (${mp(budget)}; ${mp(cache.bounds.decodedPixels)} decoded for the images localised, first left: ${mp(first.pixels)} from ${hostOf(first.url)}). They are tried again next build; to localise more per build, raise images.maxPixelsPerBuild in articlesLoader({ images }).`;
}

/** The name -> URL index kept in the loader's meta (unreadable: empty, the images are fetched again). */
export function readImageIndex(text: string | undefined): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(text ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}
