/**
 * Hostile image bodies for test/security/images.test.ts, served by a real HTTP server on loopback: a body
 * with PNG's magic bytes and garbage after them, a pixel bomb (a small PNG that declares 16,000 x 16,000
 * pixels), and a good small PNG. The server's answer for each path can be switched between builds.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createDeflate, crc32 } from 'node:zlib';
import { encodePng } from '../../src/simulator/media.js';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, small PNG (a gradient) that every decoder reads. */
export function goodPng(width = 64, height = 48): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels.set([((i / 3) % width) << 2, 90, 160], i);
  return encodePng(pixels, width, height);
}

/** PNG's eight magic bytes, then 4 KiB of garbage: passes a magic-byte sniff, decodes nowhere. */
export function garbagePng(): Buffer {
  const garbage = Buffer.alloc(4096);
  for (let i = 0; i < garbage.length; i += 1) garbage[i] = (i * 7919 + 13) & 0xff;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), garbage]);
}

/**
 * A valid 8-bit greyscale PNG of `side` x `side` black pixels: about 250 KB for 16,000 x 16,000 (256 million
 * pixels, 1 GiB as RGBA), made row by row so the test never holds the raw image.
 */
export async function pixelBomb(side = 16_000): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(side + 1);
  for (let y = 0; y < side; y += 1) if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(out)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface ImageServer {
  url: string;
  /** What each path answers from now on (200; image/gif for a `.gif` path, else image/png). */
  bodies: Map<string, Buffer>;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startImageServer(): Promise<ImageServer> {
  const bodies = new Map<string, Buffer>();
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = bodies.get(path);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = path.endsWith('.gif') ? 'image/gif' : 'image/png';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What one `astro build` in its own process cost (test/fixtures/images-hostile/build-child.mjs). */
export interface ChildBuild {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
  error?: string;
  /** What the build printed (Astro's logger at level warn). */
  logs: string;
}

/** One `astro build` of fixture `root` in a fresh process, with `env` added: its figures. */
export async function buildInChild(
  root: string,
  dirs: { outDir: string; cacheDir: string },
  env: Record<string, string>,
): Promise<ChildBuild> {
  const child = fileURLToPath(new URL('../fixtures/images-hostile/build-child.mjs', import.meta.url));
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, [child, root, dirs.outDir, dirs.cacheDir], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    p.stdout.on('data', (b: Buffer) => (text += b.toString()));
    p.stderr.on('data', (b: Buffer) => (text += b.toString()));
    p.on('error', reject);
    p.on('close', () => resolve(text));
  });
  const figures = JSON.parse(out.trim().split('\n').at(-1) ?? '') as Omit<ChildBuild, 'logs'>;
  return { ...figures, logs: out };
}
