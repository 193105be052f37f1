/**
 * The client connector (ARCHITECTURE §4 "SSE + JSON-RPC"): a `ClientTransport` reading the event
 * stream with `fetch` (so `Authorization` headers work) and `eventsource-parser`, resuming with
 * `Last-Event-ID` after any drop, and sending client messages as JSON-RPC calls that are retried
 * with the same id until the server acknowledges them (exactly once: the server drops repeats).
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  type ClientTransport,
  type ConnectionStatus,
  createConnectionId,
  createEventQueue,
  type EventQueue,
  type SendOptions,
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
  SSE_EVENTS,
  SSE_PATH,
  SSE_QUERY,
} from '../protocol/wire.js';
import { computeBackoffDelay, RECONNECT_DEFAULTS, type ReconnectOptions } from './backoff.js';

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
  /** Reconnect policy (exponential backoff with jitter). */
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

interface Outgoing {
  readonly id: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** Bound when first transmitted (or at send time if a connection exists). */
  connectionId: string | undefined;
  /** Set while a POST carrying it is in flight. */
  inFlight: boolean;
  settled: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** How one link attempt ended. */
type LinkOutcome =
  | {
      kind: 'dropped';
      reason: string;
      /** The link delivered a new A2UI message or stayed open `stableAfterMs`: the backoff starts over. */
      healthy?: boolean;
      /** The server's `Retry-After` on a refused stream (503, 429). */
      retryAfterMs?: number;
    }
  | { kind: 'closed'; reason: string }
  | { kind: 'fatal'; error: A2uiError };

/**
 * Connects to an SSE + JSON-RPC server. The connection starts when `A2uiClient` calls `events()`.
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
  const maxBatchLength = Math.max(1, options.maxBatchLength ?? defaults.maxBatchLength);
  const maxQueuedMessages = options.maxQueuedMessages ?? defaults.maxQueuedMessages;
  const maxEventChars = options.maxEventChars ?? defaults.maxEventChars;
  // Ids must not repeat within a connection's de-duplication window: a random prefix per transport.
  const requestIdPrefix = createConnectionId();
  let requestCounter = 0;
  const createRequestId =
    options.createRequestId ?? (() => `${requestIdPrefix}-${++requestCounter}`);

  const lifetime = new AbortController();
  let queue: EventQueue<TransportEvent> | undefined;
  let status: ConnectionStatus = 'closed';
  let connectionId: string | undefined;
  let lastSeq = 0;
  let retryHintMs: number | undefined;
  let closed = false;
  const outbox: Outgoing[] = [];
  let posting = false;
  let rpcFailures = 0;
  let rpcRetryTimer: ReturnType<typeof setTimeout> | undefined;
  /** After a 413 on a batch, the next attempt sends one message per request. */
  let splitNextBatch = false;

  /**
   * The server's `retry:` hint is the base delay, raised to `minRetryMs` (so `retry: 0` cannot
   * disable the backoff), and is honoured even above `maxDelayMs`.
   */
  const backoffDelay = (attempt: number): number => {
    const hint =
      retryHintMs === undefined ? undefined : Math.max(retryHintMs, reconnect.minRetryMs);
    return computeBackoffDelay(attempt, {
      initialDelayMs: hint ?? reconnect.initialDelayMs,
      maxDelayMs: Math.max(reconnect.maxDelayMs, hint ?? 0),
      multiplier: reconnect.multiplier,
      random,
    });
  };
  /** When the current link got its `connected` event, and whether it delivered a new A2UI message. */
  let linkOpenedAt: number | undefined;
  let linkDeliveredMessage = false;

  const setStatus = (next: ConnectionStatus, reason?: string, attempt?: number): void => {
    status = next;
    const event: TransportEvent = { type: 'status', status: next };
    if (reason !== undefined) event.reason = reason;
    if (attempt !== undefined) event.attempt = attempt;
    queue?.push(event);
  };

  const resolveHeaders = async (): Promise<Headers> => {
    const init = typeof options.headers === 'function' ? await options.headers() : options.headers;
    return new Headers(init);
  };

  const settle = (entry: Outgoing, error?: unknown): void => {
    if (entry.settled) return;
    entry.settled = true;
    const index = outbox.indexOf(entry);
    if (index >= 0) outbox.splice(index, 1);
    if (error === undefined) entry.resolve();
    else entry.reject(error);
  };

  const rejectWhere = (predicate: (entry: Outgoing) => boolean, error: A2uiError): void => {
    for (const entry of [...outbox]) if (predicate(entry)) settle(entry, error);
  };

  // ---- Server → client: the event stream --------------------------------------------------

