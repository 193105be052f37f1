/**
 * The client connector (ARCHITECTURE §4 "SSE + JSON-RPC"): a `ClientTransport` reading the event
 * stream with `fetch` (so `Authorization` headers work) and `eventsource-parser`, resuming with
 * `Last-Event-ID` after any drop, and sending client messages as JSON-RPC calls retried with the
 * same id until the server acknowledges them. Reconnects, sequence checks, the outbox and the
 * status are core's link kit; this file holds only the link and the codec.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  createBackoff,
  createConnectionId,
  createEventQueue,
  type EventQueue,
  type LinkAttempt,
  type LinkOutcome,
  LinkStatus,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  parseRetryAfter,
  RECONNECT_DEFAULTS,
  type ReconnectOptions,
  runReconnectLoop,
  type SendOptions,
  SequenceTracker,
  type TransportEvent,
} from '@a2ui-ts/core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { fromRpcError, RPC_ERRORS } from '../protocol/json-rpc-errors.js';
import {
  type ConnectedEventData,
  type JsonRpcResponse,
  type ReasonEventData,
  RPC_METHODS,
  RPC_PATH,
  type RpcAcceptedResult,
  SSE_EVENTS,
  SSE_PATH,
  SSE_QUERY,
} from '../protocol/wire.js';

/** Options of {@link connectSseJsonRpc}. Durations in milliseconds, sizes in bytes. */
export interface SseJsonRpcClientOptions {
  /** Base URL the server is mounted at; the client uses `{url}/sse` and `{url}/rpc`. */
  url: string | URL;
  /**
   * Headers of every request (e.g. `Authorization`). A function is called before each request,
   * so a refreshed token is picked up on reconnect.
   * @default none
   */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** `credentials` of every request (cookies in browsers). @default the runtime's default ('same-origin') */
  credentials?: RequestCredentials;
  /** Closes the transport when it aborts. */
  signal?: AbortSignal;
  /**
   * A link that delivers no byte (no event, no `: ping`) for this long is considered dead and
   * reconnected. Keep it above twice the server's `keepAliveIntervalMs`; 0 disables it.
   * @default 45000
   */
  heartbeatTimeoutMs?: number;
  /** Reconnect and redelivery policy (exponential backoff with jitter). */
  reconnect?: ReconnectOptions;
  /** Uniform random numbers in [0, 1) for the jitter; seed it in tests. @default Math.random */
  random?: () => number;
  /** Deadline of one `POST /rpc` attempt; a timed-out call is retried with the same id. @default 30000 */
  requestTimeoutMs?: number;
  /** Most queued messages sent in one JSON-RPC batch (keep it ≤ the server's `maxBatchLength`). @default 100 */
  maxBatchLength?: number;
  /** Most client messages waiting for delivery; `send` throws `LIMIT_EXCEEDED` beyond. @default 1000 */
  maxQueuedMessages?: number;
  /** Largest event accepted from the server, in characters; a larger one drops the link. @default 4194304 */
  maxEventChars?: number;
  /** Creates JSON-RPC ids, which are also the idempotency keys. @default a random prefix + a counter */
  createRequestId?: () => string;
  /**
   * Subscribes to "reconnect now" signals while waiting to reconnect.
   * @default the browser's `online` and `visibilitychange` events, where they exist
   */
  wake?: (listener: () => void) => () => void;
}

/** The transport returned by {@link connectSseJsonRpc}. */
export interface SseJsonRpcTransport extends ClientTransport {
  /** The current connection id (after the `connected` event). */
  readonly connectionId: string | undefined;
  /** Sequence number of the last A2UI message received (sent as `Last-Event-ID` on resume). */
  readonly lastEventId: number;
  readonly status: ConnectionStatus;
  /** Client messages not yet acknowledged by the server. */
  readonly pendingMessages: number;
}

/** Defaults of {@link SseJsonRpcClientOptions}, in one place. */
export const SSE_JSON_RPC_CLIENT_DEFAULTS = {
  heartbeatTimeoutMs: 45_000,
  requestTimeoutMs: 30_000,
  maxBatchLength: 100,
  maxQueuedMessages: 1_000,
  maxEventChars: 4_194_304,
  /** How long `close()` waits for the server to acknowledge `a2ui.disconnect`. */
  closeTimeoutMs: 2_000,
} as const;

type Outgoing = { method: string; params: Record<string, unknown> };

