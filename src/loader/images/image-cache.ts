import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readImageBody } from './image-body.js';
import { pruneCopies } from './image-cache-prune.js';
import { WriteBounds } from './image-write-bounds.js';
import { freshnessRecord, readFreshness, writeFreshness, type Freshness } from './image-freshness.js';

export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
  maxDownloads: number;
  timeoutMs: number;
  concurrency: number;
  /** Pixels the image service may decode for the copies this build writes (see `spend`). */
  maxPixelsPerBuild: number;
  /** Bytes the cache folder's copies may take in all (see `room`). */
  maxCacheBytes: number;
}

/**
 * A local file, a failure (kept remote, warned), or an image left remote for a later build: past
 * images.maxDownloads (`downloads`), or past images.maxPixelsPerBuild (`pixels`, warned).
 */
export type ImageResult = { file: string } | { error: string } | { deferred: 'downloads' | 'pixels' };

/** Where the loader keeps its image copies: beside Astro's data store, in `cacheDir`. */
export function imageCacheDir(cacheDir: URL): string {
  return join(fileURLToPath(cacheDir), 'astro-content-publisher', 'images');
}

/** A cached image's name: the URL's hash, so the same URL maps to the same file in every build. */
export function cacheName(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 32);
}

/** A cached file: `<url hash>.<ext>`, or `<url hash>-<content hash>.<ext>` once its URL answered other bytes. */
const CACHED_FILE = /^([0-9a-f]{32})(?:-[0-9a-f]{12})?\.([a-z0-9]+)$/;
/** Revalidations of one host that may fail in a row before the build stops asking it (its copies stay). */
const HOST_FAILURES_BEFORE_PAUSE = 3;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * Downloads article images into a directory that lives beside Astro's data store, at most once per URL while
 * the host says the copy is fresh (its Cache-Control, Expires or Last-Modified; see `freshUntil` in
 * image-freshness.ts). A copy past that is revalidated with a conditional request (If-None-Match, If-Modified-Since): 304 keeps it; other
 * bytes under the same URL are written under a new name (`<url hash>-<content hash>.<ext>`, the old file
 * kept), so that every article naming the image is written again and its page rendered again; a failed
 * revalidation keeps the copy (stale rather than broken). Revalidations are bounded like downloads, each at
 * images.maxDownloads per build (apart, so that checking old copies never keeps a missing image from coming):
 * past it a stale copy is used as it is and asked about in a later build (`deferredChecks`), so a host that
 * sends `no-cache` costs a build a bounded number of requests, not one per image. Bounded in size, count, time
 * and concurrency; never throws: a failure comes back as a reason.
 */
export class ImageCache {
  readonly downloaded: string[] = [];
  reused = 0;
  /** Copies the host confirmed (304, or the same bytes again). */
  revalidated = 0;
  /** URLs whose host answered other bytes than the cached copy's. */
  readonly replaced: string[] = [];
  /** Revalidations that failed (the copy was kept). */
  keptStale = 0;
  /** Stale copies used without asking, images.maxDownloads being spent: asked about in a later build. */
  deferredChecks = 0;
  /** Replacements not written, the folder being at images.maxCacheBytes (the old copy stays). */
  keptFull = 0;
  /** images.maxPixelsPerBuild and images.maxCacheBytes. */
  readonly bounds: WriteBounds;
  /** When this build opened the cache: what was written or used since then is never pruned. */
  private openedAt = 0;
  private cached = new Map<string, string>();
  /** Revalidations that failed in a row, per host (see HOST_FAILURES_BEFORE_PAUSE). */
  private hostFailures = new Map<string, number>();
  private freshness = new Map<string, Freshness>();
  private changed = new Set<string>();
  private inFlight = new Map<string, Promise<ImageResult>>();
  private running = 0;
  private queue: Array<() => void> = [];
  private started = 0;
  /** Revalidations let through in this build (bounded apart from downloads, see `check`). */
  private checks = 0;

