/**
 * What the adapter remembers of one thread between its runs: the surfaces as the client was last
 * sent them, how far the connection's messages were delivered, whether the last run was cut
 * short, the host tool calls awaiting a result and the message ids already delivered. It lives as
 * long as the thread's connection on this node.
 */
import type { SurfacesState } from '../protocol/surface-state.js';
import type { ThreadMemory } from './run-input.js';

/** Message ids remembered per thread (user messages, `log_a2ui_event` calls). */
const MAX_REMEMBERED_MESSAGE_IDS = 1_000;

/** Per surface, in `activity` mode: what the client's activity message holds. */
export interface ActivityRecord {
  /** Bytes of the last snapshot. */
  snapshotBytes: number;
  /** Bytes appended since; past `snapshotBytes` the next update is a fresh (compact) snapshot. */
  appendedBytes: number;
}

/** The adapter's state of one thread. */
export class ThreadState implements ThreadMemory {
  /** The surfaces as the client was last sent them. */
  surfaces: SurfacesState = {};
  /** `seq` of the last connection message written to a run. */
  deliveredSeq = 0;
  /**
   * The last run ended before its terminal event: the client may lack what it carried, so the
   * next run sends every surface whole.
   */
  dirty = false;
  /** Activity mode: the surfaces whose activity message the client holds. */
  readonly activity = new Map<string, ActivityRecord>();
  readonly pendingToolCalls = new Set<string>();
  /** JSON of the tools, context and host state last given to the agent. */
  lastInputDigest: string | undefined;
  readonly #seen = new Set<string>();

  hasSeenMessage(id: string): boolean {
    return this.#seen.has(id);
  }

  rememberMessages(ids: readonly string[]): void {
    for (const id of ids) {
      this.#seen.delete(id);
      this.#seen.add(id);
    }
    // Oldest first out: a Set iterates in insertion order.
    for (const id of this.#seen) {
      if (this.#seen.size <= MAX_REMEMBERED_MESSAGE_IDS) break;
      this.#seen.delete(id);
    }
  }
}
