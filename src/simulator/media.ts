import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { deflateSync } from 'node:zlib';

/**
 * The simulator's image CDN. Stored article HTML names images under `MEDIA_ORIGIN` (a stable, port-free
 * origin, so seeded content can be cached across simulators); every response the simulator sends has it
 * replaced by `<simulator>/media/`, where this module serves real, small JPEG, PNG and WebP files made at
 * start. So the demo, the browser tests and the image pipeline see pictures that load.
 */
export const MEDIA_ORIGIN = 'https://cdn.example.com';

/** Route key under which image requests appear in the simulator's stats. */
export const MEDIA_ROUTE = 'GET /media/*';

/** Size of every generated image; the generated HTML declares the same `width`/`height`. */
export const MEDIA_WIDTH = 640;
export const MEDIA_HEIGHT = 400;

type Format = 'jpeg' | 'png' | 'webp';
const FORMATS: Record<string, Format> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', webp: 'webp' };
const PALETTE: ReadonlyArray<[number, number, number]> = [
  [37, 99, 235],
  [16, 185, 129],
  [234, 88, 12],
  [168, 85, 247],
  [220, 38, 38],
  [14, 116, 144],
];

/** Where an article's image lives in stored HTML: `name` like `figure-1.jpg`. */
export function mediaUrl(siteId: number, slug: string, name: string): string {
  return `${MEDIA_ORIGIN}/sites/${siteId}/${encodeURIComponent(slug)}/${name}`;
}

/** Points stored image URLs at the running simulator (every response body goes through this). */
export function withMediaOrigin(body: string, baseUrl: string): string {
  return body.includes(MEDIA_ORIGIN) ? body.replaceAll(`${MEDIA_ORIGIN}/`, `${baseUrl}/media/`) : body;
}

interface MediaFile {
  bytes: Buffer;
  type: string;
  etag: string;
}

