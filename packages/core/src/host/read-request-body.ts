/**
 * Reads a request body as UTF-8 text without ever holding more than `maxBytes` of it and without
 * waiting longer than `timeoutMs` for it: `Content-Length` is checked first, a chunked body is cut
 * off as soon as it grows past the limit, and a client that sends slowly (or stops) is refused
 * once the deadline passes, whatever the runtime's own request timeout is (Node's is 300 s).
 */

/** Options of {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Deadline for the whole body, in milliseconds; 0 disables it. @default 10000 */
  timeoutMs?: number;
  /** Stops reading (resolves with `aborted`). */
  signal?: AbortSignal;
}

/** Default of {@link ReadRequestBodyOptions.timeoutMs}. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** Result of {@link readRequestBody}. */
export type ReadRequestBodyResult =
  | { readonly ok: true; readonly text: string; readonly bytes: number }
  | { readonly ok: false; readonly reason: 'too-large' | 'invalid-utf8' | 'timeout' | 'aborted' };

/** What {@link readRequestBody} reads: a `Request`, or a `Response`. */
export type ReadableBody = Pick<Request, 'headers' | 'body'> &
  Partial<Pick<Request, 'arrayBuffer'>>;

/**
 * Reads `request`'s body (or a `Response`'s: a client bounding what a server answers). A body
 * whose `Content-Length` is within the limit is read whole with the runtime's own reader (the
 * HTTP framing ends it there; on Node, Hono's adapter then never builds a Web stream) and its size
 * checked again; a body without one is streamed and cut off as soon as it grows past the limit.
 *
 * @param request - a Web-standard `Request` or `Response`
 * @param options - `maxBytes`, `timeoutMs` (default 10000), `signal`
 * @returns the text and its size in bytes, or why it was refused (`too-large` → 413,
 *   `timeout` → 408, `invalid-utf8` → a parse error)
 *
 * @example
 * ```ts
 * const body = await readRequestBody(c.req.raw, { maxBytes: 1_048_576 });
 * if (!body.ok && body.reason === 'too-large') return c.json({ error: … }, 413);
 * ```
 */
export async function readRequestBody(
  request: ReadableBody,
  options: ReadRequestBodyOptions,
): Promise<ReadRequestBodyResult> {
  const { maxBytes } = options;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return { ok: false, reason: 'too-large' };
  const timeoutMs = options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  let stop: ((reason: 'timeout' | 'aborted') => void) | undefined;
  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => {
    stop = resolve;
  });
  const timer = timeoutMs > 0 ? setTimeout(() => stop!('timeout'), timeoutMs) : undefined;
  const onAbort = () => stop!('aborted');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  try {
    if (declared !== null && /^\d{1,15}$/.test(declared) && request.arrayBuffer) {
      const whole = request.arrayBuffer();
      // Past the deadline the read may go on (bounded by the declared length); its end is dropped.
      whole.catch(() => {});
      const next = await Promise.race([whole, stopped]);
      if (typeof next === 'string') return { ok: false, reason: next };
      if (next.byteLength > maxBytes) return { ok: false, reason: 'too-large' };
      return decode(new Uint8Array(next));
    }
    return await readStream(request.body, maxBytes, stopped);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Reads a stream whole, refusing it once it grows past `maxBytes` or when `stopped` settles. */
async function readStream(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  stopped: Promise<'timeout' | 'aborted'>,
): Promise<ReadRequestBodyResult> {
  if (!body) return { ok: true, text: '', bytes: 0 };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const next = await Promise.race([reader.read(), stopped]);
    if (typeof next === 'string') {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: next };
    }
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: 'too-large' };
    }
    chunks.push(next.value);
  }
  return decode(chunks.length === 1 ? chunks[0]! : concat(chunks, total));
}

function decode(bytes: Uint8Array): ReadRequestBodyResult {
  try {
    return {
      ok: true,
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      bytes: bytes.byteLength,
    };
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
