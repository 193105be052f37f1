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
  describeError,
  resolveOfferedVersions,
  type SendOptions,
  type TroubleCause,
  toClientMessageParts,
} from '@a2ui-ts/core';
import { A2UI_VERSIONS_HEADER } from '@a2ui-ts/core/host';
import {
  createLinkTransport,
  describeTroubleCause,
  errorOfHttpStatus,
  type HttpLinkOptions,
  isRetryableStatus,
  LINK_DEFAULTS,
  type LinkAttempt,
  type LinkOutcome,
  Outbox,
  type OutboxDelivery,
  type OutboxEntry,
  parseRetryAfter,
  resolveHeaders,
  resolveLinkOptions,
  resolveResumeStore,
  SequenceTracker,
  troubleCauseOf,
  tryParseJson,
  withDeadline,
} from '@a2ui-ts/core/link';
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

/**
 * Options of {@link connectSseJsonRpc}. Durations in milliseconds, sizes in bytes. `headers`,
 * `fetch`, `credentials`, `signal`, `reconnect`, `random`, `maxQueuedMessages` and `wake` are
 * core's {@link HttpLinkOptions}.
 */
export interface SseJsonRpcClientOptions extends HttpLinkOptions {
  /** Base URL the server is mounted at; the client uses `{url}/sse` and `{url}/rpc`. */
  url: string | URL;
  /**
   * A link that delivers no byte (no event, no `: ping`) for this long is considered dead and
   * reconnected. Keep it above twice the server's `keepAliveIntervalMs`; 0 disables it.
   * @default 45000
   */
  heartbeatTimeoutMs?: number;
  /** Deadline of one `POST /rpc` attempt; a timed-out call is retried with the same id. @default 30000 */
  requestTimeoutMs?: number;
  /** Most queued messages sent in one JSON-RPC batch (keep it ≤ the server's `maxBatchLength`). @default 100 */
  maxBatchLength?: number;
  /** Largest event accepted from the server, in characters; a larger one drops the link. @default 4194304 */
  maxEventChars?: number;
  /** Creates JSON-RPC ids, which are also the idempotency keys. @default a random prefix + a counter */
  createRequestId?: () => string;
  /**
   * The A2UI versions this client reads, offered on every stream request in the header
   * `A2UI-Versions: v1.0, v0.9.1, v0.9, v0.8`; the server answers with the one it speaks in the `connected`
   * event ({@link SseJsonRpcTransport.protocolVersion}), or refuses with 406 (`NOT_SUPPORTED`,
   * final) when it speaks none of them.
   * @default ['v1.0', 'v0.9.1', 'v0.9', 'v0.8'] (`DEFAULT_A2UI_VERSIONS`)
   */
  offeredVersions?: readonly string[];
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
  /**
   * The A2UI version the server speaks on this connection (`a2uiVersion` of its `connected`
   * event); `undefined` before it, or from a server older than negotiation.
   */
  readonly protocolVersion: string | undefined;
}

/** Defaults of {@link SseJsonRpcClientOptions}, in one place. */
export const SSE_JSON_RPC_CLIENT_DEFAULTS = {
  heartbeatTimeoutMs: 45_000,
  requestTimeoutMs: 30_000,
  maxBatchLength: LINK_DEFAULTS.maxBatchLength,
  maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
  maxEventChars: 4_194_304,
  /** How long `close()` waits for the server to acknowledge `a2ui.disconnect`. */
  closeTimeoutMs: LINK_DEFAULTS.closeTimeoutMs,
} as const;

type Outgoing = { method: string; params: Record<string, unknown> };

/**
 * The JSON-RPC method and params (without `connectionId`) that carry `message`: the method names
 * the kind, `params.version` the envelope version when it is not the kind's default (a v1.0
 * action or error; core's `toClientMessageParts`).
 */
