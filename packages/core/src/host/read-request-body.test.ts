import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRequestBody } from './read-request-body.js';

afterEach(() => {
  vi.useRealTimers();
});

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A body without a declared length, sent in the given chunks, then (unless `open`) ended. */
function chunked(chunks: string[], open = false) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!open) controller.close();
    },
  });
}

describe('readRequestBody', () => {
  it('reads a body with a declared length whole, and refuses one declared above the limit unread', async () => {
    const declared = post('{"a":"é"}', { 'content-length': '10' });
    const streamed = vi.spyOn(declared, 'body', 'get');
    expect(await readRequestBody(declared, { maxBytes: 100 })).toEqual({
      ok: true,
      text: '{"a":"é"}',
      bytes: 10,
    });
    expect(streamed).not.toHaveBeenCalled();
    const arrayBuffer = vi.fn();
    const declaredTooLarge = {
      headers: new Headers({ 'content-length': '101' }),
      body: null,
      arrayBuffer,
    };
    expect(await readRequestBody(declaredTooLarge, { maxBytes: 100 })).toEqual({
      ok: false,
      reason: 'too-large',
    });
    expect(arrayBuffer).not.toHaveBeenCalled();
  });

  it('checks the size of a declared body again once read (a runtime that does not enforce the length)', async () => {
    const lying = {
      headers: new Headers({ 'content-length': '2' }),
      body: null,
      arrayBuffer: async () => new TextEncoder().encode('far more than two bytes').buffer,
    };
    expect(await readRequestBody(lying, { maxBytes: 10 })).toEqual({
      ok: false,
      reason: 'too-large',
    });
  });

  it('streams a body without a declared length and cuts it off past the limit', async () => {
    expect(await readRequestBody(post(chunked(['{"a":', '1}'])), { maxBytes: 10 })).toEqual({
      ok: true,
      text: '{"a":1}',
      bytes: 7,
    });
    expect(
      await readRequestBody(post(chunked(['x'.repeat(8), 'x'.repeat(8)], true)), { maxBytes: 10 }),
    ).toEqual({ ok: false, reason: 'too-large' });
  });

  it('gives up at the deadline, declared or not, and when the signal aborts', async () => {
    vi.useFakeTimers();
    const slowDeclared = {
      headers: new Headers({ 'content-length': '5' }),
      body: null,
      arrayBuffer: () => new Promise<ArrayBuffer>(() => {}),
    };
    const declared = readRequestBody(slowDeclared, { maxBytes: 10, timeoutMs: 100 });
    const streamed = readRequestBody(post(chunked(['{'], true)), { maxBytes: 10, timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(100);
    expect(await declared).toEqual({ ok: false, reason: 'timeout' });
    expect(await streamed).toEqual({ ok: false, reason: 'timeout' });
    const abort = new AbortController();
    const aborted = readRequestBody(post(chunked(['{'], true)), {
      maxBytes: 10,
      signal: abort.signal,
    });
    abort.abort();
    expect(await aborted).toEqual({ ok: false, reason: 'aborted' });
  });

  it('refuses bytes that are not UTF-8, and reads a response too', async () => {
    expect(await readRequestBody(post(new Uint8Array([0xff, 0xfe])), { maxBytes: 10 })).toEqual({
      ok: false,
      reason: 'invalid-utf8',
    });
    expect(await readRequestBody(new Response('{}'), { maxBytes: 10 })).toEqual({
      ok: true,
      text: '{}',
      bytes: 2,
    });
    expect(await readRequestBody(new Response(null), { maxBytes: 10 })).toEqual({
      ok: true,
      text: '',
      bytes: 0,
    });
  });
});
