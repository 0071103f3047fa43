import { z } from 'zod';

export const IMAGE_DEFAULTS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxDownloads: 500,
  maxPixelsPerBuild: 1_000_000_000,
  maxCacheBytes: 2 * 1024 * 1024 * 1024,
  timeoutMs: 15_000,
  concurrency: 4,
} as const satisfies Record<string, number>;

/**
 * `articlesLoader({ images })`: article images through Astro's image pipeline. Each allowed image is
 * downloaded once into Astro's cache directory and handed to `render(entry)` as a local image, so Astro
 * optimises it (`srcset`, `sizes`, modern formats, `width`/`height`) and serves it from the blog. `false`
 * leaves every image on the service's CDN, as the article's HTML names it.
 */
export const imagesOptionSchema = z.union([
  z.literal(false),
  z.strictObject({
    /** Largest image accepted, in bytes; a larger one keeps its remote URL with a warning. @default 10485760 (10 MiB) */
    maxBytes: z
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(IMAGE_DEFAULTS.maxBytes),
    /**
     * Largest image accepted, in pixels as Astro's image service will decode it (width x height of the canvas
     * its decoder reads, times the frames of an animation), read before Astro sees the image; a larger one keeps
     * its remote URL with a warning. A few hundred kilobytes can declare a canvas that takes Astro's image service
     * gigabytes and tens of seconds to decode, and a GIF's frames can grow its canvas past its header's size:
     * this bound keeps one hostile or careless image from slowing every build. The default passes an 8K frame
     * (33 MP), most camera photos, and 150 frames of 512 x 512.
     * @default 40000000 (40 megapixels)
     */
    maxPixels: z.number().int().min(1).max(1_000_000_000).default(IMAGE_DEFAULTS.maxPixels),
    /**
     * At most this many image downloads per build (the rest keep their remote URL and are fetched
     * next build), and as many revalidations of stale copies (the rest are used as they are, asked first next build).
     * @default 500
     */
    maxDownloads: z.number().int().min(0).max(100_000).default(IMAGE_DEFAULTS.maxDownloads),
    /**
     * Pixels Astro's image service may decode in one build for the images this build downloads (or finds
     * replaced), counted as `maxPixels` counts them; past it an image keeps its remote URL, with one warning,
     * and comes in a later build. Images cached by earlier builds cost nothing (Astro keeps what it made of
     * them). A hostile service can make each image reach `maxPixels`; this keeps a build's decoding at what a
     * normal cold build decodes: 1,000 megapixels are `maxDownloads` (500) photos of 2 MP, so an ordinary blog's
     * first build still localises every image (a 300-article blog with 4 images each decodes about 300 MP).
     * @default 1000000000 (1,000 megapixels)
     */
    maxPixelsPerBuild: z.number().int().min(1).max(100_000_000_000).default(IMAGE_DEFAULTS.maxPixelsPerBuild),
    /**
     * Bytes the image copies in Astro's cache directory may take in all. As a build ends, the copies no stored
     * entry names (replaced images, images of articles that left) are deleted; past this bound a new image keeps
     * its remote URL with a warning (and a replaced one its old copy). Host build caches keep the folder between
     * builds: this keeps it from growing with a service that changes its images.
     * @default 2147483648 (2 GiB)
     */
    maxCacheBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(2 ** 40)
      .default(IMAGE_DEFAULTS.maxCacheBytes),
    /** Timeout of one image download, in milliseconds. @default 15000 */
    timeoutMs: z.number().int().min(100).max(600_000).default(IMAGE_DEFAULTS.timeoutMs),
    /** Downloads running at once. @default 4 */
    concurrency: z.number().int().min(1).max(32).default(IMAGE_DEFAULTS.concurrency),
  }),
]);

export type ImagesOption = z.input<typeof imagesOptionSchema>;
export type ResolvedImagesOption = z.output<typeof imagesOptionSchema>;
