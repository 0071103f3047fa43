import { RASTER_EXTENSIONS } from '../../html/images.js';
import { decodedSize } from './image-decoder.js';
import { decodeBound, inspectImage } from './image-header.js';

/** A body the image cache may write: its bytes, its extension, and the pixels Astro's image service will decode. */
export type ImageBody = { bytes: Buffer; ext: string; pixels: number };

/**
 * A 200 answer's body, if it is an image Astro optimises within the bounds (`maxBytes` read as it streams,
 * `maxPixels` as the header and then the decoder read it); else why not. Only such a body is ever written:
 * a refused one is never cached, so the next build asks the service again.
 */
export async function readImageBody(
  response: Response,
  limits: { maxBytes: number; maxPixels: number },
): Promise<ImageBody | { error: string }> {
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
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    return { error: `${declared} bytes, over images.maxBytes (${limits.maxBytes})` };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limits.maxBytes) return { error: `over images.maxBytes (${limits.maxBytes} bytes)` };
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  const header = inspectImage(bytes, limits.maxPixels);
  if ('error' in header) return { error: header.error };
  // Then as Astro's image service will decode it: a GIF's frames can grow its canvas past the header's size.
  const decoded = await decodedSize(bytes);
  if (decoded && 'error' in decoded) return decoded;
  const bound = decodeBound(header, decoded, limits.maxPixels);
  if ('error' in bound) return bound;
  return { bytes, ext: header.ext, pixels: bound.pixels };
}
