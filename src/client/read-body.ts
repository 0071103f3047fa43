/**
 * Reads a response body with a byte cap, so a huge or endless answer (a misrouted download, a proxy gone
 * wrong, a hostile upstream) cannot exhaust memory: a declared Content-Length over the cap is refused
 * before reading, and streaming stops as soon as the running count passes the cap.
 */

export type CappedBody =
  { ok: true; text: string; bytes: Uint8Array } | { ok: false; bytesSeen: number; declared: boolean };

export async function readBodyCapped(response: Response, maxBytes: number): Promise<CappedBody> {
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
  const bytes = Buffer.concat(chunks);
  // XML feeds decode their bytes by their own declaration (feeds/decode-xml.ts): they read `bytes`.
  return { ok: true, text: new TextDecoder('utf-8').decode(bytes), bytes };
}
