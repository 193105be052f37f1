/**
 * One reader following a connection's stored messages, live (`SessionHost.follow`). The host
 * subscribes it to the connection's replay log before reading the backlog, so it sees every
 * message after its start once, in order; messages wait here until the reader takes them, and a
 * session that ends leaves its last messages readable. Any number of follows of one connection
 * may run at once: each has its own cursor, and none disturbs a link or another reader.
 */
import type { DisconnectReason } from '../agent/agent.js';
import { A2uiError } from '../errors/a2ui-error.js';
import type { SessionSink } from './connection-session.js';
import type { ReplayEntry } from './replay-log.js';

/**
 * A live follow of one connection: an `AsyncIterable` of its stored messages (`seq` order, each
 * once, all after the `afterSeq` it was started with). Iteration ends when the session ends
 * ({@link ended} says why), when the follow is stopped ({@link stop}, or the `signal` given to
 * `follow`), or when the host closes. Created by `SessionHost.follow`.
 *
 * @example
 * ```ts
 * const follow = await host.follow(connectionId, { principal, afterSeq: 0, signal });
 * for await (const entry of follow) write(entry.data);
 * if (follow.ended) console.log('session ended:', follow.ended);
 * ```
 */
export class SessionFollow implements AsyncIterable<ReplayEntry> {
  readonly connectionId: string;
  readonly #maxBufferedBytes: number;
  #onReadable: ((follow: SessionFollow) => void) | undefined;
  #queue: ReplayEntry[] = [];
  #queuedBytes = 0;
  #lastSeq: number;
  #stopped = false;
  /** Until the host hands the follow out, its backlog gathers without telling anyone. */
  #started = false;
  #ended: DisconnectReason | undefined;
  /** Why the reader gets an error instead of messages (too slow; or its own `onReadable` threw). */
  #failure: unknown;
  #wake: (() => void) | undefined;
  #stop: () => void = () => {};

  /** @internal The host creates follows. */
  constructor(
    connectionId: string,
    afterSeq: number,
    options: { maxBufferedBytes: number; onReadable?: (follow: SessionFollow) => void },
  ) {
    this.connectionId = connectionId;
    this.#lastSeq = afterSeq;
    this.#maxBufferedBytes = options.maxBufferedBytes;
    this.#onReadable = options.onReadable;
  }

  /** `seq` of the last message the reader took (the `afterSeq` it started with before any). */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** Why the session ended, once it did (`reset` too when the node running it was lost). */
  get ended(): DisconnectReason | undefined {
    return this.#ended;
  }

  /** False once the follow stopped: nothing more will be added (what waits can still be taken). */
  get live(): boolean {
    return !this.#stopped;
  }

  /**
   * Called synchronously as messages are added and when the follow ends, for a reader that must
   * account for what it holds at once (it may `take()` there); set at any time — with messages
   * waiting, or the follow over, it is called at once. It must not throw: an error stops the follow
   * and reaches its reader. Same as `HostFollowOptions.onReadable`.
   */
  set onReadable(listener: ((follow: SessionFollow) => void) | undefined) {
    this.#onReadable = listener;
    if (listener && (this.#queue.length > 0 || this.#stopped)) this.#notify();
  }

  /**
   * Stops following at once: presence is released and nothing more is added. Messages already
   * waiting can still be taken with {@link take}; iteration ends after them. Idempotent.
   */
  stop(): void {
    this.#stop();
    this.#finish();
  }

  /** Takes every message waiting now (possibly none), without waiting. */
  take(): ReplayEntry[] {
    if (this.#failure !== undefined) throw this.#failure;
    const taken = this.#queue;
    if (taken.length === 0) return taken;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#lastSeq = taken.at(-1)!.seq;
    return taken;
  }

  /**
   * Waits until messages are there and takes them all (one batch, `seq` order), or resolves
   * `undefined` once the follow ended and nothing waits any more.
   * @throws A2uiError `LIMIT_EXCEEDED` when more than `maxBufferedBytes` waited for the reader
   *   (the follow is stopped; start another from {@link lastSeq})
   */
  async next(): Promise<ReplayEntry[] | undefined> {
    for (;;) {
      const taken = this.take();
      if (taken.length > 0) return taken;
      if (this.#stopped) return undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ReplayEntry, void, undefined> {
    try {
      for (let batch = await this.next(); batch; batch = await this.next()) yield* batch;
    } finally {
      // A reader that leaves the loop early is done with the follow.
      this.stop();
    }
  }

  /** @internal What the host's log reader delivers to. */
  readonly sink: SessionSink = {
    deliver: (entry) => {
      if (this.#stopped) return;
      this.#queue.push(entry);
      this.#queuedBytes += entry.data.length;
      if (this.#queuedBytes > this.#maxBufferedBytes) {
        this.#failure = new A2uiError(
          'LIMIT_EXCEEDED',
          `The follower of connection ${this.connectionId} reads too slowly (${this.#queuedBytes} bytes waiting); follow again from seq ${this.#lastSeq}.`,
          { data: { lastSeq: this.#lastSeq, maxBufferedBytes: this.#maxBufferedBytes } },
        );
        this.#queue = [];
        this.#queuedBytes = 0;
        this.stop();
        return;
      }
      this.#notify();
    },
    close: (reason) => {
      this.#ended ??= reason;
      this.stop();
    },
  };

  /** @internal The host's stop of the log reader (and of presence). */
  bindStop(stop: () => void): void {
    this.#stop = stop;
    if (this.#stopped) stop();
  }

  /** @internal Following started: the backlog is there, as one batch for `onReadable`. */
  start(): void {
    this.#started = true;
    if (this.#queue.length > 0 || this.#stopped) this.#notify();
  }

  /** @internal The log reader stopped (whoever stopped it); `reason` when the session ended. */
  finish(reason?: DisconnectReason): void {
    this.#ended ??= reason;
    this.#finish();
  }

  #finish(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#notify();
  }

  #notify(): void {
    if (!this.#started) return;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
    if (!this.#onReadable) return;
    try {
      this.#onReadable(this);
    } catch (error) {
      // Never into the sender's `send`: the reader gets it instead.
      this.#failure ??= error;
      this.stop();
    }
  }
}
