/**
 * Hostile GIFs (issue 37, finding 1): small files whose header's logical screen is not what the decoder
 * allocates. Each frame carries the shortest LZW stream there is (clear, one pixel, end), so a frame costs about
 * twenty bytes whatever its size; libvips, as Astro's sharp service calls it (`failOn: 'none'`), still decodes the
 * whole canvas of every frame.
 */

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
/** LZW minimum code size 2, one sub-block of 2 bytes (codes clear=4, 0, end=5 at 3 bits), terminator. */
const ONE_PIXEL_LZW = [0x02, 0x02, 0x44, 0x01, 0x00];

export interface GifFrame {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A GIF89a with a `screenWidth` x `screenHeight` logical screen, a 2-colour palette and `frames`. */
export function gif(screenWidth: number, screenHeight: number, frames: readonly GifFrame[]): Buffer {
  const bytes = [...Buffer.from('GIF89a', 'latin1'), ...u16(screenWidth), ...u16(screenHeight), 0x80, 0, 0];
  bytes.push(0, 0, 0, 255, 255, 255);
  const animated = frames.length > 1;
  // The NETSCAPE2.0 extension (loop for ever) and a 100 ms delay per frame: an ordinary animation.
  if (animated) bytes.push(0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 3, 1, 0, 0, 0);
  for (const f of frames) {
    if (animated) bytes.push(0x21, 0xf9, 4, 0, 10, 0, 0, 0);
    bytes.push(0x2c, ...u16(f.x), ...u16(f.y), ...u16(f.width), ...u16(f.height), 0, ...ONE_PIXEL_LZW);
  }
  bytes.push(0x3b);
  return Buffer.from(bytes);
}

/** The 43-byte kind: a 1 x 1 screen, one 1 x 1 frame at (15999, 15999); sharp decodes 16000 x 16000. */
export const offsetGif = () => gif(1, 1, [{ x: 15_999, y: 15_999, width: 1, height: 1 }]);

/** 268 frames of 1000 x 1000 in about 6 KB: 268 million pixels decoded, under a header of one megapixel. */
export const framesGif = (frames = 268) =>
  gif(
    1000,
    1000,
    Array.from({ length: frames }, () => ({ x: 0, y: 0, width: 1000, height: 1000 })),
  );

/** A GIF whose screen and only frame are `side` x `side` (its header tells the truth). */
export const squareGif = (side: number) => gif(side, side, [{ x: 0, y: 0, width: side, height: side }]);
