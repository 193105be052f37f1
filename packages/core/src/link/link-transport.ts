/**
 * The shell every client transport shares (ARCHITECTURE §2 "Link kit"): `events()`, called once,
 * starts the reconnect loop; status events and server messages go to one event queue; `close()`
 * says goodbye once (every caller waits for the same goodbye) and ends the queue; the transport's
 * own `signal`, and the consumer's, close it; a failure of the loop ends the queue with the error.
 * A binding supplies only how one link runs and how to say goodbye.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import type { TransportEvent } from '../transport/client-transport.js';
import { createEventQueue, type EventQueue } from '../transport/event-queue.js';
import type { Backoff } from './backoff.js';
import { LinkStatus } from './link-status.js';
import { type LinkAttempt, type LinkOutcome, runReconnectLoop } from './reconnect-loop.js';

/** Options of {@link createLinkTransport}. */
export interface LinkTransportOptions {
  /** Names the transport in the error when its loop itself fails ("The REST transport failed: …"). */
  readonly name: string;
  /** Runs one link until it ends (the `connect` of {@link runReconnectLoop}). */
  connect(attempt: LinkAttempt): Promise<LinkOutcome>;
  /** The reconnect schedule (its `maxAttempts` applies). */
  readonly backoff: Backoff;
  /** A link open this long without delivering a message is healthy too. @default 5000 */
  readonly stableAfterMs?: number;
  /** "Reconnect now" signals. @default the browser's `online` and `visibilitychange` events */
  readonly wake?: (listener: () => void) => () => void;
  /**
   * Tells the server the client leaves, when `close()` is called before the transport ended (best
   * effort, bounded by the binding). The transport is already `closed` while it runs.
   */
  goodbye?(): Promise<void>;
  /**
   * The transport stops: reject what waits to be sent with `error` (`CONNECTION_CLOSED`, or the
   * fatal error that ended the loop). May be called more than once.
   */
  onClose(error: A2uiError): void;
  /** Closes the transport when it aborts. */
  readonly signal?: AbortSignal;
}

/** What a binding builds its `ClientTransport` from. */
export interface LinkTransport {
  /** Queues an event for the consumer (server messages, a `reset`); statuses go through {@link status}. */
  push(event: TransportEvent): void;
  /** The status reported to the consumer. */
  readonly status: LinkStatus;
  /** True once `close()` was called or the transport ended: nothing reconnects, nothing new is sent. */
  readonly closed: boolean;
  /** True once `events()` was called (the link was started, or found the transport closed). */
  readonly started: boolean;
  /** Aborts when the transport has ended. */
  readonly signal: AbortSignal;
  /**
   * Runs `send` (it queues a client message) unless the transport is closed; then it rejects with
   * `CONNECTION_CLOSED` ("The transport is closed.") without running it: every `send()`'s guard.
   */
  sendWhileOpen<T>(send: () => Promise<T>): Promise<T>;
  /** The consumer's iteration; starts the link. Called once. */
  events(options?: { signal?: AbortSignal }): AsyncIterable<TransportEvent>;
  /** Says goodbye (once) and ends the transport. */
  close(): Promise<void>;
  /**
   * Ends the transport at once, from the binding's side, without a goodbye: the server closed the
   * connection in the answer to a request rather than on the link. What waits is rejected with
   * `error` (or `CONNECTION_CLOSED` naming `reason`), the status becomes `closed` with `reason`,
   * and the iteration ends (with `error`, when given). Nothing happens once the transport ended.
   */
  end(reason: string, error?: A2uiError): void;
}

const CLOSED_BY_CLIENT = 'Closed by the client.';

