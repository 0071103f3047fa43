/** The per-build bounds on what the image cache writes: pixels to decode, and bytes on disk. */
export class WriteBounds {
  /** Pixels the copies written in this build give the image service to decode (images.maxPixelsPerBuild). */
  decodedPixels = 0;
  /** Images whose new bytes were not written, images.maxPixelsPerBuild being spent, with their size. */
  readonly overBudget: Array<{ url: string; pixels: number }> = [];
  /** Bytes the folder's copies take (read as the cache opens, then kept up to date). */
  totalBytes = 0;

  constructor(private readonly limits: { maxPixelsPerBuild: number; maxCacheBytes: number }) {}

  /**
   * Whether a copy of `url` (`pixels` to decode, `bytes` on disk) may be written in this build, its share
   * taken at once (downloads run side by side). Pixels: every copy written (a download, or new bytes under a
   * known URL) is one Astro has not optimised yet; copies reused from earlier builds cost nothing, Astro keeps
   * what it generated from them in its own cache. A hostile service can make each image reach
   * images.maxPixels; images.maxPixelsPerBuild keeps the sum per build to what a normal build decodes. Bytes:
   * copies no entry names are pruned as a build ends, so a folder at images.maxCacheBytes is one of images
   * that entries name.
   */
  admit(url: string, pixels: number, bytes: number): 'yes' | 'pixels' | 'bytes' {
    if (this.decodedPixels + pixels > this.limits.maxPixelsPerBuild) {
      this.overBudget.push({ url, pixels });
      return 'pixels';
    }
    if (this.totalBytes + bytes > this.limits.maxCacheBytes) return 'bytes';
    this.decodedPixels += pixels;
    this.totalBytes += bytes;
    return 'yes';
  }

  /** Why a copy was refused for bytes, naming the option. */
  fullReason(): string {
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    return `the image cache holds ${mib(this.totalBytes)}, at images.maxCacheBytes (${mib(this.limits.maxCacheBytes)}); raise it for a blog with this many images`;
  }
}