  const runLink = async (): Promise<LinkOutcome> => {
    const link = new AbortController();
    const abortLink = () => link.abort();
    lifetime.signal.addEventListener('abort', abortLink, { once: true });
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
    linkOpenedAt = undefined;
    linkDeliveredMessage = false;
    const dropped = (reason: string): LinkOutcome => ({
      kind: 'dropped',
      reason,
      healthy:
        linkDeliveredMessage ||
        (linkOpenedAt !== undefined && Date.now() - linkOpenedAt >= reconnect.stableAfterMs),
    });
    try {
      let response: Response;
      try {
        const headers = await resolveHeaders();
        headers.set('Accept', 'text/event-stream');
        let url = sseUrl;
        if (connectionId !== undefined) {
          url += `?${SSE_QUERY.connectionId}=${encodeURIComponent(connectionId)}`;
          headers.set('Last-Event-ID', String(lastSeq));
        }
        response = await doFetch(url, {
          headers,
          signal: link.signal,
          cache: 'no-store',
          credentials: options.credentials,
        });
      } catch (error) {
        if (closed) return { kind: 'closed', reason: 'Closed by the client.' };
        if (heartbeatExpired) return dropped(heartbeatReason);
        return dropped(`Could not connect: ${describe(error)}`);
      }
      if (!response.ok || !response.body) {
        const detail = await readErrorMessage(response);
        const message = `GET ${SSE_PATH} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
        if (response.status >= 500 || response.status === 408 || response.status === 429)
          return { kind: 'dropped', reason: message, retryAfterMs: parseRetryAfter(response) };
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
        onRetry: (ms) => {
          retryHintMs = ms;
        },
        onError: (error) => {
          // Unknown fields and bad `retry:` values are ignored, as an EventSource does.
          if (error.type === 'max-buffer-size-exceeded')
            protocolError = `An event is larger than ${maxEventChars} characters.`;
        },
        onEvent: (event) => {
          if (closeReason !== undefined || protocolError !== undefined) return;
          const problem = handleEvent(event);
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
        if (closed) return { kind: 'closed', reason: 'Closed by the client.' };
        if (heartbeatExpired) return dropped(heartbeatReason);
        return dropped(`The link dropped: ${describe(error)}`);
      } finally {
        reader.cancel().catch(() => {});
      }
      if (closeReason !== undefined) return { kind: 'closed', reason: closeReason };
      if (protocolError !== undefined) return dropped(protocolError);
      if (closed) return { kind: 'closed', reason: 'Closed by the client.' };
      return dropped('The server ended the stream.');
    } finally {
      clearTimeout(heartbeatTimer);
      lifetime.signal.removeEventListener('abort', abortLink);
      link.abort();
    }
  };

  /** Applies one SSE event; returns why the link must end, if it must. */
  const handleEvent = (
    event: EventSourceMessage,
  ): { close?: string; error?: string } | undefined => {
    switch (event.event) {
      case undefined:
      case 'message': {
        const seq = event.id === undefined ? Number.NaN : Number(event.id);
        if (Number.isSafeInteger(seq)) {
          // A replayed event already applied is dropped, so nothing is applied twice.
          if (seq <= lastSeq) return undefined;
          // Something between us and the server lost events: resume from the last one applied.
          if (seq > lastSeq + 1)
            return {
              error: `Event ${seq} arrived after event ${lastSeq}; resuming to fetch the missing ones.`,
            };
          lastSeq = seq;
        }
        linkDeliveredMessage = true;
        queue?.push({ type: 'messages', messages: event.data });
        return undefined;
      }
      case SSE_EVENTS.connected: {
        const data = parseJson<ConnectedEventData>(event.data);
        if (!data || typeof data.connectionId !== 'string')
          return { error: 'The connected event has no connectionId.' };
        if (!data.resumed && connectionId !== undefined && data.connectionId !== connectionId)
          resetSession('The server started a new session.');
        if (!data.resumed) lastSeq = 0;
        connectionId = data.connectionId;
        linkOpenedAt ??= Date.now();
        setStatus(
          'open',
          data.resumed ? `Resumed; ${data.replayed} missed events replayed.` : undefined,
        );
        rpcFailures = 0;
        pump();
        return undefined;
      }
      case SSE_EVENTS.reset: {
        const data = parseJson<ReasonEventData>(event.data);
        resetSession(
          data?.reason === 'replay-gap'
            ? 'The events missed while the link was down are no longer buffered.'
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
    const previous = connectionId;
    connectionId = undefined;
    lastSeq = 0;
    if (previous !== undefined) {
      rejectWhere(
        (entry) => entry.connectionId === previous && !entry.inFlight,
        new A2uiError(
          'CONNECTION_CLOSED',
          'The session was reset before this message could be delivered; its surfaces are gone.',
        ),
      );
    }
    queue?.push({ type: 'reset', reason });
  };

  const run = async (events: EventQueue<TransportEvent>): Promise<void> => {
    setStatus('connecting');
    let attempt = 0;
    while (!closed) {
      const outcome = await runLink();
      if (closed) break;
      if (outcome.kind === 'closed') {
        finish(outcome.reason);
        return;
      }
      if (outcome.kind === 'fatal') {
        finish(outcome.error.message, outcome.error);
        return;
      }
      // Only a link that proved healthy starts the backoff over: one that ends right after
      // `connected` is a failed attempt, or a server could make the client reconnect in a loop.
      if (outcome.healthy) attempt = 0;
      attempt++;
      if (attempt > reconnect.maxAttempts) {
        finish(
          `Gave up after ${reconnect.maxAttempts} reconnect attempts: ${outcome.reason}`,
          new A2uiError(
            'TRANSPORT_ERROR',
            `Gave up after ${reconnect.maxAttempts} reconnect attempts: ${outcome.reason}`,
          ),
        );
        return;
      }
      let delayMs = backoffDelay(attempt);
      // A refusing server's `Retry-After` is a floor, within the delay cap.
      if (outcome.retryAfterMs !== undefined)
        delayMs = Math.max(delayMs, Math.min(outcome.retryAfterMs, reconnect.maxDelayMs));
      setStatus(
        'reconnecting',
        `${outcome.reason.replace(/\.$/, '')}; retrying in ${delayMs} ms.`,
        attempt,
      );
      await sleep(delayMs, lifetime.signal);
    }
    if (!events.ended) finish('Closed by the client.');
  };

  const finish = (reason: string, error?: A2uiError): void => {
    if (queue?.ended && status === 'closed') return;
    closed = true;
    clearTimeout(rpcRetryTimer);
    rejectWhere(
      () => true,
      error ?? new A2uiError('CONNECTION_CLOSED', `The connection is closed: ${reason}`),
    );
    if (status !== 'closed') setStatus('closed', reason);
    if (error) queue?.fail(error);
    else queue?.end();
    lifetime.abort();
  };

  // ---- Client → server: JSON-RPC calls ------------------------------------------------------

  const pump = (): void => {
    if (posting || closed || status !== 'open' || connectionId === undefined || outbox.length === 0)
      return;
    clearTimeout(rpcRetryTimer);
    rpcRetryTimer = undefined;
    const current = connectionId;
    const limit = splitNextBatch ? 1 : maxBatchLength;
    const batch: Outgoing[] = [];
    for (const entry of [...outbox]) {
      if (batch.length >= limit) break;
      entry.connectionId ??= current;
      // A batch targets one connection; messages for a replaced one wait for their answer below.
      if (entry.connectionId !== current) {
        settle(
          entry,
          new A2uiError(
            'CONNECTION_CLOSED',
            'The session was reset before this message could be delivered; its surfaces are gone.',
          ),
        );
        continue;
      }
      batch.push(entry);
    }
    if (batch.length === 0) return;
    posting = true;
    for (const entry of batch) entry.inFlight = true;
    void post(batch).finally(() => {
      posting = false;
      for (const entry of batch) entry.inFlight = false;
      pump();
    });
  };

  const retryLater = (): void => {
    rpcFailures++;
    if (closed || status !== 'open') return; // the next `connected` event pumps again
    const delayMs = backoffDelay(rpcFailures);
    clearTimeout(rpcRetryTimer);
    rpcRetryTimer = setTimeout(() => {
      rpcRetryTimer = undefined;
      pump();
    }, delayMs);
  };

  const post = async (batch: Outgoing[]): Promise<void> => {
    const requests = batch.map((entry) => ({
      jsonrpc: '2.0',
      id: entry.id,
      method: entry.method,
      params: { connectionId: entry.connectionId, ...entry.params },
    }));
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), requestTimeoutMs);
    const stop = () => timeout.abort();
    lifetime.signal.addEventListener('abort', stop, { once: true });
    let response: Response;
    let text: string;
    try {
      const headers = await resolveHeaders();
      headers.set('Content-Type', 'application/json');
      response = await doFetch(rpcUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify(requests.length === 1 ? requests[0] : requests),
        signal: timeout.signal,
        credentials: options.credentials,
      });
      text = await response.text();
    } catch {
      // Not known whether the server got it: retry with the same ids, which it de-duplicates.
      retryLater();
      return;
    } finally {
      clearTimeout(timer);
      lifetime.signal.removeEventListener('abort', stop);
    }
    if (response.status >= 500 || response.status === 408 || response.status === 429) {
      retryLater();
      return;
    }
    if (response.status === 413 && batch.length > 1) {
      splitNextBatch = true;
      return;
    }
    splitNextBatch = false;
    rpcFailures = 0;
    if (response.status === 204) {
      for (const entry of batch) settle(entry);
      return;
    }
    const body = parseJson<JsonRpcResponse | JsonRpcResponse[]>(text);
    if (!response.ok) {
      const error =
        body && !Array.isArray(body) && 'error' in body
          ? fromRpcError(body.error, { httpStatus: response.status })
          : new A2uiError(
              Object.values(RPC_ERRORS).find((row) => row.httpStatus === response.status)
                ?.a2uiCode ?? 'TRANSPORT_ERROR',
              `POST ${RPC_PATH} answered HTTP ${response.status}.`,
            );
      for (const entry of batch) settle(entry, error);
      return;
    }
    const answers = new Map<unknown, JsonRpcResponse>();
    for (const answer of Array.isArray(body) ? body : body ? [body] : [])
      answers.set(answer.id, answer);
    for (const entry of batch) {
      const answer = answers.get(entry.id);
      if (!answer)
        settle(
          entry,
          new A2uiError('TRANSPORT_ERROR', `The server did not answer request ${entry.id}.`),
        );
      else if ('error' in answer)
        settle(entry, fromRpcError(answer.error, { httpStatus: response.status }));
      else settle(entry);
    }
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
    const wasOpen = status === 'open';
    // From here on nothing reconnects and nothing new is sent; the link stays up until the
    // server has the goodbye, so a dropped link does not start the grace period first.
    closed = true;
    clearTimeout(rpcRetryTimer);
    rejectWhere(() => true, new A2uiError('CONNECTION_CLOSED', 'The transport was closed.'));
    if (id !== undefined && wasOpen) await sendDisconnect(id);
    finish('Closed by the client.');
  };

  /** Tells the server, so the agent sees `client-closed` at once; retried on network failure until the deadline. */
  const sendDisconnect = async (id: string): Promise<void> => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), defaults.closeTimeoutMs);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: createRequestId(),
      method: RPC_METHODS.disconnect,
      params: { connectionId: id },
    });
    try {
      // A pooled connection may have died with a dropped link, hence more than one attempt.
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
      clearTimeout(timer);
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
      return lastSeq;
    },
    get status() {
      return status;
    },
    get pendingMessages() {
      return outbox.length;
    },
    events({ signal } = {}) {
      if (queue)
        throw new A2uiError('INTERNAL_ERROR', 'events() can be called once per transport.');
      const events = createEventQueue<TransportEvent>();
      queue = events;
      if (closed) {
        setStatus('closed', 'Closed by the client.');
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
              { cause: error },
            ),
          );
        });
      }
      return events;
    },
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      if (closed)
        return Promise.reject(new A2uiError('CONNECTION_CLOSED', 'The transport is closed.'));
      if (sendOptions.signal?.aborted)
        return Promise.reject(new A2uiError('ABORTED', 'The send was aborted.'));
      if (outbox.length >= maxQueuedMessages) {
        return Promise.reject(
          new A2uiError(
            'LIMIT_EXCEEDED',
            `${maxQueuedMessages} client messages are already waiting for delivery.`,
          ),
        );
      }
      const isAction = 'action' in message;
      const params: Record<string, unknown> = isAction
        ? { action: message.action }
        : { error: message.error };
      if (metadata !== undefined) params.metadata = metadata;
      return new Promise<void>((resolve, reject) => {
        const entry: Outgoing = {
          id: createRequestId(),
          method: isAction ? RPC_METHODS.action : RPC_METHODS.error,
          params,
          connectionId,
          inFlight: false,
          settled: false,
          resolve,
          reject,
        };
        outbox.push(entry);
        sendOptions.signal?.addEventListener(
          'abort',
          () => {
            // Once on the wire it may have arrived: it stays queued until answered, only the caller stops waiting.
            if (!entry.inFlight) settle(entry, new A2uiError('ABORTED', 'The send was aborted.'));
            else entry.reject(new A2uiError('ABORTED', 'The send was aborted.'));
          },
          { once: true },
        );
        pump();
      });
    },
    close,
  };
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

/** `Retry-After` in delta-seconds (the form servers send on 503 / 429), as milliseconds. */
function parseRetryAfter(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value) * 1000;
}

async function readErrorMessage(response: Response): Promise<string | undefined> {
  try {
    const body = parseJson<{ error?: { message?: unknown } }>(await response.text());
    return typeof body?.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or less if `signal` aborts; leaves no timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