  constructor(
    readonly dir: string,
    private readonly limits: ImageLimits,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {
    this.bounds = new WriteBounds(limits);
  }

  /** Reads what earlier builds downloaded. */
  async open(): Promise<void> {
    // The wall clock, whatever `now` says: it is compared with the files' modification times.
    this.openedAt = Date.now();
    await mkdir(this.dir, { recursive: true });
    this.freshness = readFreshness(this.dir);
    const files = new Set(await readdir(this.dir));
    const sizes = await Promise.all(
      [...files]
        .filter((n) => CACHED_FILE.test(n))
        .map((n) =>
          stat(join(this.dir, n)).then(
            (s) => s.size,
            () => 0,
          ),
        ),
    );
    this.bounds.totalBytes = sizes.reduce((a, b) => a + b, 0);
    for (const name of files) {
      const hash = CACHED_FILE.exec(name)?.[1];
      if (!hash) continue;
      // Where an earlier copy of a replaced image was left behind, the record names the current one.
      const recorded = this.freshness.get(hash)?.name;
      this.cached.set(hash, recorded && files.has(recorded) ? recorded : (this.cached.get(hash) ?? name));
    }
  }

  /** Whether the cache holds `name` (a file name as `get` gives it). */
  has(name: string): boolean {
    const hash = CACHED_FILE.exec(name)?.[1];
    return hash !== undefined && this.cached.get(hash) === name;
  }

  /** The local file name of `url` (downloaded now or in an earlier build), or why there is none. */
  get(url: string): Promise<ImageResult> {
    const hash = cacheName(url);
    const hit = this.cached.get(hash);
    if (hit && this.fresh(hash, hit)) {
      this.reused += 1;
      return this.used({ file: hit });
    }
    return this.once(hash, () => (hit ? this.check(url, hash, hit) : this.download(url, hash))).then((r) =>
      this.used(r),
    );
  }

  /**
   * A copy handed to an entry is marked used now (its modification time), so that no loader that started
   * before (another collection of this build, another process) prunes it before its entry is recorded.
   */
  private async used(result: ImageResult): Promise<ImageResult> {
    if ('file' in result) {
      const now = new Date();
      await utimes(join(this.dir, result.file), now, now).catch(() => undefined);
    }
    return result;
  }

  /**
   * Deletes the copies that no stored entry names (`named`: this collection's, as its build ends; the other
   * collections' as their last builds recorded), and their freshness records: replaced copies and the images
   * of articles that left would otherwise stay for ever.
   */
  prune(collection: string, named: ReadonlySet<string>): { files: number; bytes: number } {
    // A second of slack: a file's modification time comes from the kernel's coarse clock, which may lag
    // Date.now() by a tick, so a copy written just after the cache opened could look older than the build.
    const since = this.openedAt - 1000;
    const removed = pruneCopies(this.dir, collection, named, since, (n) => CACHED_FILE.test(n));
    const bytes = removed.reduce((a, r) => a + r.size, 0);
    this.bounds.totalBytes -= bytes;
    return { files: removed.length, bytes };
  }

  /** Asks the host again about a cached copy of `url` that is no longer fresh (nothing for a fresh or unknown one). */
  async revalidateIfStale(url: string): Promise<void> {
    const hash = cacheName(url);
    const hit = this.cached.get(hash);
    if (hit && !this.fresh(hash, hit)) await this.once(hash, () => this.check(url, hash, hit));
  }

  /** When the host was last asked about `url`'s copy (0: never recorded): the longest ago first. */
  checkedAt(url: string): number {
    return this.freshness.get(cacheName(url))?.checked ?? 0;
  }

  /** A stale copy revalidated within images.maxDownloads, else used as it is until a later build. */
  private check(url: string, hash: string, name: string): Promise<ImageResult> {
    if (this.checks >= this.limits.maxDownloads) {
      this.deferredChecks += 1;
      return Promise.resolve({ file: name });
    }
    this.checks += 1;
    return this.revalidate(url, hash, name);
  }

  /** Keeps what was learnt of each copy's freshness for the next build (merged with other loaders' records). */
  save(): void {
    if (this.changed.size === 0) return;
    const merged = readFreshness(this.dir);
    for (const hash of this.changed) {
      const record = this.freshness.get(hash);
      if (record) merged.set(hash, record);
    }
    // Without the record the copies are revalidated on the next build: slower, never wrong.
    if (writeFreshness(this.dir, merged)) this.changed.clear();
  }

  /** A copy written before the cache kept records counts as stale: asked about once, then recorded. */
  private fresh(hash: string, name: string): boolean {
    const record = this.freshness.get(hash);
    return record !== undefined && record.name === name && record.until > this.now();
  }

  private once(hash: string, run: () => Promise<ImageResult>): Promise<ImageResult> {
    let pending = this.inFlight.get(hash);
    if (!pending) {
      // Kept for the whole build: a URL that failed is tried once per build, like one that succeeded.
      pending = run();
      this.inFlight.set(hash, pending);
    }
    return pending;
  }

  private record(hash: string, name: string, headers: Headers, previous?: Freshness): void {
    this.freshness.set(hash, freshnessRecord(name, headers, this.now(), previous));
    this.changed.add(hash);
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
    if (this.started >= this.limits.maxDownloads) return { deferred: 'downloads' };
    this.started += 1;
    return this.slot(async () => {
      try {
        // No redirects: a CDN URL that moves elsewhere is not followed to a host nobody allowed.
        const response = await this.fetchImpl(url, {
          redirect: 'manual',
          signal: AbortSignal.timeout(this.limits.timeoutMs),
        });
        const body = await readImageBody(response, this.limits);
        if ('error' in body) return body;
        // Not written past the pixels: a copy in the cache would reach Astro in a later build uncounted.
        const admitted = this.bounds.admit(url, body.pixels, body.bytes.length);
        if (admitted === 'pixels') return { deferred: 'pixels' };
        if (admitted === 'bytes') return { error: this.bounds.fullReason() };
        const name = `${hash}.${body.ext}`;
        await this.write(name, body.bytes);
        this.cached.set(hash, name);
        this.record(hash, name, response.headers);
        this.downloaded.push(url);
        return { file: name };
      } catch (error) {
        return { error: this.reason(error) };
      }
    });
  }

  /**
   * A conditional request for a copy past its freshness. 304 or the same bytes: the copy stays. Other bytes:
   * written under a new name (the old file stays for what still names it), so the articles naming the image
   * change too. Anything else
   * (an error, a timeout, a refused body): the copy stays, asked about again on the next build.
   */
  private async revalidate(url: string, hash: string, name: string): Promise<ImageResult> {
    const host = hostOf(url);
    return this.slot(async () => {
      // A host that failed this many revalidations in a row (down, or unreachable from here) is not asked again
      // in this build: its copies stay, rather than every one of them waiting out images.timeoutMs.
      if ((this.hostFailures.get(host) ?? 0) >= HOST_FAILURES_BEFORE_PAUSE) {
        this.keptStale += 1;
        this.checks -= 1; // no request sent
        return { file: name };
      }
      const previous = this.freshness.get(hash);
      const known = previous?.name === name ? previous : undefined;
      const kept = (): ImageResult => {
        this.hostFailures.set(host, (this.hostFailures.get(host) ?? 0) + 1);
        this.keptStale += 1;
        return { file: name };
      };
      try {
        const response = await this.fetchImpl(url, {
          redirect: 'manual',
          signal: AbortSignal.timeout(this.limits.timeoutMs),
          headers: {
            ...(known?.etag ? { 'if-none-match': known.etag } : {}),
            ...(known?.lastModified ? { 'if-modified-since': known.lastModified } : {}),
          },
        });
        if (response.status === 304) {
          await response.body?.cancel();
          this.hostFailures.delete(host);
          this.record(hash, name, response.headers, known);
          this.revalidated += 1;
          return { file: name };
        }
        const body = await readImageBody(response, this.limits);
        if ('error' in body) return kept();
        this.hostFailures.delete(host);
        const current = await readFile(join(this.dir, name)).catch(() => undefined);
        if (current?.equals(body.bytes)) {
          this.record(hash, name, response.headers);
          this.revalidated += 1;
          return { file: name };
        }
        // The old copy stays, unrecorded: asked again next build, when the budget starts anew.
        const admitted = this.bounds.admit(url, body.pixels, body.bytes.length);
        if (admitted === 'pixels') return { file: name };
        if (admitted === 'bytes') {
          this.keptFull += 1;
          return { file: name };
        }
        const content = createHash('sha256').update(body.bytes).digest('hex').slice(0, 12);
        const next = `${hash}-${content}.${body.ext}`;
        await this.write(next, body.bytes);
        this.cached.set(hash, next);
        this.record(hash, next, response.headers);
        // The old copy stays: entries this build does not write again (a failed fetch, another loader sharing
        // the cache, dev's store) still name it, and Astro fails a build on an image it cannot find.
        this.replaced.push(url);
        return { file: next };
      } catch {
        return kept();
      }
    });
  }

  private async write(name: string, bytes: Buffer): Promise<void> {
    const tmp = join(this.dir, `${name}.${process.pid}.tmp`);
    await writeFile(tmp, bytes);
    await rename(tmp, join(this.dir, name));
  }

  private reason(error: unknown): string {
    return error instanceof Error && error.name === 'TimeoutError'
      ? `no answer within ${this.limits.timeoutMs} ms (images.timeoutMs)`
      : 'the request failed';
  }
}
