import { imageSize } from 'image-size';

/** The formats Astro's image service re-encodes, by the name `image-size` gives them, and their file extension. */
const ACCEPTED: Readonly<Record<string, string>> = { jpg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', avif: 'avif' };

export type ImageHeader = { ext: string; width: number; height: number } | { error: string };

/**
 * What a downloaded body really is, read from its header with `image-size` (the parser Astro's own
 * `imageMetadata` vendors, so a body that passes here passes Astro's metadata step): the format, from the
 * bytes and not from the Content-Type, and the dimensions, refused above `maxPixels` before Astro's image
 * service spends seconds and gigabytes decoding a small file that declares a huge canvas (a pixel bomb).
 * Pure: no I/O, never throws.
 */
export function inspectImage(bytes: Uint8Array, maxPixels: number): ImageHeader {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return { error: 'the body is not an image whose header can be read (corrupt or of an unknown format)' };
  }
  const ext = size.type ? ACCEPTED[size.type] : undefined;
  if (!ext) return { error: `the body is a ${String(size.type).slice(0, 20)} image, not one Astro optimises` };
  const { width, height } = size;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1)
    return { error: `the header declares no usable dimensions (${width} x ${height})` };
  if (width * height > maxPixels) return { error: `${width} x ${height} pixels, over images.maxPixels (${maxPixels})` };
  return { ext, width, height };
}
