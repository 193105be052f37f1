/**
 * The idempotent outbox of a client transport (ARCHITECTURE §2 "Link kit"): client messages wait
 * here, bounded, until the server acknowledges them. Each keeps the id it was first sent with, so
 * a retry after a lost answer is recognised by the server and delivered once. One batch is in
 * flight at a time (messages reach the agent in order), and a refused or failed delivery is
 * retried only after a real backoff — never at once, whatever the server answers; only the browser
 * coming back online (or to the foreground) cuts the wait short. A message that went out and was
 * never answered is never reported as failed: it may have been applied (`OUTCOME_UNKNOWN`).
 */

import { A2uiError } from '../errors/a2ui-error.js';
import type { TroubleCause } from '../transport/client-transport.js';
import { type Backoff, type BackoffOptions, createBackoff } from './backoff.js';
import { createRequestIdSequence } from './link-options.js';
import { listenForBrowserWake } from './reconnect-loop.js';

/** One queued client message. */
export interface OutboxEntry<T> {
  /** The idempotency key, the same on every attempt. */
  readonly id: string;
  readonly item: T;
  /** The connection it belongs to: set when it was queued on an open connection, or when first sent. */
  readonly connectionId: string | undefined;
  /** It went out before this attempt, without an answer: it may have been applied already. */
  readonly sentBefore: boolean;
}

/** How one delivery attempt of a batch ended. */
export type OutboxDelivery =
  /**
   * The server answered for the batch: entries in `errors` were refused with that error, entries
   * in `retry` were refused for now (a busy agent) and are sent again after a backoff, the rest
   * were delivered.
   */
  | {
      readonly kind: 'answered';
      readonly errors?: ReadonlyMap<string, A2uiError>;
      readonly retry?: {
        readonly ids: ReadonlySet<string>;
        readonly reason: string;
        readonly retryAfterMs?: number;
        /** What the server said, when it said why. */
        readonly cause?: TroubleCause;
      };
    }
  /**
   * Nothing is known to have arrived (network error, timeout) or the server refused for now (5xx,
   * 408, 429, a busy agent): the same entries are sent again, with the same ids, after a backoff.
   */
  | {
      readonly kind: 'retry';
      readonly reason: string;
      readonly retryAfterMs?: number;
      /** What the server said, when it refused and said why. */
      readonly cause?: TroubleCause;
      /**
       * This attempt is known not to have reached the agent (the connection was refused, or the
       * server refused before reading it): it does not count as sent, so a message whose every
       * attempt was refused is rejected with `CONNECTION_CLOSED` on a reset, never
       * `OUTCOME_UNKNOWN`.
       */
      readonly unsent?: boolean;
    }
  /** The batch was too large for the server: it is sent again one message per request. */
  | { readonly kind: 'split' };

/** Why deliveries are failing, for the transport's status. */
export interface OutboxTrouble {
  readonly reason: string;
  /** When the next attempt is made. */
  readonly retryInMs: number;
  /** Failed attempts in a row. */
  readonly attempt: number;
  /** Messages waiting. */
  readonly pending: number;
  /** What the server said, when it refused and said why. */
  readonly cause?: TroubleCause;
}

