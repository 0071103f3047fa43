/**
 * Reads a response (or request) body with a byte cap, so a huge or endless answer (a misrouted download, a
 * proxy gone wrong, a hostile upstream or client) cannot exhaust memory: a declared Content-Length over the
 * cap is refused before reading, and streaming stops as soon as the running count passes the cap. Web APIs
 * only: the invalidation endpoint reads its request with it on edge runtimes too.
 */

export type CappedBody =
  { ok: true; text: string; bytes: Uint8Array } | { ok: false; bytesSeen: number; declared: boolean };

/** What is read: a Response, or a Request (both have headers and a body stream). */
export interface BodyMessage {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

export async function readBodyCapped(response: BodyMessage, maxBytes: number): Promise<CappedBody> {
  const header = response.headers.get('content-length');
  const declared = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
  if (declared !== undefined && declared > maxBytes) {
    // Not a byte more: cancelling the stream closes the connection instead of draining it.
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, bytesSeen: declared, declared: true };
  }
  if (!response.body) return { ok: true, text: '', bytes: new Uint8Array(0) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, bytesSeen: size, declared: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  // XML feeds decode their bytes by their own declaration (feeds/decode-xml.ts): they read `bytes`.
  return { ok: true, text: new TextDecoder('utf-8').decode(bytes), bytes };
}
