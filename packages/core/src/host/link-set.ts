/**
 * The live links of a streaming server binding (SSE responses, WebSockets, AG-UI runs) and the one
 * keep-alive timer they share: it runs only while there is a link, so an idle server holds no
 * timer at all, and every interval each link writes its keep-alive if it wrote nothing since the
 * last tick. It also keeps what the binding's `stats()` reports of the links' buffers.
 */

/** A server-side link a {@link LinkSet} can hold. */
export interface TickingLink {
  /** Called once per interval: write a keep-alive when nothing was written since the last tick. */
  tick(): void;
  /** Bytes written to the link that its client has not read yet. */
  readonly bufferedBytes?: number;
  /** Most unsent bytes the link held at once. */
  readonly peakBufferedBytes?: number;
}

/** What a binding's `stats()` reports of its links' buffers. */
export interface LinkBufferStats {
  /** Unsent bytes over all live links. */
  readonly bufferedBytes: number;
  /** Most unsent bytes one link held at once, ended links included. */
  readonly peakLinkBufferedBytes: number;
}

/**
 * A set of live links with their shared keep-alive timer.
 *
 * @example
 * ```ts
 * const links = new LinkSet<SseLink>(keepAliveIntervalMs);
 * links.add(link);              // the timer starts with the first link
 * links.delete(link);           // and stops with the last
 * return { links: links.size, keepAliveTimer: links.ticking, ...links.bufferStats() };
 * ```
 */
export class LinkSet<L extends TickingLink> implements Iterable<L> {
  readonly #intervalMs: number | undefined;
  readonly #links = new Set<L>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #peakOfEnded = 0;

  /** @param intervalMs - the keep-alive interval; `undefined` runs no timer (keep-alives off) */
  constructor(intervalMs: number | undefined) {
    this.#intervalMs = intervalMs;
  }

  /** Live links. */
  get size(): number {
    return this.#links.size;
  }

  /** True while the shared timer runs (there is a link, and keep-alives are on). */
  get ticking(): boolean {
    return this.#timer !== undefined;
  }

  /** Adds a live link; the timer starts with the first. */
  add(link: L): void {
    this.#links.add(link);
    this.#update();
  }

  /** Removes an ended link, keeping its peak for {@link bufferStats}; the timer stops with the last. */
  delete(link: L): boolean {
    const deleted = this.#links.delete(link);
    if ((link.peakBufferedBytes ?? 0) > this.#peakOfEnded)
      this.#peakOfEnded = link.peakBufferedBytes ?? 0;
    this.#update();
    return deleted;
  }

  /** The unsent bytes of the live links, and the most one link ever held. */
  bufferStats(): LinkBufferStats {
    let bufferedBytes = 0;
    let peak = this.#peakOfEnded;
    for (const link of this.#links) {
      bufferedBytes += link.bufferedBytes ?? 0;
      if ((link.peakBufferedBytes ?? 0) > peak) peak = link.peakBufferedBytes ?? 0;
    }
    return { bufferedBytes, peakLinkBufferedBytes: peak };
  }

  /** The live links, as a copy: a link may end (and leave the set) while the caller iterates. */
  [Symbol.iterator](): Iterator<L> {
    return [...this.#links][Symbol.iterator]();
  }

  #update(): void {
    if (this.#links.size > 0 && this.#timer === undefined && this.#intervalMs !== undefined) {
      this.#timer = setInterval(() => {
        for (const link of [...this.#links]) link.tick();
      }, this.#intervalMs);
    } else if (this.#links.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
