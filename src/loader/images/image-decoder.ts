import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** What Astro's image service (sharp) will decode of an image: its canvas and its frames, all pages stacked. */
export interface DecodedSize {
  width: number;
  /** The height of one frame. */
  pageHeight: number;
  pages: number;
}

interface SharpMetadata {
  width?: number;
  height?: number;
  pages?: number;
  pageHeight?: number;
}
type SharpFactory = (
  input: Buffer,
  options: { failOn: 'none'; pages: number },
) => { metadata(): Promise<SharpMetadata> };

let loading: Promise<SharpFactory | undefined> | undefined;

/**
 * sharp as Astro's sharp service imports it. It comes with Astro, not with this package: first as this package
 * resolves it (npm's flat layout), else from Astro's own folder (pnpm's, where only Astro sees it); undefined
 * when neither has it (then Astro's default service cannot run either).
 */
function loadSharp(): Promise<SharpFactory | undefined> {
  loading ??= (async () => {
    const name = 'sharp';
    try {
      return ((await import(/* @vite-ignore */ name)) as { default: SharpFactory }).default;
    } catch {
      try {
        const fromAstro = createRequire(import.meta.resolve('astro')).resolve(name);
        return ((await import(/* @vite-ignore */ pathToFileURL(fromAstro).href)) as { default: SharpFactory }).default;
      } catch {
        return undefined;
      }
    }
  })();
  return loading;
}

/**
 * The size of `bytes` as Astro's image service will decode it, asked of its own decoder with the options Astro
 * passes (`pages: -1`: every frame of an animation, stacked; `failOn: 'none'`), from headers only (no pixel is
 * decoded: a few milliseconds for a 10 MB GIF). The header's own size can lie to the decoder: a GIF's logical
 * screen is 1 x 1, and its first frame placed at (15999, 15999) makes libvips allocate 16000 x 16000.
 * `undefined` when sharp is not installed (no sharp, no such decoding); `{ error }` when it cannot read the body.
 */
export async function decodedSize(bytes: Buffer): Promise<DecodedSize | { error: string } | undefined> {
  const sharp = await loadSharp();
  if (!sharp) return undefined;
  let meta: SharpMetadata;
  try {
    meta = await sharp(bytes, { failOn: 'none', pages: -1 }).metadata();
  } catch {
    return { error: 'the image decoder cannot read the body (corrupt or truncated)' };
  }
  const pages = meta.pages ?? 1;
  const pageHeight = meta.pageHeight ?? (meta.height ?? 0) / pages;
  return { width: meta.width ?? 0, pageHeight, pages };
}