/** Statuses a retry can fix: the server is overloaded, restarting, or the request timed out. */
const isRetryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * Connects to an SSE + JSON-RPC server. The link opens when `A2uiClient` calls `events()`;
 * `send` may be called before, and waits for the connection.
 *
 * @param options - see {@link SseJsonRpcClientOptions}
 * @returns a `ClientTransport` with `connectionId`, `lastEventId`, `status` and `pendingMessages`
 *
 * @example
 * ```ts
 * const client = new A2uiClient({
 *   transport: connectSseJsonRpc({ url: 'https://example.com/a2ui', headers: { Authorization: `Bearer ${token}` } }),
 * });
 * client.connect();
 * ```
 */
export function connectSseJsonRpc(options: SseJsonRpcClientOptions): SseJsonRpcTransport {
  const defaults = SSE_JSON_RPC_CLIENT_DEFAULTS;
  const base = String(options.url).replace(/\/+$/, '');
  const sseUrl = `${base}${SSE_PATH}`;
  const rpcUrl = `${base}${RPC_PATH}`;
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? defaults.heartbeatTimeoutMs;
  const reconnect = { ...RECONNECT_DEFAULTS, ...options.reconnect };
  const random = options.random ?? Math.random;
  const requestTimeoutMs = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
  const maxEventChars = options.maxEventChars ?? defaults.maxEventChars;
  // Ids must not repeat within a connection's de-duplication window: a random prefix per transport.
  const requestIdPrefix = createConnectionId();
  let requestCounter = 0;
  const createRequestId =
    options.createRequestId ?? (() => `${requestIdPrefix}-${++requestCounter}`);

  const lifetime = new AbortController();
  let queue: EventQueue<TransportEvent> | undefined;
  const status = new LinkStatus((event) => queue?.push(event));
  const sequence = new SequenceTracker();
  const backoff = createBackoff({ ...reconnect, random });
  let connectionId: string | undefined;
  let closed = false;
  /** Sends waiting for the messages of their turn to be applied: released on apply, reset or close. */
  const turnWaiters = new Set<() => void>();
  const releaseTurnWaiters = () => {
    for (const waiter of [...turnWaiters]) waiter();
  };
  /** Resolves once the message `seq` of `target` was applied, or `target` is no longer the connection. */
  const appliedThrough = (target: string, seq: number): Promise<void> =>
    new Promise((resolve) => {
      const check = () => {
        if (closed || connectionId !== target || sequence.last >= seq) {
          turnWaiters.delete(check);
          resolve();
        }
      };
      turnWaiters.add(check);
      check();
    });

  const resolveHeaders = async (): Promise<Headers> => {
    const init = typeof options.headers === 'function' ? await options.headers() : options.headers;
    return new Headers(init);
  };

  // ---- Client → server: JSON-RPC calls from the outbox ---------------------------------------

  const outbox = new Outbox<Outgoing>({
    maxQueuedMessages: options.maxQueuedMessages ?? defaults.maxQueuedMessages,
    maxBatchLength: options.maxBatchLength ?? defaults.maxBatchLength,
    createId: createRequestId,
    backoff: { ...reconnect, random },
    onTrouble: (trouble) => status.trouble(trouble),
    deliver: (batch, context) => post(batch, context.connectionId, context.signal),
  });

  const post = async (
    batch: readonly OutboxEntry<Outgoing>[],
    target: string,
    signal: AbortSignal,
  ): Promise<OutboxDelivery> => {
    const requests = batch.map((entry) => ({
      jsonrpc: '2.0',
      id: entry.id,
      method: entry.item.method,
      params: { connectionId: target, ...entry.item.params },
    }));
    const deadline = withDeadline(signal, requestTimeoutMs);
    let response: Response;
    let text: string;
    try {
      const headers = await resolveHeaders();
      headers.set('Content-Type', 'application/json');
      response = await doFetch(rpcUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify(requests.length === 1 ? requests[0] : requests),
        signal: deadline.signal,
        credentials: options.credentials,
      });
      text = await response.text();
    } catch (error) {
      // Not known whether the server got it: retry with the same ids, which it de-duplicates.
      return { kind: 'retry', reason: `POST ${RPC_PATH} failed: ${describe(error)}` };
    } finally {
      deadline.clear();
    }
    const answers = parseJson<JsonRpcResponse | JsonRpcResponse[]>(text);
    const byId = new Map<unknown, JsonRpcResponse>();
    for (const answer of Array.isArray(answers) ? answers : answers ? [answers] : [])
      byId.set(answer.id, answer);
    if (isRetryableStatus(response.status) && !hasBusyAnswers(byId)) {
      return {
        kind: 'retry',
        reason: `POST ${RPC_PATH} answered HTTP ${response.status}`,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      };
    }
    if (response.status === 413 && batch.length > 1) return { kind: 'split' };
    if (response.status === 204) return { kind: 'answered' };
    const errors = new Map<string, A2uiError>();
    if (!response.ok && !hasBusyAnswers(byId)) {
      const error =
        answers && !Array.isArray(answers) && 'error' in answers
          ? fromRpcError(answers.error, { httpStatus: response.status })
          : new A2uiError(
              Object.values(RPC_ERRORS).find((row) => row.httpStatus === response.status)
                ?.a2uiCode ?? 'TRANSPORT_ERROR',
              `POST ${RPC_PATH} answered HTTP ${response.status}.`,
            );
      for (const entry of batch) errors.set(entry.id, error);
      return { kind: 'answered', errors };
    }
    const busy = new Set<string>();
    let busyRetryAfterMs: number | undefined;
    let turnEndSeq = 0;
    for (const entry of batch) {
      const answer = byId.get(entry.id);
      if (!answer)
        errors.set(
          entry.id,
          new A2uiError('TRANSPORT_ERROR', `The server did not answer request ${entry.id}.`),
        );
      else if ('error' in answer) {
        if (answer.error.code === RPC_ERRORS.SERVER_BUSY.code) {
          // The agent is busy: the same request, with the same id, after a backoff.
          busy.add(entry.id);
          const hint = (answer.error.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
          if (typeof hint === 'number') busyRetryAfterMs = Math.max(busyRetryAfterMs ?? 0, hint);
        } else errors.set(entry.id, fromRpcError(answer.error, { httpStatus: response.status }));
      } else {
        const turn = (answer.result as RpcAcceptedResult | undefined)?.turn;
        if (turn && Number.isSafeInteger(turn.endSeq))
          turnEndSeq = Math.max(turnEndSeq, turn.endSeq);
      }
    }
    // Turn results: `send` settles once the agent's answer is applied, not merely accepted.
    if (turnEndSeq > 0) await appliedThrough(target, turnEndSeq);
    return {
      kind: 'answered',
      errors,
      ...(busy.size > 0
        ? { retry: { ids: busy, reason: 'the agent is busy', retryAfterMs: busyRetryAfterMs } }
        : {}),
    };
  };

  // ---- Server → client: the event stream ------------------------------------------------------

  const runLink = async (attempt: LinkAttempt): Promise<LinkOutcome> => {
    const link = new AbortController();
    const stopLink = () => link.abort();
    attempt.signal.addEventListener('abort', stopLink, { once: true });
    let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
    let heartbeatExpired = false;
    let lastActivity = Date.now();
    let closeReason: string | undefined;
    let protocolError: string | undefined;
    // The heartbeat also covers a server that accepts the connection but never answers.
    if (heartbeatTimeoutMs > 0) {
      const check = () => {
        const idle = Date.now() - lastActivity;
        if (idle >= heartbeatTimeoutMs) {
          heartbeatExpired = true;
          link.abort();
        } else heartbeatTimer = setTimeout(check, heartbeatTimeoutMs - idle);
      };
      heartbeatTimer = setTimeout(check, heartbeatTimeoutMs);
    }
    const heartbeatReason = `No data for ${heartbeatTimeoutMs} ms (heartbeat timeout).`;
    const dropped = (reason: string, retryAfterMs?: number): LinkOutcome =>
      closed
        ? { kind: 'closed', reason: 'Closed by the client.' }
        : { kind: 'dropped', reason, retryAfterMs };
    try {
      let response: Response;
      try {
        const headers = await resolveHeaders();
        headers.set('Accept', 'text/event-stream');
        let url = sseUrl;
        if (connectionId !== undefined) {
          url += `?${SSE_QUERY.connectionId}=${encodeURIComponent(connectionId)}`;
          headers.set('Last-Event-ID', String(sequence.last));
        }
        response = await doFetch(url, {
          headers,
          signal: link.signal,
          cache: 'no-store',
          credentials: options.credentials,
        });
      } catch (error) {
        return dropped(
          heartbeatExpired ? heartbeatReason : `Could not connect: ${describe(error)}`,
        );
      }
      if (!response.ok || !response.body) {
        const detail = await readErrorMessage(response);
        const message = `GET ${SSE_PATH} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
        if (isRetryableStatus(response.status))
          return dropped(message, parseRetryAfter(response.headers.get('retry-after')));
        const code =
          response.status === 401
            ? 'UNAUTHORIZED'
            : response.status === 403
              ? 'FORBIDDEN'
              : 'TRANSPORT_ERROR';
        return {
          kind: 'fatal',
          error: new A2uiError(code, message, { data: { httpStatus: response.status } }),
        };
      }
      const contentType = response.headers.get('content-type') ?? '';
      if (!contentType.startsWith('text/event-stream')) {
        await response.body.cancel().catch(() => {});
        return {
          kind: 'fatal',
          error: new A2uiError(
            'TRANSPORT_ERROR',
            `GET ${SSE_PATH} answered ${contentType || 'no content type'}, not text/event-stream.`,
          ),
        };
      }
      const parser = createParser({
        maxBufferSize: maxEventChars,
        onRetry: (ms) => backoff.setRetryHint(ms),
        onError: (error) => {
          // Unknown fields and bad `retry:` values are ignored, as an EventSource does.
          if (error.type === 'max-buffer-size-exceeded')
            protocolError = `An event is larger than ${maxEventChars} characters.`;
        },
        onEvent: (event) => {
          if (closeReason !== undefined || protocolError !== undefined) return;
          const problem = handleEvent(event, attempt);
          if (problem?.close !== undefined) closeReason = problem.close;
          if (problem?.error !== undefined) protocolError = problem.error;
        },
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      try {
        while (true) {
          const { done, value } = await reader.read();
          lastActivity = Date.now();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
          if (closeReason !== undefined || protocolError !== undefined) break;
        }
      } catch (error) {
        return dropped(heartbeatExpired ? heartbeatReason : `The link dropped: ${describe(error)}`);
      } finally {
        reader.cancel().catch(() => {});
      }
      if (closeReason !== undefined) return { kind: 'closed', reason: closeReason };
      return dropped(protocolError ?? 'The server ended the stream.');
    } finally {
      clearTimeout(heartbeatTimer);
      attempt.signal.removeEventListener('abort', stopLink);
      link.abort();
      // While the link is down, client messages wait (the server is probably unreachable too).
      outbox.pause();
    }
  };

  /** Applies one SSE event; returns why the link must end, if it must. */
  const handleEvent = (
    event: EventSourceMessage,
    attempt: LinkAttempt,
  ): { close?: string; error?: string } | undefined => {
    switch (event.event) {
      case undefined:
      case 'message': {
        const seq = event.id === undefined ? Number.NaN : Number(event.id);
        if (Number.isSafeInteger(seq)) {
          const verdict = sequence.accept(seq);
          // A replayed event already applied is dropped, so nothing is applied twice.
          if (verdict === 'duplicate') return undefined;
          // Something between us and the server lost events: resume from the last one applied.
          if (verdict === 'gap')
            return {
              error: `Event ${seq} arrived after event ${sequence.last}; resuming to fetch the missing ones.`,
            };
        }
        attempt.delivered();
        queue?.push({ type: 'messages', messages: event.data });
        if (turnWaiters.size > 0) releaseTurnWaiters();
        return undefined;
      }
      case SSE_EVENTS.connected: {
        const data = parseJson<ConnectedEventData>(event.data);
        if (!data || typeof data.connectionId !== 'string')
          return { error: 'The connected event has no connectionId.' };
        if (!data.resumed && connectionId !== undefined && data.connectionId !== connectionId)
          resetSession('The server started a new session.');
        if (!data.resumed) sequence.reset();
        connectionId = data.connectionId;
        outbox.setConnection(connectionId);
        attempt.opened(
          data.resumed ? `Resumed; ${data.replayed} missed events replayed.` : undefined,
        );
        return undefined;
      }
      case SSE_EVENTS.reset: {
        const data = parseJson<ReasonEventData>(event.data);
        resetSession(
          data?.reason === 'replay-gap'
            ? 'The events missed while the link was down are no longer buffered.'
            : data?.reason === 'owner-lost'
              ? 'The server node that held this session is gone.'
              : 'The server no longer knows this connection (expired or restarted).',
        );
        return undefined;
      }
      case SSE_EVENTS.close: {
        const data = parseJson<ReasonEventData>(event.data);
        return { close: `The server closed the connection (${data?.reason ?? 'unknown reason'}).` };
      }
      default:
        return undefined;
    }
  };

  const resetSession = (reason: string): void => {
    connectionId = undefined;
    sequence.reset();
    outbox.reset();
    releaseTurnWaiters();
    queue?.push({ type: 'reset', reason });
  };

  const run = async (events: EventQueue<TransportEvent>): Promise<void> => {
    const end = await runReconnectLoop({
      connect: runLink,
      backoff,
      stableAfterMs: reconnect.stableAfterMs,
      onStatus: (next, reason, attempt) => status.link(next, reason, attempt),
      signal: lifetime.signal,
      wake: options.wake,
    });
    if (end.kind === 'fatal') finish(end.error.message, end.error);
    // After close(), the server's `close` event answering the goodbye is not news.
    else if (!events.ended) finish(closed ? 'Closed by the client.' : end.reason);
  };

  const finish = (reason: string, error?: A2uiError): void => {
    if (queue?.ended && status.status === 'closed') return;
    closed = true;
    outbox.close(
      error ?? new A2uiError('CONNECTION_CLOSED', `The connection is closed: ${reason}`),
    );
    if (status.status !== 'closed') status.link('closed', reason);
    if (error) queue?.fail(error);
    else queue?.end();
    lifetime.abort();
  };

  // ---- The transport ------------------------------------------------------------------------

  let closing: Promise<void> | undefined;
  /** Every caller of `close()` waits for the same goodbye. */
  const close = (): Promise<void> => {
    closing ??= sayGoodbye();
    return closing;
  };

  const sayGoodbye = async (): Promise<void> => {
    if (closed) return;
    const id = connectionId;
    const wasOpen = status.status === 'open' || status.status === 'degraded';
    // From here on nothing reconnects and nothing new is sent; the link stays up until the
    // server has the goodbye, so a dropped link does not start the grace period first.
    closed = true;
    releaseTurnWaiters();
    outbox.close(new A2uiError('CONNECTION_CLOSED', 'The transport was closed.'));
    if (id !== undefined && wasOpen) await sendDisconnect(id);
    finish('Closed by the client.');
  };

  /** Tells the server, so the agent sees `client-closed` at once; retried on network failure until the deadline. */
  const sendDisconnect = async (id: string): Promise<void> => {
    const deadline = withDeadline(undefined, defaults.closeTimeoutMs);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: createRequestId(),
      method: RPC_METHODS.disconnect,
      params: { connectionId: id },
    });
    // A pooled connection may have died with a dropped link, hence more than one attempt.
    try {
      for (let attempt = 1; attempt <= 3 && !deadline.signal.aborted; attempt++) {
        try {
          const headers = await resolveHeaders();
          headers.set('Content-Type', 'application/json');
          const response = await doFetch(rpcUrl, {
            method: 'POST',
            headers,
            body,
            signal: deadline.signal,
            credentials: options.credentials,
          });
          await response.body?.cancel();
          return;
        } catch {
          // Unreachable server: after the last attempt the session ends with its grace period.
        }
      }
    } finally {
      deadline.clear();
    }
  };

  if (options.signal) {
    if (options.signal.aborted) closed = true;
    else options.signal.addEventListener('abort', () => void close(), { once: true });
  }

  return {
    get connectionId() {
      return connectionId;
    },
    get lastEventId() {
      return sequence.last;
    },
    get status() {
      return status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    events({ signal } = {}) {
      if (queue)
        throw new A2uiError('INTERNAL_ERROR', 'events() can be called once per transport.');
      const events = createEventQueue<TransportEvent>();
      queue = events;
      if (closed) {
        status.link('closed', 'Closed by the client.');
        events.end();
        return events;
      }
      // The consumer stopping is the end of this transport: nothing else reads its events.
      signal?.addEventListener('abort', () => void close(), { once: true });
      if (signal?.aborted) void close();
      else {
        run(events).catch((error: unknown) => {
          finish(
            'The transport failed.',
            new A2uiError(
              'INTERNAL_ERROR',
              `The SSE + JSON-RPC transport failed: ${describe(error)}`,
              {
                cause: error,
              },
            ),
          );
        });
      }
      return events;
    },
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      if (closed)
        return Promise.reject(new A2uiError('CONNECTION_CLOSED', 'The transport is closed.'));
      const isAction = 'action' in message;
      const params: Record<string, unknown> = isAction
        ? { action: message.action }
        : { error: message.error };
      if (metadata !== undefined) params.metadata = metadata;
      return outbox.enqueue(
        { method: isAction ? RPC_METHODS.action : RPC_METHODS.error, params },
        sendOptions,
      );
    },
    close,
  };
}

/** A signal that aborts with `parent` or after `ms` (on the timers fake clocks control); `clear()` it. */
function withDeadline(
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

/** True when the answers include the busy refusal (retried per request, not per call). */
function hasBusyAnswers(answers: ReadonlyMap<unknown, JsonRpcResponse>): boolean {
  for (const answer of answers.values())
    if ('error' in answer && answer.error.code === RPC_ERRORS.SERVER_BUSY.code) return true;
  return false;
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

async function readErrorMessage(response: Response): Promise<string | undefined> {
  try {
    const body = parseJson<{ error?: { message?: unknown } }>(await response.text());
    return typeof body?.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}
