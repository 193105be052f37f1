/**
 * The per-connection log of sent events that lets a client resume after a dropped link
 * (ARCHITECTURE §3 item 1 and 7). In memory by default; a shared store can implement the interface.
 */

/** One sent event: a sequence number and the serialised A2UI message. */
export interface ReplayEntry {
  /** 1-based, increasing by one per message. */
  readonly seq: number;
  /** The message as JSON text. */
  readonly data: string;
}

/** Storage of the events a connection sent. */
export interface ReplayLog {
  append(entry: ReplayEntry): void;
  /**
   * Entries with `seq > afterSeq`, in order; `undefined` when some of them are no longer kept
   * (the caller must reset the session).
   */
  since(afterSeq: number): ReplayEntry[] | undefined;
  /** Highest sequence number appended (0 when none). */
  readonly lastSeq: number;
  /** Entries and bytes currently kept. */
  readonly size: { events: number; bytes: number };
  clear(): void;
}

/** Limits of {@link createMemoryReplayLog}. */
export interface ReplayLogLimits {
  /** Most events kept. @default 1000 */
  maxEvents?: number;
  /** Most bytes (UTF-16 code units of `data`, a close bound for ASCII JSON) kept. @default 4194304 */
  maxBytes?: number;
}

export const DEFAULT_REPLAY_LOG_LIMITS: Required<ReplayLogLimits> = {
  maxEvents: 1000,
  maxBytes: 4 * 1024 * 1024,
};

/** A bounded in-memory {@link ReplayLog}: oldest entries are dropped past either limit. */
export function createMemoryReplayLog(limits: ReplayLogLimits = {}): ReplayLog {
  const maxEvents = limits.maxEvents ?? DEFAULT_REPLAY_LOG_LIMITS.maxEvents;
  const maxBytes = limits.maxBytes ?? DEFAULT_REPLAY_LOG_LIMITS.maxBytes;
  let entries: ReplayEntry[] = [];
  let head = 0;
  let bytes = 0;
  let lastSeq = 0;
  return {
    append(entry) {
      entries.push(entry);
      bytes += entry.data.length;
      lastSeq = entry.seq;
      while (entries.length - head > maxEvents || (bytes > maxBytes && entries.length - head > 1)) {
        bytes -= entries[head]!.data.length;
        head++;
      }
      // Compact occasionally so dropped entries are released.
      if (head > 1024 && head * 2 > entries.length) {
        entries = entries.slice(head);
        head = 0;
      }
    },
    since(afterSeq) {
      if (afterSeq >= lastSeq) return [];
      const first = entries[head];
      if (!first || afterSeq + 1 < first.seq) return undefined;
      return entries.slice(head + (afterSeq + 1 - first.seq));
    },
    get lastSeq() {
      return lastSeq;
    },
    get size() {
      return { events: entries.length - head, bytes };
    },
    clear() {
      entries = [];
      head = 0;
      bytes = 0;
    },
  };
}
