/**
 * Where connections are found by id (ARCHITECTURE §3 item 7: the scale-out seam). It holds
 * records — who owns a connection and which node runs it — never live objects, so a shared
 * store (Redis) can implement it and any node can answer a request for any connection.
 */
import type { MaybePromise } from './replay-log.js';

/** What the registry knows about one connection. */
export interface ConnectionRecord {
  /** The connection id. */
  readonly id: string;
  /**
   * What `authenticate(request)` returned when the connection was opened (`undefined` without
   * authentication). A shared registry stores it as JSON, so keep principals JSON-serialisable.
   */
  readonly principal: unknown;
  /** Id of the node whose session host runs the agent for this connection. */
  readonly owner: string;
  /** When the connection was opened, in milliseconds since the epoch. */
  readonly createdAt: number;
  /**
   * Sequence number of the last message sent, as of the last time the owner wrote the record
   * (when a link detaches or the connection opens). The replay log's `lastSeq()` is exact.
   */
  readonly lastSeq: number;
}

/** Records of live connections, by id. Every method may answer with a promise. */
export interface ConnectionRegistry {
  get(id: string): MaybePromise<ConnectionRecord | undefined>;
  /** Creates or replaces the record of `record.id`. */
  set(record: ConnectionRecord): MaybePromise<void>;
  delete(id: string): MaybePromise<void>;
  /** Records held (for `stats()` and leak tests). */
  size(): MaybePromise<number>;
}

/** The in-memory registry: answers synchronously. */
export interface MemoryConnectionRegistry extends ConnectionRegistry {
  get(id: string): ConnectionRecord | undefined;
  set(record: ConnectionRecord): void;
  delete(id: string): void;
  size(): number;
  /** Every record, for diagnostics. */
  values(): IterableIterator<ConnectionRecord>;
}

/**
 * A `Map`-backed {@link ConnectionRegistry}, private to one process (one node).
 *
 * @example
 * ```ts
 * const registry = createMemoryConnectionRegistry();
 * const host = createSessionHost({ agent, registry });
 * ```
 */
export function createMemoryConnectionRegistry(): MemoryConnectionRegistry {
  const records = new Map<string, ConnectionRecord>();
  return {
    get: (id) => records.get(id),
    set: (record) => {
      records.set(record.id, record);
    },
    delete: (id) => {
      records.delete(id);
    },
    size: () => records.size,
    values: () => records.values(),
  };
}