export interface MediaLibrary {
  /**
   * The image for a path under /media/, or undefined (404) for unknown names and formats. Each `version` (an
   * image replaced in place) gives other bytes than the one before.
   */
  lookup(path: string, version?: number): MediaFile | undefined;
  /** Formats actually encoded (PNG always; JPEG and WebP when sharp is installed, as it is with Astro). */
  formats: readonly Format[];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGB pixels of a small "landscape": a sky gradient in one palette colour, a sun and a ground band. */
function drawPixels(colour: [number, number, number]): Buffer {
  const pixels = Buffer.alloc(MEDIA_WIDTH * MEDIA_HEIGHT * 3);
  const [r, g, b] = colour;
  for (let y = 0; y < MEDIA_HEIGHT; y += 1) {
    for (let x = 0; x < MEDIA_WIDTH; x += 1) {
      const i = (y * MEDIA_WIDTH + x) * 3;
      const t = y / MEDIA_HEIGHT;
      const sun = (x - MEDIA_WIDTH * 0.7) ** 2 + (y - MEDIA_HEIGHT * 0.3) ** 2 < (MEDIA_HEIGHT * 0.12) ** 2;
      const ground = y > MEDIA_HEIGHT * (0.72 + 0.05 * Math.sin(x / 40));
      const rgb = sun
        ? [253, 224, 71]
        : ground
          ? [r * 0.4, g * 0.5, b * 0.3]
          : [r + (255 - r) * t * 0.6, g + (255 - g) * t * 0.6, b + (255 - b) * t * 0.6];
      pixels[i] = Math.round(rgb[0] ?? 0);
      pixels[i + 1] = Math.round(rgb[1] ?? 0);
      pixels[i + 2] = Math.round(rgb[2] ?? 0);
    }
  }
  return pixels;
}

/** A minimal valid PNG (8-bit RGB, no filter): no dependency needed for the one format always served. */
export function encodePng(pixels: Buffer, width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) pixels.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type SharpFactory = (
  input: Buffer,
  options: { raw: { width: number; height: number; channels: 3 } },
) => {
  jpeg(options: { quality: number }): { toBuffer(): Promise<Buffer> };
  webp(options: { quality: number }): { toBuffer(): Promise<Buffer> };
};

async function loadSharp(): Promise<SharpFactory | undefined> {
  // sharp comes with Astro (its default image service), not with this package: optional here.
  const name = 'sharp';
  try {
    const mod = (await import(name)) as { default: SharpFactory };
    return mod.default;
  } catch {
    return undefined;
  }
}

function file(bytes: Buffer, type: string): MediaFile {
  return { bytes, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
}

let shared: Promise<MediaLibrary> | undefined;

/**
 * The palette's images in every format, made once per process (a few hundred milliseconds of CPU) and shared by
 * every simulator it starts: they never change (an image replaced in place is another palette entry, chosen by
 * `version`). A test suite starts hundreds of simulators; making them again for each cost a third of a second.
 */
export function createMediaLibrary(): Promise<MediaLibrary> {
  shared ??= makeMediaLibrary().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

async function makeMediaLibrary(): Promise<MediaLibrary> {
  const sharp = await loadSharp();
  const variants: Array<Partial<Record<Format, MediaFile>>> = [];
  for (const colour of PALETTE) {
    const pixels = drawPixels(colour);
    const raw = { raw: { width: MEDIA_WIDTH, height: MEDIA_HEIGHT, channels: 3 as const } };
    variants.push({
      png: file(encodePng(pixels, MEDIA_WIDTH, MEDIA_HEIGHT), 'image/png'),
      ...(sharp
        ? {
            jpeg: file(await sharp(pixels, raw).jpeg({ quality: 70 }).toBuffer(), 'image/jpeg'),
            webp: file(await sharp(pixels, raw).webp({ quality: 70 }).toBuffer(), 'image/webp'),
          }
        : {}),
    });
  }
  return {
    formats: sharp ? ['jpeg', 'png', 'webp'] : ['png'],
    lookup(path, version = 0) {
      const match = /^\/media\/sites\/\d+\/[^/]+\/([a-z0-9-]+)\.([a-z]+)$/.exec(path);
      const format = match ? FORMATS[match[2] ?? ''] : undefined;
      // `missing-*` names answer 404: how tests make one image of an article fail.
      if (!match || !format || match[1]?.startsWith('missing')) return undefined;
      const index = (createHash('sha1').update(path).digest()[0] ?? 0) + version;
      const variant = variants[index % variants.length];
      // Without sharp only PNG exists: served with its true type, browsers and Astro read it by content.
      return variant?.[format] ?? variant?.png;
    },
  };
}

/** What the image CDN says about caching (the `imageCaching` variant), and the image's version there. */
export interface MediaCaching {
  mode: 'immutable' | 'revalidate' | 'none';
  version: number;
  /** When this version was put in place (ms); the seeded images date from `MEDIA_SEEDED_AT`. */
  changedAt: number;
}

/** Last-Modified of every image never replaced. */
export const MEDIA_SEEDED_AT = Date.UTC(2026, 0, 1);

/** An image response before it is sent: a fault on `GET /media/*` may rewrite it (media-faults.ts). */
export interface MediaResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The answer to GET/HEAD /media/...: the image, a 304 for a revalidation, or a 404 for an unknown name. */
export function mediaResponse(
  req: IncomingMessage,
  library: MediaLibrary,
  path: string,
  caching: MediaCaching = { mode: 'immutable', version: 0, changedAt: MEDIA_SEEDED_AT },
): MediaResponse {
  const media = library.lookup(path, caching.version);
  if (!media)
    return {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from(`No image at ${path}.`),
    };
  const lastModified = new Date(Math.floor(caching.changedAt / 1000) * 1000).toUTCString();
  const headers: Record<string, string> =
    caching.mode === 'immutable'
      ? // Like a real CDN: long-lived, so Astro's remote image cache keeps them; revalidation answers 304.
        { 'content-type': media.type, etag: media.etag, 'cache-control': 'public, max-age=31536000, immutable' }
      : caching.mode === 'revalidate'
        ? { 'content-type': media.type, etag: media.etag, 'last-modified': lastModified, 'cache-control': 'no-cache' }
        : { 'content-type': media.type };
  const ifNoneMatch = req.headers['if-none-match'];
  const ifModifiedSince = Date.parse(req.headers['if-modified-since'] ?? '');
  const unchanged =
    caching.mode !== 'none' &&
    (ifNoneMatch !== undefined
      ? ifNoneMatch.split(',').some((tag) => tag.trim() === media.etag || tag.trim() === '*')
      : caching.mode === 'revalidate' && !Number.isNaN(ifModifiedSince) && caching.changedAt < ifModifiedSince + 1000);
  return unchanged ? { status: 304, headers, body: Buffer.alloc(0) } : { status: 200, headers, body: media.bytes };
}
