/**
 * What the server holds for one stream's client and the client has not read yet, in bytes of
 * A2UI JSON. The SDK's event queue takes every event published to it however slowly the client
 * reads (an SSE client that stops reading fills its socket, then the queue), so the binding
 * counts what it hands over and stops handing over past `maxBufferedBytes`: the client, seeing
 * an `a2uiSeq` skipped, resumes with `SubscribeToTask` from its `Last-Event-ID`, and the
 * session's replay log serves what it missed. The binding keeps the buffers of open streams in
 * one set, for `stats().bufferedBytes`.
 */
export class StreamBuffer {
  readonly #held = new Map<string, number>();
  #bytes = 0;

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether `size` more bytes stay within `maxBytes` (the first update always fits). */
  fits(size: number, maxBytes: number): boolean {
    return this.#bytes === 0 || this.#bytes + size <= maxBytes;
  }

  /** Holds `size` bytes under `key` (an update's message id) until {@link release}. */
  hold(key: string, size: number): void {
    this.#held.set(key, (this.#held.get(key) ?? 0) + size);
    this.#bytes += size;
  }

  /** The client took what `key` holds (unknown keys are ignored: not every update is held). */
  release(key: string | undefined): void {
    if (key === undefined) return;
    const size = this.#held.get(key);
    if (size === undefined) return;
    this.#held.delete(key);
    this.#bytes -= size;
  }

  /** The client took everything. */
  clear(): void {
    this.#held.clear();
    this.#bytes = 0;
  }
}

/** Bytes of A2UI JSON in `entries`. */
export const bytesOf = (entries: readonly { readonly data: string }[]): number =>
  entries.reduce((total, entry) => total + entry.data.length, 0);
