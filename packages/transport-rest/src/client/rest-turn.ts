/**
 * One-shot calls for webhooks, scripts and tests: a turn (`restTurn`: connect, act, leave) or a
 * poll (`restPoll`) as a single `await`, without a transport or a client.
 */
import {
  A2uiError,
  type ClientMessage,
  type ClientMessageMetadata,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';
import { REST_PATHS, type RestPollAnswer } from '../protocol/wire.js';
import {
  baseUrlOf,
  clientMessageRequest,
  DEFAULT_REQUEST_TIMEOUT_MS,
  errorOfAnswer,
  exchange,
  firstSeqOf,
  type HeadersOption,
  httpOptionsOf,
  parseConnectAnswer,
  parseMessagesAnswer,
  pollQuery,
} from './http.js';

/** What every one-shot call takes. */
export interface RestCallOptions {
  /** Base URL the server is mounted at. */
  url: string | URL;
  /** Headers of every request (e.g. `Authorization`). @default none */
  headers?: HeadersOption;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  credentials?: RequestCredentials;
  /** Stops the call (`ABORTED`). */
  signal?: AbortSignal;
  /** Deadline of each request. @default 30000 */
  timeoutMs?: number;
  /** Largest answer accepted. @default 8388608 */
  maxResponseBytes?: number;
}

/** Options of {@link restTurn}. */
export interface RestTurnOptions extends RestCallOptions {
  /** The connection to act on; without it a new one is opened first (its first turn is included). */
  connectionId?: string;
  /** The v0.9 `action` or `error` message to send; without it only the connect happens. */
  message?: ClientMessage;
  /** The message's metadata (`a2uiClientCapabilities`, `a2uiClientDataModel`). */
  metadata?: ClientMessageMetadata;
  /**
   * Idempotency key of the message (`Idempotency-Key`): calling again with the same key returns
   * the same turn, and the agent sees the message once. @default none
   */
  requestId?: string;
  /** Leave afterwards (`POST /disconnect`): the agent sees `onDisconnect('client-closed')`. @default false */
  disconnect?: boolean;
}

/** What {@link restTurn} returns. */
export interface RestTurnResult {
  readonly connectionId: string;
  /** The messages of the turns, in order (the first turn's, then the message's). */
  readonly messages: ServerMessage[];
  /** `seq` of the last message: pass it as `after` to {@link restPoll}. */
  readonly seq: number;
  /** The turn did not end within the server's `turnTimeoutMs`: the rest arrives by {@link restPoll}. */
  readonly more: boolean;
  /** Set when the connection has ended. */
  readonly closed?: DisconnectReason;
}

/** One request whose `200` answer `parse` accepts; anything else throws. */
async function call<T>(
  options: RestCallOptions,
  path: string,
  init: { method: 'GET' | 'POST'; query?: string; body?: unknown; idempotencyKey?: string },
  parse: (body: unknown) => T | undefined,
): Promise<T> {
  if (options.signal?.aborted) throw new A2uiError('ABORTED', 'The call was aborted.');
  const what = `${init.method} ${path}`;
  const url = `${baseUrlOf(options.url)}${path}${init.query ?? ''}`;
  const result = await exchange(url, httpOptionsOf(options), {
    body: init.body,
    idempotencyKey: init.idempotencyKey,
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
  if (result.kind === 'failed') {
    if (options.signal?.aborted) throw new A2uiError('ABORTED', 'The call was aborted.');
    throw new A2uiError('TRANSPORT_ERROR', `${what} failed: ${result.reason}`);
  }
  if (result.status !== 200) throw errorOfAnswer(result.status, result.body, what);
  const parsed = parse(result.body);
  if (parsed === undefined)
    throw new A2uiError('TRANSPORT_ERROR', `${what} answered something else than expected.`);
  return parsed;
}

/**
 * Runs turns against a REST server in one call: opens a connection (unless `connectionId` is
 * given), sends `message` (when given), and leaves (with `disconnect`). Returns every message the
 * agent answered with, in order.
 *
 * @param options - see {@link RestTurnOptions}
 * @throws A2uiError with the server's code (`VALIDATION_FAILED` with `path`, `CONNECTION_CLOSED`,
 *   `FORBIDDEN`, `UNAUTHORIZED`, `MESSAGE_TOO_LARGE`, `LIMIT_EXCEEDED`, …; `data.httpStatus`),
 *   `TRANSPORT_ERROR` when the server cannot be reached, `ABORTED`
 *
 * @example
 * ```ts
 * const first = await restTurn({ url: 'http://127.0.0.1:8787/a2ui' });
 * const next = await restTurn({
 *   url: 'http://127.0.0.1:8787/a2ui',
 *   connectionId: first.connectionId,
 *   message: { version: 'v0.9', action: { name: 'submit', surfaceId: 'main', sourceComponentId: 'send', timestamp: new Date().toISOString(), context: {} } },
 *   disconnect: true,
 * });
 * console.log(next.messages);
 * ```
 */
export async function restTurn(options: RestTurnOptions): Promise<RestTurnResult> {
  const messages: ServerMessage[] = [];
  let connectionId = options.connectionId;
  let seq = 0;
  let more = false;
  let closed: DisconnectReason | undefined;
  if (connectionId === undefined) {
    const opened = await call(
      options,
      REST_PATHS.connect,
      { method: 'POST', body: {} },
      parseConnectAnswer,
    );
    connectionId = opened.connectionId;
    messages.push(...opened.messages);
    ({ seq, more, closed } = opened);
  }
  if (options.message && closed === undefined) {
    const { path, body } = clientMessageRequest(connectionId, options.message, options.metadata);
    const turn = await call(
      options,
      path,
      { method: 'POST', body, idempotencyKey: options.requestId },
      parseMessagesAnswer,
    );
    // Numbered, so that a message both answers carry (a push during the first turn) counts once.
    const first = firstSeqOf(turn);
    turn.messages.forEach((message, index) => {
      if (first + index > seq) messages.push(message);
    });
    seq = Math.max(seq, turn.seq);
    more = turn.more;
    closed = turn.closed;
  }
  if (options.disconnect && closed === undefined) {
    await call(
      options,
      REST_PATHS.disconnect,
      { method: 'POST', body: { connectionId } },
      (body) => body,
    ).catch((error: unknown) => {
      // Gone already is as good as gone.
      if (!A2uiError.isInstance(error) || error.code !== 'CONNECTION_CLOSED') throw error;
    });
    closed = 'client-closed';
  }
  return { connectionId, messages, seq, more, ...(closed ? { closed } : {}) };
}

/** Options of {@link restPoll}. */
export interface RestPollOptions extends RestCallOptions {
  connectionId: string;
  /** The last `seq` applied (and acknowledged by this call). @default 0 */
  after?: number;
  /** How long the server may wait for a message (capped by its `maxPollWaitMs`). @default 0 */
  waitMs?: number;
}

/**
 * One long poll: the messages after `after` (`GET {base}/messages`), waiting up to `waitMs` for
 * one. A `reset` in the answer means the messages after `after` are gone: connect again.
 *
 * @throws A2uiError as {@link restTurn} (`CONNECTION_CLOSED` for an unknown connection)
 *
 * @example
 * ```ts
 * const { messages, seq } = await restPoll({ url, connectionId, after: turn.seq, waitMs: 10_000 });
 * ```
 */
export function restPoll(options: RestPollOptions): Promise<RestPollAnswer> {
  const query = pollQuery(options.connectionId, options.after ?? 0, options.waitMs ?? 0);
  return call(
    {
      ...options,
      timeoutMs: (options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) + (options.waitMs ?? 0),
    },
    REST_PATHS.messages,
    { method: 'GET', query },
    parseMessagesAnswer,
  );
}
