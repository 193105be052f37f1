/**
 * Follows the messages of one A2UI session from a given `seq`, live, for as long as one A2A
 * response streams them (a turn, or a `SubscribeToTask`). Why not a sink or `host.read` after the
 * turn: a sink (`host.connect`) is the one streaming link of a connection, and two requests of one
 * context would replace each other's; reading after the turn is not live, and a message sent just
 * before the agent closes the connection can no longer be read once it is closed. So the follower
 * subscribes to the session's replay log (synchronous, complete, many at once — the same seam a
 * follower on another node uses), reads the backlog after `afterSeq` through `host.read`, and
 * keeps a long-polling `host.read` pending as a waiting reader, which keeps the session out of its
 * grace period while the client is there. A session another node runs is followed by long polls.
 */
import {
  A2uiError,
  type DisconnectReason,
  type ReplayEntry,
  type ResetReason,
  type SessionHost,
} from '@a2ui-ts/core';

/** What a follower reports. */
export interface FollowHandlers {
  /** New messages, in `seq` order, each once, all after `afterSeq`. */
  onEntries(entries: readonly ReplayEntry[]): void;
  /** The session ended (nothing more will come). */
  onEnd(reason: DisconnectReason): void;
}

/** Options of {@link followSession}. */
export interface FollowOptions {
  readonly principal: unknown;
  /** Deliver the messages with `seq > afterSeq`. */
  readonly afterSeq: number;
  /** How long one presence (or polling) read waits, in milliseconds. */
  readonly pollIntervalMs: number;
  readonly handlers: FollowHandlers;
}

/**
 * Handlers to give a follower before the one who reads it is there: it keeps what arrives until
 * {@link FollowBuffer.bind} hands it on.
 */
export class FollowBuffer implements FollowHandlers {
  #entries: ReplayEntry[] = [];
  #ended: DisconnectReason | undefined;
  #target: FollowHandlers | undefined;

  onEntries(entries: readonly ReplayEntry[]): void {
    if (this.#target) this.#target.onEntries(entries);
    else for (const entry of entries) this.#entries.push(entry);
  }

  onEnd(reason: DisconnectReason): void {
    if (this.#target) this.#target.onEnd(reason);
    else this.#ended = reason;
  }

  /** From now on everything goes to `target`, what was kept first. */
  bind(target: FollowHandlers): void {
    this.#target = target;
    const entries = this.#entries;
    this.#entries = [];
    if (entries.length > 0) target.onEntries(entries);
    if (this.#ended !== undefined) target.onEnd(this.#ended);
  }
}

/** A running follower. */
export interface SessionFollower {
  /** `seq` of the last message delivered. */
  readonly deliveredSeq: number;
  stop(): void;
}

/** Result of {@link followSession}. */
export type FollowResult =
  | { readonly ok: true; readonly follower: SessionFollower }
  /** The session is unknown, or the messages after `afterSeq` are no longer kept. */
  | { readonly ok: false; readonly reason: ResetReason };

/**
 * Starts following `connectionId`.
 *
 * @throws A2uiError `FORBIDDEN` for another principal's session (the host's check)
 */
export async function followSession(
  host: SessionHost,
  connectionId: string,
  options: FollowOptions,
): Promise<FollowResult> {
  const { principal, handlers } = options;
  const lifetime = new AbortController();
  let delivered = options.afterSeq;
  let ended = false;
  const deliver = (entries: readonly ReplayEntry[]): void => {
    if (ended) return;
    const fresh = entries.filter((entry) => entry.seq > delivered);
    if (fresh.length === 0) return;
    delivered = fresh.at(-1)!.seq;
    handlers.onEntries(fresh);
  };
  const end = (reason: DisconnectReason): void => {
    if (ended) return;
    ended = true;
    lifetime.abort();
    handlers.onEnd(reason);
  };
  const follower: SessionFollower = {
    get deliveredSeq() {
      return delivered;
    },
    stop() {
      ended = true;
      lifetime.abort();
      unsubscribe();
    },
  };

  const session = host.session(connectionId);
  let unsubscribe = (): void => {};
  let live = false;
  const held: ReplayEntry[] = [];
  if (session) {
    // Subscribed before the backlog is read, so that nothing sent in between is missed.
    unsubscribe = session.replayLog.subscribe({
      onAppend: (entries) => {
        if (live) deliver(entries);
        else held.push(...entries);
      },
      onEnd: (reason) => end(reason),
    });
  }
  let backlog: Awaited<ReturnType<SessionHost['read']>>;
  try {
    backlog = await host.read(connectionId, { principal, afterSeq: options.afterSeq });
  } catch (error) {
    unsubscribe();
    if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
      return { ok: false, reason: 'unknown-connection' };
    throw error;
  }
  if (!backlog.ok) {
    unsubscribe();
    return { ok: false, reason: 'replay-gap' };
  }
  deliver(backlog.entries);
  live = true;
  deliver(held);
  held.length = 0;
  void (session ? keepPresent : poll)(host, connectionId, {
    principal,
    intervalMs: options.pollIntervalMs,
    signal: lifetime.signal,
    after: () => delivered,
    deliver,
    end,
  });
  return { ok: true, follower };
}

interface LoopOptions {
  principal: unknown;
  intervalMs: number;
  signal: AbortSignal;
  after(): number;
  deliver(entries: readonly ReplayEntry[]): void;
  end(reason: DisconnectReason): void;
}

/** A waiting `read` while the follower runs: the session counts it as a reader (no grace timer). */
async function keepPresent(host: SessionHost, connectionId: string, options: LoopOptions) {
  while (!options.signal.aborted) {
    const session = host.session(connectionId);
    if (!session) return;
    try {
      await host.read(connectionId, {
        principal: options.principal,
        afterSeq: session.lastSeq,
        waitMs: options.intervalMs,
        limit: 1,
        signal: options.signal,
      });
    } catch {
      // The session closed: the log subscription reports the end.
      return;
    }
  }
}

/** A session of another node: long polls deliver its messages. */
async function poll(host: SessionHost, connectionId: string, options: LoopOptions) {
  while (!options.signal.aborted) {
    try {
      const read = await host.read(connectionId, {
        principal: options.principal,
        afterSeq: options.after(),
        waitMs: options.intervalMs,
        signal: options.signal,
      });
      if (!read.ok) {
        options.end('reset');
        return;
      }
      options.deliver(read.entries);
    } catch {
      options.end('server-closed');
      return;
    }
  }
}
