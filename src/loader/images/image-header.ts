import { imageSize } from 'image-size';
import type { DecodedSize } from './image-decoder.js';

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

/**
 * The pixels Astro's image service will decode for an image whose header passed `inspectImage`: all frames of
 * the canvas its decoder reads (`decoded`, see image-decoder.ts), or the header's size where no decoder could be
 * asked; refused above `maxPixels`, with what the decoder saw against what the header said. Pure.
 */
export function decodeBound(
  header: { width: number; height: number },
  decoded: DecodedSize | undefined,
  maxPixels: number,
): { pixels: number } | { error: string } {
  const { width, pageHeight, pages } = decoded ?? { width: header.width, pageHeight: header.height, pages: 1 };
  if (![width, pageHeight, pages].every((n) => Number.isInteger(n) && n >= 1))
    return { error: `the image decoder reads no usable dimensions (${width} x ${pageHeight}, ${pages} frames)` };
  const pixels = width * pageHeight * pages;
  if (pixels <= maxPixels) return { pixels };
  const over = `over images.maxPixels (${maxPixels})`;
  if (pages > 1) return { error: `${pages} frames of ${width} x ${pageHeight} pixels (${pixels} decoded), ${over}` };
  if (width !== header.width || pageHeight !== header.height)
    return {
      error: `${width} x ${pageHeight} pixels as the image decoder reads it (the header says ${header.width} x ${header.height}), ${over}`,
    };
  return { error: `${width} x ${pageHeight} pixels, ${over}` };
}