/**
 * Creates the shell of a client transport.
 *
 * @param options - the link, the goodbye and what to reject on close; see {@link LinkTransportOptions}
 * @returns the shell: `push`, `status`, `closed`, `signal`, `events()`, `close()`
 *
 * @example
 * ```ts
 * const shell = createLinkTransport({ name: 'WebSocket', connect: runOneLink, backoff,
 *   goodbye: () => sayBye(), onClose: (error) => outbox.close(error), signal: options.signal });
 * return { events: shell.events, close: shell.close, send: (m, meta) => outbox.enqueue({ m, meta }) };
 * ```
 */
export function createLinkTransport(options: LinkTransportOptions): LinkTransport {
  const lifetime = new AbortController();
  let queue: EventQueue<TransportEvent> | undefined;
  const status = new LinkStatus((event) => queue?.push(event));
  let closed = false;
  let started = false;
  let closing: Promise<void> | undefined;

  const finish = (reason: string, error?: A2uiError): void => {
    if (queue?.ended && status.status === 'closed') return;
    closed = true;
    options.onClose(
      error ?? new A2uiError('CONNECTION_CLOSED', `The connection is closed: ${reason}`),
    );
    if (status.status !== 'closed') status.link('closed', reason);
    if (error) queue?.fail(error);
    else queue?.end();
    lifetime.abort();
  };

  const run = async (events: EventQueue<TransportEvent>): Promise<void> => {
    const end = await runReconnectLoop({
      connect: options.connect,
      backoff: options.backoff,
      stableAfterMs: options.stableAfterMs,
      onStatus: (next, reason, attempt) => status.link(next, reason, attempt),
      signal: lifetime.signal,
      wake: options.wake,
    });
    if (end.kind === 'fatal') finish(end.error.message, end.error);
    // After close(), the server's answer to the goodbye is not news.
    else if (!events.ended) finish(closed ? CLOSED_BY_CLIENT : end.reason);
  };

  const sayGoodbye = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    options.onClose(new A2uiError('CONNECTION_CLOSED', 'The transport was closed.'));
    await options.goodbye?.();
    finish(CLOSED_BY_CLIENT);
  };
  const close = (): Promise<void> => {
    closing ??= sayGoodbye();
    return closing;
  };

  if (options.signal) {
    if (options.signal.aborted) closed = true;
    else options.signal.addEventListener('abort', () => void close(), { once: true });
  }

  return {
    push: (event) => queue?.push(event),
    status,
    get closed() {
      return closed;
    },
    get started() {
      return started;
    },
    signal: lifetime.signal,
    sendWhileOpen: (send) =>
      closed
        ? Promise.reject(new A2uiError('CONNECTION_CLOSED', 'The transport is closed.'))
        : send(),
    events({ signal } = {}) {
      if (queue)
        throw new A2uiError('INTERNAL_ERROR', 'events() can be called once per transport.');
      started = true;
      const events = createEventQueue<TransportEvent>();
      queue = events;
      if (closed) {
        status.link('closed', CLOSED_BY_CLIENT);
        events.end();
        return events;
      }
      // The consumer stopping is the end of this transport: nothing else reads its events.
      signal?.addEventListener('abort', () => void close(), { once: true });
      if (signal?.aborted) void close();
      else {
        run(events).catch((error: unknown) => {
          const detail = error instanceof Error ? error.message : String(error);
          finish(
            `The ${options.name} transport failed.`,
            new A2uiError('INTERNAL_ERROR', `The ${options.name} transport failed: ${detail}`, {
              cause: error,
            }),
          );
        });
      }
      return events;
    },
    close,
    end: finish,
  };
}

/**
 * A signal that aborts with `parent` or after `ms` (on the timers fake clocks control, unlike
 * `AbortSignal.timeout`); `clear()` it when the work is done.
 *
 * @example
 * ```ts
 * const deadline = withDeadline(signal, 30_000);
 * try { await fetch(url, { signal: deadline.signal }); } finally { deadline.clear(); }
 * ```
 */
export function withDeadline(
  parent: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, ms);
  parent?.addEventListener('abort', abort, { once: true });
  if (parent?.aborted) abort();
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', abort);
    },
  };
}
