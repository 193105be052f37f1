/**
 * Client-side sequence checking: every server message carries its connection's `seq` (SSE
 * `id:`, WebSocket frames, REST answers). A message already applied is dropped, so a replay or a
 * repeating proxy cannot make the client apply it twice; a message that skips ahead means some
 * were lost on the way, and the link must resume from the last one applied.
 */

import { readSessionSnapshot } from '../transport/session-snapshot.js';

/** What to do with a message of a given `seq`. */
export type SequenceVerdict =
  /** The next one: apply it (the tracker has moved to it). */
  | 'apply'
  /** Already applied: drop it. */
  | 'duplicate'
  /** Messages before it are missing: do not apply it; resume from {@link SequenceTracker.last}. */
  | 'gap';

/** The sequence number of the last message applied, and the check of the next one. */
export class SequenceTracker {
  #last: number;

  constructor(last = 0) {
    this.#last = last;
  }

  /** `seq` of the last message applied (0 before any): what a resume asks to continue after. */
  get last(): number {
    return this.#last;
  }

  /**
   * Checks `seq` and, when it is the next one, records it as applied.
   *
   * @example
   * ```ts
   * const tracker = new SequenceTracker();
   * tracker.accept(1); // 'apply'
   * tracker.accept(1); // 'duplicate'
   * tracker.accept(3); // 'gap'
   * ```
   */
  accept(seq: number): SequenceVerdict {
    if (seq <= this.#last) return 'duplicate';
    if (seq > this.#last + 1) return 'gap';
    this.#last = seq;
    return 'apply';
  }

  /**
   * As {@link accept}, for an entry whose payload is `data` (JSON text or the parsed value): a
   * session snapshot (`readSessionSnapshot`) covers everything through its `throughSeq`, so it is
   * applied whatever came before and moves the tracker there (`duplicate` when the tracker is
   * there already).
   *
   * @example
   * ```ts
   * if (tracker.acceptEntry(Number(event.id), event.data) === 'apply') push(event.data);
   * ```
   */
  acceptEntry(seq: number, data: unknown): SequenceVerdict {
    const snapshot = readSessionSnapshot(data);
    if (!snapshot) return this.accept(seq);
    if (snapshot.throughSeq <= this.#last) return 'duplicate';
    this.#last = snapshot.throughSeq;
    return 'apply';
  }

  /** Starts over (after a `reset`: the new connection numbers from 1). */
  reset(last = 0): void {
    this.#last = last;
  }
}
