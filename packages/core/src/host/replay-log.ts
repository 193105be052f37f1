/**
 * The per-connection log of sent messages that lets a client resume after a dropped link, a
 * second reader (long poll) read what it missed, and another node follow a session it does not
 * own (ARCHITECTURE §3 items 1 and 7). Asynchronous by contract, so a shared store (Redis) can
 * implement it; the in-memory default answers synchronously.
 */
import type { DisconnectReason } from '../agent/agent.js';
import type { AnyServerMessage } from '../versions/server-messages.js';

/** A value, or a promise of it: in-memory stores answer synchronously, shared stores do not. */
export type MaybePromise<T> = T | Promise<T>;

/** One sent message: its sequence number, its JSON text and, in the process that sent it, the object. */
export interface ReplayEntry {
  /** 1-based, increasing by one per message of the connection. */
  readonly seq: number;
  /** The message as JSON text (what goes on the wire). */
  readonly data: string;
  /**
   * The message object `data` encodes, kept beside it so no binding re-parses what core produced.
   * Absent on entries read back from a shared store (another process sent them).
   */
  readonly message?: AnyServerMessage;
}

/** What a follower of a log is told (see {@link ReplayLog.subscribe}). */
export interface ReplayLogListener {
  /** Entries were appended (by this process or another), in order. */
  onAppend(entries: readonly ReplayEntry[]): void;
  /** The session ended; no more entries will come. */
  onEnd(reason: DisconnectReason): void;
}

/** Entries and bytes a log holds. */
export interface ReplayLogSize {
  readonly events: number;
  /** UTF-16 code units of the kept `data` (a close bound on bytes for ASCII JSON). */
  readonly bytes: number;
}

/**
 * Storage of the messages one connection sent. Every method may answer with a promise; callers
 * await what they get. Appends of one log are issued in `seq` order and must be stored in order.
 */
export interface ReplayLog {
  /** Appends entries (consecutive `seq`s, in order) and notifies subscribers. */
  append(entries: readonly ReplayEntry[]): MaybePromise<void>;
  /**
   * The entries with `seq > afterSeq`, in order (at most `limit` of them); `undefined` when some of
   * them are no longer kept, so the reader cannot continue without a gap (it must reset).
   */
  read(afterSeq: number, options?: { limit?: number }): MaybePromise<ReplayEntry[] | undefined>;
  /** Highest `seq` appended (0 when none). */
  lastSeq(): MaybePromise<number>;
  /** Drops the entries with `seq ≤ throughSeq`: the client acknowledged them. */
  trim(throughSeq: number): MaybePromise<void>;
  /** Entries and bytes currently kept. */
  size(): MaybePromise<ReplayLogSize>;
  /** Follows appends until the log ends; returns the unsubscribe function. */
  subscribe(listener: ReplayLogListener): () => void;
  /** The session ended: tells subscribers, then frees everything the log holds. */
  end(reason: DisconnectReason): MaybePromise<void>;
}

/** Limits of {@link createMemoryReplayLog}. */
export interface ReplayLogLimits {
  /** Most entries kept. @default 1000 */
  maxEvents?: number;
  /** Most UTF-16 code units of `data` kept (≈ bytes for ASCII JSON). @default 4194304 */
  maxBytes?: number;
}

/** Defaults of {@link ReplayLogLimits}. */
export const DEFAULT_REPLAY_LOG_LIMITS: Required<ReplayLogLimits> = {
  maxEvents: 1000,
  maxBytes: 4 * 1024 * 1024,
};

/** The in-memory log: a {@link ReplayLog} whose methods answer synchronously. */
export interface MemoryReplayLog extends ReplayLog {
  append(entries: readonly ReplayEntry[]): void;
  read(afterSeq: number, options?: { limit?: number }): ReplayEntry[] | undefined;
  lastSeq(): number;
  trim(throughSeq: number): void;
  size(): ReplayLogSize;
  end(reason: DisconnectReason): void;
}

/**
 * A bounded in-memory {@link ReplayLog}: past either limit the oldest entries are dropped (a
 * reader that needs them gets `undefined` and resets). Nothing is shared across processes.
 *
 * @param limits - `maxEvents` (default 1000), `maxBytes` (default 4 MiB)
 *
 * @example
 * ```ts
 * const log = createMemoryReplayLog({ maxEvents: 100 });
 * log.append([{ seq: 1, data: '{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}' }]);
 * log.read(0); // [{ seq: 1, … }]
 * ```
 */
export function createMemoryReplayLog(limits: ReplayLogLimits = {}): MemoryReplayLog {
  const maxEvents = limits.maxEvents ?? DEFAULT_REPLAY_LOG_LIMITS.maxEvents;
  const maxBytes = limits.maxBytes ?? DEFAULT_REPLAY_LOG_LIMITS.maxBytes;
  let entries: ReplayEntry[] = [];
  let head = 0;
  let bytes = 0;
  let last = 0;
  /** Everything up to here was dropped on purpose (trimmed or evicted). */
  let droppedThrough = 0;
  let ended = false;
  const listeners = new Set<ReplayLogListener>();

  const dropHead = (): void => {
    const entry = entries[head]!;
    bytes -= entry.data.length;
    droppedThrough = entry.seq;
    entries[head] = undefined as unknown as ReplayEntry;
    head++;
  };
  const compact = (): void => {
    // Occasionally, so that dropped entries are released without an O(n) shift per append.
    if (head > 1024 && head * 2 > entries.length) {
      entries = entries.slice(head);
      head = 0;
    }
  };

  return {
    append(appended) {
      if (ended) return;
      for (const entry of appended) {
        entries.push(entry);
        bytes += entry.data.length;
        last = entry.seq;
      }
      while (entries.length - head > maxEvents || (bytes > maxBytes && entries.length - head > 1))
        dropHead();
      compact();
      if (listeners.size > 0) for (const listener of [...listeners]) listener.onAppend(appended);
    },
    read(afterSeq, options = {}) {
      if (afterSeq >= last) return [];
      if (afterSeq < droppedThrough) return undefined;
      const first = entries[head];
      if (!first) return undefined;
      const start = head + Math.max(0, afterSeq + 1 - first.seq);
      const end =
        options.limit === undefined
          ? entries.length
          : Math.min(entries.length, start + options.limit);
      return entries.slice(start, end);
    },
    lastSeq: () => last,
    trim(throughSeq) {
      while (head < entries.length && entries[head]!.seq <= throughSeq) dropHead();
      if (throughSeq > droppedThrough) droppedThrough = Math.min(throughSeq, last);
      if (head === entries.length) {
        entries = [];
        head = 0;
      } else compact();
    },
    size: () => ({ events: entries.length - head, bytes }),
    subscribe(listener) {
      if (ended) {
        listener.onEnd('server-closed');
        return () => {};
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    end(reason) {
      if (ended) return;
      ended = true;
      entries = [];
      head = 0;
      bytes = 0;
      const current = [...listeners];
      listeners.clear();
      for (const listener of current) listener.onEnd(reason);
    },
  };
}