/** Options of {@link Outbox}. */
export interface OutboxOptions<T> {
  /** Sends `batch` (all of one connection) once and says how it went; must not throw. */
  deliver(
    batch: readonly OutboxEntry<T>[],
    context: { readonly connectionId: string; readonly signal: AbortSignal },
  ): Promise<OutboxDelivery>;
  /** Most messages waiting; `enqueue` throws `LIMIT_EXCEEDED` beyond. @default 1000 */
  maxQueuedMessages?: number;
  /** Most messages in one delivery. @default 100 */
  maxBatchLength?: number;
  /** Creates the idempotency keys. @default a random prefix per outbox + a counter */
  createId?: () => string;
  /** Redelivery backoff (defaults: `RECONNECT_DEFAULTS`); `maxAttempts` does not apply. */
  backoff?: BackoffOptions;
  /**
   * Told when deliveries start failing (with why and when the next try is) and when they recover
   * (`undefined`): a delivery went through, or no message waits any more (they were answered,
   * aborted, or dropped with their session).
   */
  onTrouble?(trouble: OutboxTrouble | undefined): void;
  /**
   * Subscribes to "retry now" signals while a redelivery waits out its backoff; returns the
   * unsubscribe function. The network coming back says nothing about the server, so this is the
   * one thing that cuts a backoff short.
   * @default the browser's `online` and `visibilitychange` events, where they exist
   */
  wake?: (listener: () => void) => () => void;
  /**
   * Messages that overtake the queue: they go in a lane of their own, never behind a delivery in
   * flight. For v1.0 `rendererFunctionResponse` (see `isOvertakingMessage`): the agent's hook that
   * waits for it holds the connection's turn, so a message queued after that turn — whose delivery
   * waits for its own turn — would otherwise wait for an answer queued behind it. Such messages are
   * answers the server never queues, so their order against the others does not matter.
   * @default none overtake
   */
  overtakes?: (item: T) => boolean;
}

/** Defaults of {@link OutboxOptions}. */
export const OUTBOX_DEFAULTS = { maxQueuedMessages: 1_000, maxBatchLength: 100 } as const;

interface Pending<T> {
  entry: { id: string; item: T; connectionId: string | undefined; sentBefore: boolean };
  inFlight: boolean;
  /** It went out at least once: it may have been applied, whatever happens to it later. */
  sent: boolean;
  settled: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The outbox. `enqueue` resolves once the server acknowledged the message; the transport says
 * when a connection is open with {@link setConnection}.
 *
 * @example
 * ```ts
 * const outbox = new Outbox<ClientMessage>({ deliver: (batch, { connectionId, signal }) => post(batch, connectionId, signal) });
 * outbox.setConnection(connectionId); // the link is open
 * await outbox.enqueue(message);      // delivered exactly once
 * ```
 */
export class Outbox<T> {
  readonly #options: OutboxOptions<T>;
  readonly #backoff: Backoff;
  readonly #maxQueued: number;
  readonly #maxBatch: number;
  readonly #createId: () => string;
  readonly #lifetime = new AbortController();
  #queue: Pending<T>[] = [];
  #connectionId: string | undefined;
  /** False while the link is down: messages wait, still bound to the connection. */
  #ready = false;
  #inFlight = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #unwake: (() => void) | undefined;
  #splitNext = false;
  #failing = false;
  #closed = false;
  #attempts = 0;
  /** The lane of overtaking messages, an outbox of its own. */
  readonly #lane: Outbox<T> | undefined;

  constructor(options: OutboxOptions<T>) {
    this.#options = options;
    const { overtakes, ...laneOptions } = options;
    this.#lane = overtakes && new Outbox<T>(laneOptions);
    this.#backoff = createBackoff({ ...options.backoff, maxAttempts: Number.POSITIVE_INFINITY });
    this.#maxQueued = options.maxQueuedMessages ?? OUTBOX_DEFAULTS.maxQueuedMessages;
    this.#maxBatch = Math.max(1, options.maxBatchLength ?? OUTBOX_DEFAULTS.maxBatchLength);
    this.#createId = options.createId ?? createRequestIdSequence();
  }

  /** Messages not yet acknowledged. */
  get pending(): number {
    return this.#queue.length + (this.#lane?.pending ?? 0);
  }

  /** True while deliveries fail and a retry is scheduled. */
  get failing(): boolean {
    return this.#failing || (this.#lane?.failing ?? false);
  }

  /** Delivery attempts made so far (for tests and diagnostics). */
  get attempts(): number {
    return this.#attempts + (this.#lane?.attempts ?? 0);
  }