function toRequest(message: ClientMessage): Outgoing {
  const { kind, body, version } = toClientMessageParts(message);
  return {
    method: RPC_METHODS[kind],
    params: version === undefined ? { [kind]: body } : { version, [kind]: body },
  };
}

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
  const requestTimeoutMs = options.requestTimeoutMs ?? defaults.requestTimeoutMs;
  const maxEventChars = options.maxEventChars ?? defaults.maxEventChars;
  const offeredVersions = resolveOfferedVersions(options.offeredVersions);
  // Ids must not repeat within a connection's de-duplication window: a random prefix per transport.
  const kit = resolveLinkOptions(options, defaults);
  const { backoff, createRequestId } = kit;

  const sequence = new SequenceTracker();
  const resume = resolveResumeStore(options.resume, { name: 'sse-jsonrpc', url: base });
  /** A page reloaded: its session is resumed from the start (the page holds nothing yet). */
  let resumeLoaded = resume === undefined;
  let connectionId: string | undefined;
  let protocolVersion: string | undefined;
  /** Sends waiting for the messages of their turn to be applied: released on apply, reset or close. */
  const turnWaiters = new Set<() => void>();
  const releaseTurnWaiters = () => {
    for (const waiter of [...turnWaiters]) waiter();
  };
  /** Resolves once the message `seq` of `target` was applied, or `target` is no longer the connection. */
  const appliedThrough = (target: string, seq: number): Promise<void> =>
    new Promise((resolve) => {
      const check = () => {
        if (shell.closed || connectionId !== target || sequence.last >= seq) {
          turnWaiters.delete(check);
          resolve();
        }
      };
      turnWaiters.add(check);
      check();
    });

  // ---- Client → server: JSON-RPC calls from the outbox ---------------------------------------

  const outbox = new Outbox<Outgoing>({
    overtakes: (item) => item.method === RPC_METHODS.rendererFunctionResponse,
    ...kit.outbox,
    onTrouble: (trouble) => shell.status.trouble(trouble),
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
      const headers = await resolveHeaders(options.headers);
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
      return { kind: 'retry', reason: `POST ${RPC_PATH} failed: ${describeError(error)}` };
    } finally {
      deadline.clear();
    }
    const answers = tryParseJson<JsonRpcResponse | JsonRpcResponse[]>(text);
    const byId = new Map<unknown, JsonRpcResponse>();
    for (const answer of Array.isArray(answers) ? answers : answers ? [answers] : [])
      byId.set(answer.id, answer);
    if (isRetryableStatus(response.status) && !hasBusyAnswers(byId)) {
      return {
        kind: 'retry',
        reason: `POST ${RPC_PATH} answered HTTP ${response.status}`,
        // A shutdown's refusal has its hint to the millisecond; `Retry-After` has whole seconds.
        retryAfterMs: retryHintOf(byId) ?? parseRetryAfter(response.headers.get('retry-after')),
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
    let busyCause: TroubleCause = 'busy';
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
          if (troubleCauseOf(answer.error.data) === 'store-unavailable')
            busyCause = 'store-unavailable';
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
        ? {
            retry: {
              ids: busy,
              reason: describeTroubleCause(busyCause),
              retryAfterMs: busyRetryAfterMs,
              cause: busyCause,
            },
          }
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
    let restartAfterMs: number | undefined;
    const ending = () =>
      closeReason !== undefined || protocolError !== undefined || restartAfterMs !== undefined;
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
      shell.closed
        ? { kind: 'closed', reason: 'Closed by the client.' }
        : { kind: 'dropped', reason, retryAfterMs };
    try {
      if (!resumeLoaded) {
        resumeLoaded = true;
        connectionId ??= (await resume?.load())?.connectionId;
      }
      let response: Response;
      try {
        const headers = await resolveHeaders(options.headers);
        headers.set('Accept', 'text/event-stream');
        // The offer travels as a header, so the stream's URL is what it was before negotiation.
        headers.set(A2UI_VERSIONS_HEADER, offeredVersions.join(', '));
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
          heartbeatExpired ? heartbeatReason : `Could not connect: ${describeError(error)}`,
        );
      }
      if (!response.ok || !response.body) {
        const detail = await readErrorMessage(response);
        const message = `GET ${SSE_PATH} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
        if (isRetryableStatus(response.status))
          return dropped(message, parseRetryAfter(response.headers.get('retry-after')));
        return { kind: 'fatal', error: errorOfHttpStatus(response.status, message) };
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
          if (ending()) return;
          const problem = handleEvent(event, attempt);
          if (problem?.close !== undefined) closeReason = problem.close;
          if (problem?.error !== undefined) protocolError = problem.error;
          if (problem?.restartAfterMs !== undefined) restartAfterMs = problem.restartAfterMs;
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
          if (ending()) break;
        }
      } catch (error) {
        return dropped(
          heartbeatExpired ? heartbeatReason : `The link dropped: ${describeError(error)}`,
        );
      } finally {
        reader.cancel().catch(() => {});
      }
      if (closeReason !== undefined) return { kind: 'closed', reason: closeReason };
      if (restartAfterMs !== undefined) return dropped('The server is restarting.', restartAfterMs);
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
  ): { close?: string; error?: string; restartAfterMs?: number } | undefined => {
    switch (event.event) {
      case undefined:
      case 'message': {
        const seq = event.id === undefined ? Number.NaN : Number(event.id);
        if (Number.isSafeInteger(seq)) {
          // A snapshot (`a2uiSnapshot`) moves the tracker to the message it covers.
          const verdict = sequence.acceptEntry(seq, event.data);
          // A replayed event already applied is dropped, so nothing is applied twice.
          if (verdict === 'duplicate') return undefined;
          // Something between us and the server lost events: resume from the last one applied.
          if (verdict === 'gap')
            return {
              error: `Event ${seq} arrived after event ${sequence.last}; resuming to fetch the missing ones.`,
            };
        }
        attempt.delivered();
        shell.push({ type: 'messages', messages: event.data });
        if (turnWaiters.size > 0) releaseTurnWaiters();
        return undefined;
      }
      case SSE_EVENTS.connected: {
        const data = tryParseJson<ConnectedEventData>(event.data);
        if (!data || typeof data.connectionId !== 'string')
          return { error: 'The connected event has no connectionId.' };
        if (!data.resumed && connectionId !== undefined && data.connectionId !== connectionId)
          resetSession('The server started a new session.');
        if (!data.resumed) sequence.reset();
        connectionId = data.connectionId;
        if (typeof data.a2uiVersion === 'string') protocolVersion = data.a2uiVersion;
        resume?.save({ connectionId, ...(protocolVersion ? { protocolVersion } : {}) });
        outbox.setConnection(connectionId);
        attempt.opened(
          data.resumed ? `Resumed; ${data.replayed} missed events replayed.` : undefined,
        );
        return undefined;
      }
      case SSE_EVENTS.reset: {
        const data = tryParseJson<ReasonEventData>(event.data);
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
        const data = tryParseJson<ReasonEventData>(event.data);
        const hint = data?.retryAfterMs;
        // A server that shuts down asks to come back: its successor resumes or resets us.
        if (typeof hint === 'number' && hint >= 0) return { restartAfterMs: hint };
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
    shell.push({ type: 'reset', reason });
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
          const headers = await resolveHeaders(options.headers);
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

  const shell = createLinkTransport({
    name: 'SSE + JSON-RPC',
    connect: runLink,
    ...kit.shell,
    // The link stays up until the server has the goodbye, so a dropped link does not start the
    // grace period first.
    goodbye: async () => {
      const state = shell.status.status;
      if (connectionId !== undefined && (state === 'open' || state === 'degraded'))
        await sendDisconnect(connectionId);
    },
    onClose: (error) => {
      // The session is over (closed by either side): a reloaded page starts a new one.
      resume?.clear();
      releaseTurnWaiters();
      outbox.close(error);
    },
  });

  return {
    get connectionId() {
      return connectionId;
    },
    get protocolVersion() {
      return protocolVersion;
    },
    get a2uiVersion() {
      return protocolVersion;
    },
    get lastEventId() {
      return sequence.last;
    },
    get status() {
      return shell.status.status;
    },
    get pendingMessages() {
      return outbox.pending;
    },
    events: shell.events,
    send(message: ClientMessage, metadata: ClientMessageMetadata, sendOptions: SendOptions = {}) {
      const { method, params } = toRequest(message);
      if (metadata !== undefined) params.metadata = metadata;
      return shell.sendWhileOpen(() => outbox.enqueue({ method, params }, sendOptions));
    },
    close: shell.close,
  };
}

/** The longest `error.data.retryAfterMs` of the answers, if one has it. */
function retryHintOf(answers: ReadonlyMap<unknown, JsonRpcResponse>): number | undefined {
  let hint: number | undefined;
  for (const answer of answers.values()) {
    const value =
      'error' in answer
        ? (answer.error.data as { retryAfterMs?: unknown })?.retryAfterMs
        : undefined;
    if (typeof value === 'number' && value >= 0) hint = Math.max(hint ?? 0, value);
  }
  return hint;
}

/** True when the answers include the busy refusal (retried per request, not per call). */
function hasBusyAnswers(answers: ReadonlyMap<unknown, JsonRpcResponse>): boolean {
  for (const answer of answers.values())
    if ('error' in answer && answer.error.code === RPC_ERRORS.SERVER_BUSY.code) return true;
  return false;
}

async function readErrorMessage(response: Response): Promise<string | undefined> {
  try {
    const body = tryParseJson<{ error?: { message?: unknown } }>(await response.text());
    return typeof body?.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}
