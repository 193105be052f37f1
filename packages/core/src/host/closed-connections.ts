/**
 * What a linkless client still needs after its connection ended (a host feature, the option
 * `closedConnectionTtlMs`): when the agent closes a connection (in a turn, or from a timer), its
 * replay log ends at once — but a client that polls (REST) learns of it only with its next
 * answer, which must still carry the last messages and say `closed`. So the end of each
 * connection's log is watched (through the host's `createReplayLog` seam) and, for
 * `server-closed`, the messages still kept are remembered for a while, bounded in number and time.
 */
import type { DisconnectReason } from '../agent/agent.js';
import type { ConnectionRecord } from './connection-registry.js';
import { ExpiringMap } from './expiring-map.js';
import type { MaybePromise, ReplayEntry, ReplayLog } from './replay-log.js';

/** A connection that ended with `server-closed`, as its clients may still ask about it. */
export interface ClosedConnection {
  readonly reason: DisconnectReason;
  /** Closed by the host's `close()` (a shutdown), not by its agent: its client may come back. */
  readonly shutdown: boolean;
  /** The principal it was bound to. */
  readonly principal: unknown;
  /** The messages its log still kept (those not yet acknowledged), in `seq` order. */
  readonly entries: readonly ReplayEntry[];
  /** `seq` of its last message. */
  readonly lastSeq: number;
}

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | undefined)?.then === 'function';

/** Applies `next` to `value` now when it is there, or once its promise settles. */
const then = <T, R>(value: MaybePromise<T>, next: (resolved: T) => MaybePromise<R>) =>
  isPromise(value) ? value.then(next) : next(value);

/** Closed connections by id, for `ttlMs`, at most `maxConnections` of them. */
export class ClosedConnections {
  readonly #closed: ExpiringMap<string, ClosedConnection>;
  /** Captures still being read from an asynchronous store. */
  readonly #pending = new Map<string, Promise<void>>();

  constructor(options: { ttlMs: number; maxConnections: number }) {
    this.#closed = new ExpiringMap({ ttlMs: options.ttlMs, maxSize: options.maxConnections });
  }

  /** Closed connections remembered. */
  get size(): number {
    return this.#closed.size;
  }

  /** The closed connection `connectionId`, once any capture of it is done. */
  get(connectionId: string): MaybePromise<ClosedConnection | undefined> {
    const pending = this.#pending.get(connectionId);
    if (pending) return pending.then(() => this.#closed.get(connectionId));
    return this.#closed.get(connectionId);
  }

  clear(): void {
    this.#closed.clear();
  }

  /**
   * Wraps the replay log of `connectionId` so that its end with `server-closed` is remembered:
   * the entries still kept are captured before the log frees them (synchronously for the
   * in-memory log, so an answer built right after the turn finds them).
   *
   * @param record - the connection's registry record, which still exists when its log ends
   */
  watch(
    connectionId: string,
    log: ReplayLog,
    record: () => MaybePromise<ConnectionRecord | undefined>,
    shutdown: () => boolean,
  ): ReplayLog {
    return {
      append: (entries) => log.append(entries),
      read: (afterSeq, options) => log.read(afterSeq, options),
      lastSeq: () => log.lastSeq(),
      trim: (throughSeq) => log.trim(throughSeq),
      size: () => log.size(),
      subscribe: (listener) => log.subscribe(listener),
      end: (reason) => {
        if (reason !== 'server-closed') return log.end(reason);
        const captured = this.#capture(connectionId, reason, log, record, shutdown());
        if (!isPromise(captured)) return log.end(reason);
        const done = captured.catch(() => {});
        this.#pending.set(connectionId, done);
        return done.then(() => {
          this.#pending.delete(connectionId);
          return log.end(reason);
        });
      },
    };
  }

  #capture(
    connectionId: string,
    reason: DisconnectReason,
    log: ReplayLog,
    record: () => MaybePromise<ConnectionRecord | undefined>,
    shutdown: boolean,
  ): MaybePromise<void> {
    return then(log.lastSeq(), (lastSeq) =>
      then(log.size(), (size) =>
        // The kept entries are the last `size.events` ones (acknowledged ones are trimmed).
        then(log.read(lastSeq - size.events), (entries) =>
          then(record(), (found) => {
            // Without its record the owner is unknown: the client is told "unknown connection".
            if (found)
              this.#closed.set(connectionId, {
                reason,
                shutdown,
                principal: found.principal,
                entries: entries ?? [],
                lastSeq,
              });
          }),
        ),
      ),
    );
  }
}