  /**
   * Queues `item`; resolves when the server acknowledged it.
   * @throws A2uiError `LIMIT_EXCEEDED` (queue full), `CONNECTION_CLOSED` (closed, or the connection
   *   was reset before it could be delivered), `ABORTED` (`signal`), or the server's refusal
   */
  enqueue(item: T, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#lane && this.#options.overtakes?.(item)) return this.#lane.enqueue(item, options);
    if (this.#closed)
      return Promise.reject(new A2uiError('CONNECTION_CLOSED', 'The transport is closed.'));
    if (options.signal?.aborted)
      return Promise.reject(new A2uiError('ABORTED', 'The send was aborted.'));
    if (this.#queue.length >= this.#maxQueued) {
      return Promise.reject(
        new A2uiError(
          'LIMIT_EXCEEDED',
          `${this.#maxQueued} client messages are already waiting for delivery.`,
          { data: { maxQueuedMessages: this.#maxQueued } },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const pending: Pending<T> = {
        entry: { id: this.#createId(), item, connectionId: this.#connectionId, sentBefore: false },
        inFlight: false,
        sent: false,
        settled: false,
        resolve,
        reject,
      };
      this.#queue.push(pending);
      options.signal?.addEventListener(
        'abort',
        () => {
          const error = new A2uiError('ABORTED', 'The send was aborted.');
          // Once on the wire it may have arrived: it stays queued until answered; only the caller stops waiting.
          if (pending.inFlight) pending.reject(error);
          else this.#settle(pending, error);
        },
        { once: true },
      );
      this.#pump();
    });
  }

  /**
   * The link is open on `connectionId`: deliveries may go. Messages bound to another connection
   * are rejected with `CONNECTION_CLOSED`: their surfaces are gone.
   */
  setConnection(connectionId: string): void {
    if (this.#closed) return;
    this.#lane?.setConnection(connectionId);
    const changed = connectionId !== this.#connectionId;
    const previous = this.#connectionId;
    this.#connectionId = connectionId;
    this.#ready = true;
    if (changed && previous !== undefined) this.#rejectBoundTo(previous);
    // A new connection is worth trying at once; a resumed one keeps its backoff.
    if (changed) this.#cancelRetry();
    this.#pump();
  }

  /**
   * The link is down: messages wait. Those sent now still belong to the connection the link
   * will resume.
   */
  pause(): void {
    this.#lane?.pause();
    this.#ready = false;
  }

  /**
   * The connection was replaced (reset): messages bound to it and not on the wire are rejected;
   * the others wait for the next connection.
   */
  reset(): void {
    this.#lane?.reset();
    const previous = this.#connectionId;
    this.#connectionId = undefined;
    this.#ready = false;
    if (previous !== undefined) this.#rejectBoundTo(previous);
  }

  /**
   * Stops. Messages never sent are rejected with `error`; those sent before and not answered
   * with `OUTCOME_UNKNOWN`; the batch on the wire is aborted and settles with what its delivery
   * returns (an answer that came, else `OUTCOME_UNKNOWN`).
   */
  close(error: unknown = new A2uiError('CONNECTION_CLOSED', 'The transport was closed.')): void {
    if (this.#closed) return;
    this.#lane?.close(error);
    this.#closed = true;
    this.#cancelRetry();
    this.#lifetime.abort();
    for (const pending of [...this.#queue]) if (!pending.inFlight) this.#drop(pending, error);
  }

  #rejectBoundTo(connectionId: string): void {
    for (const pending of [...this.#queue])
      if (pending.entry.connectionId === connectionId && !pending.inFlight)
        this.#drop(pending, resetError());
  }

  /** Gives up on `pending`: `error` if it never went out, else its outcome is unknown. */
  #drop(pending: Pending<T>, error: unknown): void {
    this.#settle(pending, pending.sent ? outcomeUnknown(pending.entry.id) : error);
  }

  #settle(pending: Pending<T>, error?: unknown): void {
    if (pending.settled) return;
    pending.settled = true;
    const index = this.#queue.indexOf(pending);
    if (index >= 0) this.#queue.splice(index, 1);
    if (error === undefined) pending.resolve();
    else pending.reject(error);
    // Nothing waits any more (answered, aborted, or dropped with a reset): no trouble to report.
    if (this.#queue.length === 0 && this.#failing && !this.#closed) {
      this.#cancelRetry();
      this.#failing = false;
      this.#options.onTrouble?.(undefined);
    }
  }

  #cancelRetry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#unwake?.();
    this.#unwake = undefined;
  }

  #pump(): void {
    const connectionId = this.#connectionId;
    if (
      this.#closed ||
      this.#inFlight ||
      this.#retryTimer !== undefined ||
      !this.#ready ||
      connectionId === undefined ||
      this.#queue.length === 0
    )
      return;
    const limit = this.#splitNext ? 1 : this.#maxBatch;
    const batch: Pending<T>[] = [];
    for (const pending of [...this.#queue]) {
      if (batch.length >= limit) break;
      pending.entry.connectionId ??= connectionId;
      if (pending.entry.connectionId !== connectionId) {
        this.#drop(pending, resetError());
        continue;
      }
      batch.push(pending);
    }
    if (batch.length === 0) return;
    this.#inFlight = true;
    this.#attempts++;
    for (const pending of batch) {
      pending.inFlight = true;
      pending.entry.sentBefore = pending.sent;
      pending.sent = true;
    }
    const entries = batch.map((pending) => pending.entry as OutboxEntry<T>);
    void this.#options
      .deliver(entries, { connectionId, signal: this.#lifetime.signal })
      .catch(
        (error: unknown): OutboxDelivery => ({
          kind: 'retry',
          reason: error instanceof Error ? error.message : String(error),
        }),
      )
      .then((delivery) => {
        this.#inFlight = false;
        for (const pending of batch) pending.inFlight = false;
        if (this.#closed) {
          this.#settleAfterClose(batch, delivery);
          return;
        }
        this.#handle(batch, delivery);
        this.#pump();
      });
  }

  #handle(batch: readonly Pending<T>[], delivery: OutboxDelivery): void {
    if (delivery.kind === 'split') {
      this.#splitNext = true;
      return;
    }
    if (delivery.kind === 'retry') {
      if (delivery.unsent) for (const pending of batch) pending.sent = pending.entry.sentBefore;
      this.#scheduleRetry(delivery.reason, delivery.retryAfterMs, delivery.cause);
      return;
    }
    this.#splitNext = false;
    const retry = delivery.retry;
    for (const pending of batch) {
      if (retry?.ids.has(pending.entry.id)) continue;
      this.#settle(pending, delivery.errors?.get(pending.entry.id));
    }
    if (retry && retry.ids.size > 0) {
      this.#scheduleRetry(retry.reason, retry.retryAfterMs, retry.cause);
      return;
    }
    this.#backoff.succeed();
    if (this.#failing) {
      this.#failing = false;
      this.#options.onTrouble?.(undefined);
    }
  }

  /** The batch that was on the wire at close: its answer if one came, else it may have arrived. */
  #settleAfterClose(batch: readonly Pending<T>[], delivery: OutboxDelivery): void {
    for (const pending of batch) {
      const answered = delivery.kind === 'answered' && !delivery.retry?.ids.has(pending.entry.id);
      if (answered) this.#settle(pending, delivery.errors?.get(pending.entry.id));
      else this.#settle(pending, outcomeUnknown(pending.entry.id));
    }
  }

  #scheduleRetry(
    reason: string,
    retryAfterMs: number | undefined,
    cause: TroubleCause | undefined,
  ): void {
    const retryInMs = this.#backoff.fail(retryAfterMs);
    this.#failing = true;
    const retry = () => {
      this.#cancelRetry();
      this.#pump();
    };
    this.#retryTimer = setTimeout(retry, retryInMs);
    this.#unwake = (this.#options.wake ?? listenForBrowserWake)(retry);
    this.#options.onTrouble?.({
      reason,
      retryInMs,
      attempt: this.#backoff.attempt,
      pending: this.#queue.length,
      ...(cause ? { cause } : {}),
    });
  }
}

const resetError = () =>
  new A2uiError(
    'CONNECTION_CLOSED',
    'The session was reset before this message could be delivered; its surfaces are gone.',
  );

/** A message that went out and was never answered: it may or may not have been applied. */
export function outcomeUnknown(requestId: string, data: Record<string, unknown> = {}): A2uiError {
  return new A2uiError(
    'OUTCOME_UNKNOWN',
    'The message was sent but its answer never came: it may or may not have been applied.',
    { data: { requestId, ...data } },
  );
}
