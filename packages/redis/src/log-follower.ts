/**
 * One subscriber of a shared replay log on a node that does not own it. Pub/sub delivers at most
 * once, so the follower keeps a cursor and fills every gap from the log itself: after its channel
 * subscription is confirmed (appends made while it was being set up), when an append skips
 * sequence numbers (a message lost while the subscriber connection was down), and when the
 * subscriber connection comes back. Entries reach the listener in order, each once; a gap that
 * cannot be filled (the entries are gone) ends the subscription with `reset`, so that the link
 * is dropped quietly and its client resumes — and is reset — instead of silently missing them.
 */
import type { DisconnectReason } from '@a2ui-ts/core';
import type { ReplayEntry, ReplayLogListener } from '@a2ui-ts/core/host';
import type { LogChannelMessage } from './log-channel.js';

/** What a read of the shared log found. */
export type SharedRead =
  | { readonly kind: 'entries'; readonly entries: ReplayEntry[]; readonly last: number }
  /** Some of the entries asked for are gone. */
  | { readonly kind: 'gap'; readonly last: number }
  /** The session ended (the log's tombstone). */
  | { readonly kind: 'ended'; readonly reason: DisconnectReason; readonly last: number };

/** How a follower reads the log it follows. */
export interface FollowedLogReader {
  read(afterSeq: number): Promise<SharedRead>;
}

/** A subscription to one log (see the module comment). */
export class LogFollower {
  readonly #reader: FollowedLogReader;
  readonly #listener: ReplayLogListener;
  readonly #onClosed: (follower: LogFollower) => void;
  /** Highest seq handed to the listener; -1 until the start point is known. */
  #cursor = -1;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  /** A catch-up failed (Redis down): retried when the connection is back. */
  #stale = false;

  constructor(
    reader: FollowedLogReader,
    listener: ReplayLogListener,
    onClosed: (follower: LogFollower) => void,
  ) {
    this.#reader = reader;
    this.#listener = listener;
    this.#onClosed = onClosed;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Starts from `baseline` (the log's last seq read before the caller's own first read) once the
   * channel subscription is `confirmed`: whatever was appended in between is read back.
   */
  start(baseline: Promise<number>, confirmed: Promise<void>): void {
    this.#enqueue(async () => {
      try {
        const [last] = await Promise.all([baseline, confirmed]);
        this.#cursor = last;
      } catch {
        // Without a start point nothing can be delivered without risking a gap.
        this.#end('reset');
        return;
      }
      await this.#catchUp();
    });
  }

  /** A message of the log's channel. */
  receive(message: LogChannelMessage): void {
    this.#enqueue(async () => {
      if (message.type === 'end') {
        this.#end(message.reason);
        return;
      }
      const first = message.entries[0]!.seq;
      if (this.#stale || first > this.#cursor + 1) await this.#catchUp();
      if (!this.#closed && !this.#stale) this.#deliver(message.entries);
    });
  }

  /** The subscriber connection is back: read what may have been published meanwhile. */
  resync(): void {
    this.#enqueue(() => this.#catchUp());
  }

  /** Stops (the caller unsubscribed). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClosed(this);
  }

  #enqueue(step: () => Promise<void>): void {
    this.#chain = this.#chain.then(() => (this.#closed ? undefined : step()));
  }

  async #catchUp(): Promise<void> {
    let found: SharedRead;
    try {
      found = await this.#reader.read(this.#cursor);
    } catch {
      this.#stale = true;
      return;
    }
    this.#stale = false;
    if (this.#closed) return;
    if (found.kind === 'gap') this.#end('reset');
    else if (found.kind === 'ended') this.#end(found.reason);
    else this.#deliver(found.entries);
  }

  #deliver(entries: readonly ReplayEntry[]): void {
    const fresh = entries.filter((entry) => entry.seq > this.#cursor);
    if (fresh.length === 0 || this.#closed) return;
    if (fresh[0]!.seq !== this.#cursor + 1) {
      // Only reachable when the log restarted past our cursor (entries lost in Redis).
      this.#end('reset');
      return;
    }
    this.#cursor = fresh.at(-1)!.seq;
    this.#listener.onAppend(fresh);
  }

  #end(reason: Parameters<ReplayLogListener['onEnd']>[0]): void {
    if (this.#closed) return;
    this.close();
    this.#listener.onEnd(reason);
  }
}
