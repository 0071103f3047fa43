import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RASTER_EXTENSIONS } from '../html/images.js';
import { inspectImage } from './image-header.js';

export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
  maxDownloads: number;
  timeoutMs: number;
  concurrency: number;
}

/** A local file, a failure (kept remote, warned), or a download left for the next build (images.maxDownloads). */
export type ImageResult = { file: string } | { error: string } | { deferred: true };

/** Where the loader keeps its image copies: beside Astro's data store, in `cacheDir`. */
export function imageCacheDir(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'astro-content-publisher', 'images');
}

/** A cached image's name: the URL's hash, so the same URL maps to the same file in every build. */
export function cacheName(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 32);
}

/**
 * Downloads article images into a directory that lives beside Astro's data store, at most once per URL
 * (an image URL of the service is immutable: a changed image gets a new URL, and the article a new digest).
 * Bounded in size, count, time and concurrency; never throws: a failure comes back as a reason.
 */
export class ImageCache {
  readonly downloaded: string[] = [];
  reused = 0;
  private cached = new Map<string, string>();
  private inFlight = new Map<string, Promise<ImageResult>>();
  private running = 0;
  private queue: Array<() => void> = [];
  private started = 0;

  constructor(
    readonly dir: string,
    private readonly limits: ImageLimits,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Reads what earlier builds downloaded. */
  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const name of await readdir(this.dir)) {
      const [hash, ext] = name.split('.');
      if (hash && ext && !name.endsWith('.tmp')) this.cached.set(hash, name);
    }
  }

  /** Whether the cache holds `name` (a file name as `get` gives it). */
  has(name: string): boolean {
    const [hash] = name.split('.');
    return this.cached.get(hash ?? '') === name;
  }

  /** The local file name of `url` (downloaded now or in an earlier build), or why there is none. */
  get(url: string): Promise<ImageResult> {
    const hash = cacheName(url);
    const hit = this.cached.get(hash);
    if (hit) {
      this.reused += 1;
      return Promise.resolve({ file: hit });
    }
    let pending = this.inFlight.get(hash);
    if (!pending) {
      pending = this.download(url, hash);
      this.inFlight.set(hash, pending);
    }
    return pending;
  }

  private async slot<T>(run: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running += 1;
    try {
      return await run();
    } finally {
      this.running -= 1;
      this.queue.shift()?.();
    }
  }

  private async download(url: string, hash: string): Promise<ImageResult> {
    if (this.started >= this.limits.maxDownloads) return { deferred: true };
    this.started += 1;
    return this.slot(async () => {
      try {
        // No redirects: a CDN URL that moves elsewhere is not followed to a host nobody allowed.
        const response = await this.fetchImpl(url, {
          redirect: 'manual',
          signal: AbortSignal.timeout(this.limits.timeoutMs),
        });
        if (response.status !== 200) {
          await response.body?.cancel();
          return { error: `HTTP ${response.status}` };
        }
        const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
        if (type === 'image/svg+xml') {
          await response.body?.cancel();
          return { error: 'an SVG (never fetched nor inlined: it can carry script)' };
        }
        if (!RASTER_EXTENSIONS[type]) {
          await response.body?.cancel();
          return { error: `content type "${type.slice(0, 60)}" is not an image Astro optimises` };
        }
        const declared = Number(response.headers.get('content-length') ?? 0);
        if (declared > this.limits.maxBytes) {
          await response.body?.cancel();
          return { error: `${declared} bytes, over images.maxBytes (${this.limits.maxBytes})` };
        }
        const chunks: Uint8Array[] = [];
        let size = 0;
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.length;
          if (size > this.limits.maxBytes) return { error: `over images.maxBytes (${this.limits.maxBytes} bytes)` };
          chunks.push(chunk);
        }
        const bytes = Buffer.concat(chunks);
        // Only a copy whose header decodes, within the pixel bound, is written: a failed one is never cached,
        // so the next build asks the service again.
        const header = inspectImage(bytes, this.limits.maxPixels);
        if ('error' in header) return { error: header.error };
        const name = `${hash}.${header.ext}`;
        const tmp = join(this.dir, `${name}.${process.pid}.tmp`);
        await writeFile(tmp, bytes);
        await rename(tmp, join(this.dir, name));
        this.cached.set(hash, name);
        this.downloaded.push(url);
        return { file: name };
      } catch (error) {
        const reason =
          error instanceof Error && error.name === 'TimeoutError'
            ? `no answer within ${this.limits.timeoutMs} ms (images.timeoutMs)`
            : 'the request failed';
        return { error: reason };
      }
    });
  }
}
