/**
 * Reads a request body as UTF-8 text without ever holding more than `maxBytes` of it: the
 * `Content-Length` header is checked first, and a chunked body is cut off as soon as it grows
 * past the limit.
 */

/** Result of {@link readBodyText}. */
export type ReadBodyResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' | 'invalid-utf8' };

/**
 * Reads `request`'s body.
 * @param maxBytes - largest body accepted, in bytes
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<ReadBodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return { ok: false, reason: 'too-large' };
  const body = request.body;
  if (!body) return { ok: true, text: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks, total);
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'invalid-utf8' };
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
