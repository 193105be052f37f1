/**
 * The request ids a connection remembers so that a retried request reaches the agent once
 * (idempotent receive), bounded by count and by bytes: an id costs what its text costs, so a
 * client cannot make the server hold more than `maxBytes` of ids however long it makes them.
 */
import type { TurnResult } from './turn.js';

/** Limits of {@link RequestIdMemory}. */
export interface RequestIdLimits {
  /** Most ids kept; the oldest is forgotten first. */
  readonly maxCount: number;
  /** Most UTF-16 code units of id text kept. */
  readonly maxBytes: number;
}

/** Fixed cost of one remembered id besides its text, counted against `maxBytes`. */
export const REQUEST_ID_OVERHEAD_BYTES = 64;

/** Remembered ids of one connection, oldest first, each with the turn it started. */
export class RequestIdMemory {
  readonly #limits: RequestIdLimits;
  readonly #ids = new Map<string, Promise<TurnResult>>();
  #bytes = 0;

  constructor(limits: RequestIdLimits) {
    this.#limits = limits;
  }

  /** Ids and bytes kept. */
  get size(): { count: number; bytes: number } {
    return { count: this.#ids.size, bytes: this.#bytes };
  }

  /** The turn of a request seen before, or `undefined`. Ids are compared by their exact text. */
  get(id: string): Promise<TurnResult> | undefined {
    return this.#ids.get(id);
  }

  /** Remembers `id`, forgetting the oldest ids beyond the limits. */
  remember(id: string, turn: Promise<TurnResult>): void {
    this.#ids.set(id, turn);
    this.#bytes += id.length + REQUEST_ID_OVERHEAD_BYTES;
    while (
      this.#ids.size > 1 &&
      (this.#ids.size > this.#limits.maxCount || this.#bytes > this.#limits.maxBytes)
    ) {
      const oldest = this.#ids.keys().next().value!;
      this.#ids.delete(oldest);
      this.#bytes -= oldest.length + REQUEST_ID_OVERHEAD_BYTES;
    }
  }

  clear(): void {
    this.#ids.clear();
    this.#bytes = 0;
  }
}
