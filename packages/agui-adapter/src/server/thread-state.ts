/**
 * What the adapter remembers of one thread between its runs: the surfaces as the client was last
 * sent them, how far the connection's messages were delivered, whether the last run was cut
 * short, the host tool calls awaiting a result and the message ids already delivered. It lives as
 * long as the thread's connection on this node.
 */
import type { MessageMigrator } from '@a2ui-ts/core';
import type { SurfacesState } from '../protocol/surface-state.js';
import type { ThreadMemory } from './run-input.js';
import { createV09Reader } from './run-versions.js';

/** Message ids remembered per thread (user messages, `log_a2ui_event` calls). */
const MAX_REMEMBERED_MESSAGE_IDS = 1_000;

/**
 * Changes of held activity messages remembered past the client's last acknowledgement; beyond
 * it the oldest count as acknowledged, and a client further behind is sent its surfaces whole.
 */
const MAX_HELD_CHANGES = 1_000;

/** Per surface, in `activity` mode: what the client's activity message holds. */
export interface ActivityRecord {
  /** Bytes of the last snapshot. */
  snapshotBytes: number;
  /** Bytes appended since; past `snapshotBytes` the next update is a fresh (compact) snapshot. */
  appendedBytes: number;
}

/** A surface's activity message became held (or was dropped) by the client at `seq`. */
interface HeldChange {
  readonly seq: number;
  readonly surfaceId: string;
  readonly held: boolean;
}

/** The adapter's state of one thread. */
export class ThreadState implements ThreadMemory {
  /** The surfaces as the client was last sent them. */
  surfaces: SurfacesState = {};
  /** `seq` of the last connection message written to a run. */
  deliveredSeq = 0;
  /**
   * For a client that sends no `a2uiSeq` back: the last run ended before its terminal event, so
   * the client may lack what it carried and the next run sends every surface whole.
   */
  dirty = false;
  /**
   * The `seq` as of which the client was last sent every surface whole: a client that says it
   * holds less is sent them whole again (it may hold part of that snapshot, which no replay
   * could complete).
   */
  floorSeq = 0;
  /** Activity mode: the surfaces whose activity message the client holds. */
  readonly activity = new Map<string, ActivityRecord>();
  readonly pendingToolCalls = new Set<string>();
  /** Renderer functions sent as frontend-tool calls (their `functionCallId`s), not answered yet. */
  readonly pendingFunctionCalls = new Set<string>();
  /** Reads the agent's v1.0 messages as the v0.9 the surfaces are kept in. */
  readonly v09Reader: MessageMigrator = createV09Reader();
  /** Surfaces the agent created in v1.0: their operations are written in v1.0. */
  readonly v10Surfaces = new Set<string>();
  /** JSON of the tools, context and host state last given to the agent. */
  lastInputDigest: string | undefined;
  readonly #seen = new Set<string>();
  /** Activity mode: the surfaces the client held as of the `seq` it last acknowledged. */
  #heldAtAck = new Set<string>();
  /** Activity mode: changes of what the client holds after that `seq`, oldest first. */
  #heldChanges: HeldChange[] = [];

  /**
   * Activity mode: the surfaces whose activity message the client holds once it applied every
   * message through `seq` — which it says it has, so what came before is forgotten.
   */
  heldAt(seq: number): Set<string> {
    let applied = 0;
    for (const change of this.#heldChanges) {
      if (change.seq > seq) break;
      if (change.held) this.#heldAtAck.add(change.surfaceId);
      else this.#heldAtAck.delete(change.surfaceId);
      applied++;
    }
    if (applied > 0) this.#heldChanges = this.#heldChanges.slice(applied);
    return new Set(this.#heldAtAck);
  }

  /** Activity mode: the client gets (or loses) `surfaceId`'s activity message with message `seq`. */
  noteHeld(seq: number, surfaceId: string, held: boolean): void {
    this.#heldChanges.push({ seq, surfaceId, held });
    if (this.#heldChanges.length > MAX_HELD_CHANGES) {
      const oldest = this.#heldChanges[0]!.seq;
      this.heldAt(oldest);
      this.floorSeq = Math.max(this.floorSeq, oldest);
    }
  }

  /** Every surface was sent whole as of `seq`: the client holds exactly `surfaceIds` from there. */
  sentWhole(seq: number, surfaceIds: Iterable<string>): void {
    this.floorSeq = seq;
    this.#heldAtAck = new Set(surfaceIds);
    this.#heldChanges = [];
  }

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
