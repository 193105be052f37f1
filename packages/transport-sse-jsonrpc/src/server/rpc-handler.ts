/**
 * The JSON-RPC 2.0 codec of the binding (`POST {base}/rpc`): checks each request of a single call
 * or a batch, hands `a2ui.action` / `a2ui.error` / `a2ui.disconnect` and the v1.0 function calls
 * (`a2ui.callAgentFunction`, `a2ui.rendererFunctionResponse`) to the session host, and
 * answers with the codes of {@link RPC_ERRORS}. A bad request never affects another request of
 * the same batch, nor another connection. Requests of a batch reach the agent in order; after a
 * busy refusal the rest of the batch is refused too, so nothing overtakes a message that waits.
 */
import { A2uiError, fromClientMessageParts, isConnectionId, isRecord } from '@a2ui-ts/core';
import {
  checkRequestDepth,
  INBOUND_DEFAULTS,
  type InboundLimits,
  type SessionHost,
} from '@a2ui-ts/core/host';
import { withDeadline } from '@a2ui-ts/core/link';
import { type RpcErrorName, rpcErrorNameOf, toRpcError } from '../protocol/json-rpc-errors.js';
import {
  type JsonRpcId,
  type JsonRpcResponse,
  RPC_METHODS,
  type RpcAcceptedResult,
} from '../protocol/wire.js';

/** What the handler needs from the server. */
export interface RpcHandlerContext {
  readonly host: SessionHost;
  /** Most requests in one batch. */
  readonly maxBatchLength: number;
  /** Size of the whole body, in bytes (the size of a single request). */
  readonly bodyBytes: number;
  /** The exact JSON text of each request id, by request (ids are compared by their text). */
  readonly idText: (request: Record<string, unknown>) => string | undefined;
  /**
   * How long the answer may wait for the agent's turn on the call's last message, so that it can
   * name the turn (`result.turn`); 0 answers at once.
   */
  readonly turnWaitMs: number;
  /** `maxRequestDepth` (and `maxMetadataDepth`, its default's base) for the requests of a batch. */
  readonly limits?: InboundLimits;
  /** Told of an unexpected failure (not an `A2uiError`), whose text the client never sees. */
  readonly onError: (error: unknown) => void;
  /**
   * While the server shuts down, the hint of its `close` event (`retryMs`): a request for a
   * connection the host no longer has is then refused with it instead of "unknown connection".
   */
  readonly shutdownRetryAfterMs?: () => number | undefined;
}

/** The answer to a call, and whether every request of it was refused as busy. */
export interface RpcCallResult {
  readonly body: JsonRpcResponse | JsonRpcResponse[] | undefined;
  /** Set when no request was accepted because the agent is busy: answer HTTP 503. */
  readonly busyRetryAfterMs?: number;
  /** Set when every request was refused because the server shuts down: answer HTTP 503. */
  readonly shutdownRetryAfterMs?: number;
}

const isJsonRpcId = (value: unknown): value is JsonRpcId =>
  value === null ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  // A number beyond double precision, kept as its text by the lossless parse.
  (typeof value === 'object' && value !== null && 'isLosslessNumber' in value);

type RequestOutcome = {
  response: JsonRpcResponse | undefined;
  busyRetryAfterMs?: number;
  shutdownRetryAfterMs?: number;
};

/**
 * The request whose answer names the agent's turn: the last one of the call that delivers a
 * message and expects an answer. Turns follow one another, so its turn ends after every earlier
 * one: a client that has applied its messages has applied those of the whole call.
 */
function lastAnsweredDelivery(requests: readonly unknown[]): unknown {
  for (let index = requests.length - 1; index >= 0; index--) {
    const request = requests[index];
    if (isRecord(request) && isDelivery(request.method) && 'id' in request) return request;
  }
  return undefined;
}

/**
 * Answers a parsed JSON-RPC payload from a client authenticated as `principal`.
 * @returns the response body (`undefined` when every request was a notification)
 */
export async function handleRpcPayload(
  payload: unknown,
  principal: unknown,
  context: RpcHandlerContext,
): Promise<RpcCallResult> {
  if (!Array.isArray(payload)) {
    const outcome = await handleRequest(payload, principal, context, context.bodyBytes, true);
    return {
      body: outcome.response,
      busyRetryAfterMs: outcome.busyRetryAfterMs,
      shutdownRetryAfterMs: outcome.shutdownRetryAfterMs,
    };
  }
  if (payload.length === 0) return { body: errorResponse(null, 'INVALID_REQUEST', 'empty batch') };
  if (payload.length > context.maxBatchLength) {
    return {
      body: errorResponse(
        null,
        'INVALID_REQUEST',
        `a batch holds at most ${context.maxBatchLength} requests`,
        { maxBatchLength: context.maxBatchLength },
      ),
    };
  }
  const responses: JsonRpcResponse[] = [];
  const awaited = lastAnsweredDelivery(payload);
  let busy: { retryAfterMs: number; detail: string } | undefined;
  let accepted = 0;
  let shutdown: { retryAfterMs: number; refused: number } | undefined;
  for (const [index, request] of payload.entries()) {
    // Each request of a batch is measured by serialising it: none may be too deep for that.
    const tooDeep = checkRequestDepth(request, context.limits);
    if (tooDeep) {
      responses.push(
        errorResponse(
          isRecord(request) ? idOf(request) : null,
          'INVALID_REQUEST',
          tooDeep.message,
          {
            path: `/${index}${tooDeep.path}`,
          },
        ),
      );
      continue;
    }
    if (busy && isRecord(request) && isDelivery(request.method)) {
      if ('id' in request)
        responses.push(
          errorResponse(idOf(request), 'SERVER_BUSY', busy.detail, {
            retryAfterMs: busy.retryAfterMs,
          }),
        );
      continue;
    }
    const outcome = await handleRequest(
      request,
      principal,
      context,
      JSON.stringify(request).length,
      request === awaited,
    );
    if (outcome.busyRetryAfterMs !== undefined) {
      busy = {
        retryAfterMs: outcome.busyRetryAfterMs,
        detail: 'an earlier message of this batch waits for the agent',
      };
    } else accepted++;
    if (outcome.shutdownRetryAfterMs !== undefined) {
      shutdown = {
        retryAfterMs: outcome.shutdownRetryAfterMs,
        refused: (shutdown?.refused ?? 0) + 1,
      };
    }
    if (outcome.response) responses.push(outcome.response);
  }
  return {
    body: responses.length > 0 ? responses : undefined,
    busyRetryAfterMs: busy && accepted === 0 ? busy.retryAfterMs : undefined,
    shutdownRetryAfterMs: shutdown?.refused === payload.length ? shutdown.retryAfterMs : undefined,
  };
}

/**
 * The message key each delivering method carries in its params. Its envelope version is
 * `params.version`, else the kind's default (core's `fromClientMessageParts`).
 */
const DELIVERIES = {
  [RPC_METHODS.action]: { kind: 'action' },
  [RPC_METHODS.error]: { kind: 'error' },
  [RPC_METHODS.callAgentFunction]: { kind: 'callAgentFunction' },
  [RPC_METHODS.rendererFunctionResponse]: { kind: 'rendererFunctionResponse' },
} as const;

type DeliveryKind = (typeof DELIVERIES)[keyof typeof DELIVERIES]['kind'];

const isDelivery = (method: unknown): method is keyof typeof DELIVERIES =>
  typeof method === 'string' && Object.hasOwn(DELIVERIES, method);

const idOf = (request: Record<string, unknown>): JsonRpcId =>
  isJsonRpcId(request.id) ? (request.id as JsonRpcId) : null;

async function handleRequest(
  request: unknown,
  principal: unknown,
  context: RpcHandlerContext,
  bytes: number,
  awaitTurn: boolean,
): Promise<RequestOutcome> {
  if (!isRecord(request))
    return {
      response: errorResponse(null, 'INVALID_REQUEST', 'a request must be an object', { path: '' }),
    };
  const id = request.id;
  const responseId = idOf(request);
  if (request.jsonrpc !== '2.0')
    return {
      response: errorResponse(responseId, 'INVALID_REQUEST', 'jsonrpc must be "2.0"', {
        path: '/jsonrpc',
      }),
    };
  if (id !== undefined && !isJsonRpcId(id)) {
    return {
      response: errorResponse(null, 'INVALID_REQUEST', 'id must be a string, a number or null', {
        path: '/id',
      }),
    };
  }
  // The id is the idempotency key, refused beyond maxRequestIdLength (of its JSON text); answered
  // with id null, as any invalid request, so that an over-long id is never sent back whole.
  const maxIdLength = context.limits?.maxRequestIdLength ?? INBOUND_DEFAULTS.maxRequestIdLength;
  const idLength = id === undefined ? 0 : (context.idText(request)?.length ?? 0);
  if (idLength > maxIdLength) {
    return {
      response: errorResponse(
        null,
        'INVALID_REQUEST',
        `id has at most ${maxIdLength} characters of JSON text (this one has ${idLength})`,
        { path: '/id' },
      ),
    };
  }
  if (typeof request.method !== 'string')
    return {
      response: errorResponse(responseId, 'INVALID_REQUEST', 'method must be a string', {
        path: '/method',
      }),
    };
  if (request.params !== undefined && !isRecord(request.params) && !Array.isArray(request.params)) {
    return {
      response: errorResponse(
        responseId,
        'INVALID_REQUEST',
        'params must be an object or an array',
        {
          path: '/params',
        },
      ),
    };
  }
  // A request without an id is a notification: it is processed but never answered, not even with an error.
  const answer = (response: JsonRpcResponse, busyRetryAfterMs?: number): RequestOutcome => ({
    response: 'id' in request ? response : undefined,
    busyRetryAfterMs,
  });
  /** The connection is gone because the server shuts down: come back after the hint. */
  const shutdownAnswer = (error: unknown): RequestOutcome | undefined => {
    const retryAfterMs = context.shutdownRetryAfterMs?.();
    if (retryAfterMs === undefined || !A2uiError.isInstance(error)) return undefined;
    if (error.code !== 'CONNECTION_CLOSED') return undefined;
    // The shutdown closes every connection: a goodbye during it has nothing left to end.
    if (method === RPC_METHODS.disconnect)
      return answer({ jsonrpc: '2.0', id: responseId, result: { closed: true } });
    return {
      ...answer(
        errorResponse(
          responseId,
          'CONNECTION_NOT_FOUND',
          'the server is shutting down; come back after retryAfterMs',
          { connectionId, reason: 'server-closed', retryAfterMs },
        ),
      ),
      shutdownRetryAfterMs: retryAfterMs,
    };
  };
  const method = request.method;
  if (!isDelivery(method) && method !== RPC_METHODS.disconnect)
    return answer(errorResponse(responseId, 'METHOD_NOT_FOUND', JSON.stringify(method)));
  const params = request.params;
  if (!isRecord(params))
    return answer(invalidParams(responseId, '/params', 'must be an object (params by name)'));
  const connectionId = params.connectionId;
  if (typeof connectionId !== 'string')
    return answer(invalidParams(responseId, '/params/connectionId', 'must be a string'));
  if (!isConnectionId(connectionId))
    return answer(
      invalidParams(
        responseId,
        '/params/connectionId',
        'must be a connection id (22 base64url characters)',
      ),
    );
  const delivery = isDelivery(method) ? DELIVERIES[method] : DELIVERIES[RPC_METHODS.action];
  const kind = delivery.kind;
  if (isDelivery(method) && !(kind in params))
    return answer(invalidParams(responseId, `/params/${kind}`, 'is required'));
  try {
    if (method === RPC_METHODS.disconnect) {
      await context.host.disconnect(connectionId, { principal });
      return answer({ jsonrpc: '2.0', id: responseId, result: { closed: true } });
    }
    // The JSON-RPC id, as its exact text, is the idempotency key: a retried request is delivered once.
    const wait =
      awaitTurn && 'id' in request && context.turnWaitMs > 0
        ? withDeadline(undefined, context.turnWaitMs)
        : undefined;
    try {
      const { duplicate, turn } = await context.host.receive(connectionId, {
        principal,
        message: fromClientMessageParts(kind, params[kind], params.version),
        metadata: params.metadata,
        requestId: context.idText(request),
        bytes,
        awaitTurn: wait !== undefined,
        signal: wait?.signal,
      });
      const result: RpcAcceptedResult = duplicate
        ? { accepted: true, duplicate: true }
        : { accepted: true };
      if (turn) result.turn = { startSeq: turn.startSeq, endSeq: turn.endSeq };
      return answer({ jsonrpc: '2.0', id: responseId, result });
    } finally {
      wait?.clear();
    }
  } catch (error) {
    if (!A2uiError.isInstance(error)) context.onError(error);
    return shutdownAnswer(error) ?? answer(...toErrorAnswer(error, responseId, kind, connectionId));
  }
}

/** The JSON-RPC error for an `A2uiError` the host raised, with the busy hint when it is one. */
function toErrorAnswer(
  error: unknown,
  id: JsonRpcId,
  kind: DeliveryKind,
  connectionId: string,
): [JsonRpcResponse, number?] {
  const name = rpcErrorNameOf(error);
  const known = A2uiError.isInstance(error) ? error : undefined;
  if (name === 'INVALID_PARAMS' && known) {
    // Host paths point into `{<kind>, metadata}`; on this wire those are under `/params`.
    const path = `/params${known.path ? known.path : `/${kind}`}`;
    const data: Record<string, unknown> = { path };
    if (Array.isArray(known.data?.issues)) {
      data.issues = (known.data.issues as Array<{ path: string }>).map((issue) => ({
        ...issue,
        path: `/params${issue.path || `/${kind}`}`,
      }));
    }
    if (known.data?.field === 'requestId')
      return [errorResponse(id, 'INVALID_REQUEST', known.message, { path: '/id' })];
    return [errorResponse(id, 'INVALID_PARAMS', `${path}: ${known.message}`, data)];
  }
  if (name === 'CONNECTION_NOT_FOUND')
    return [errorResponse(id, 'CONNECTION_NOT_FOUND', undefined, { connectionId })];
  if (name === 'FORBIDDEN')
    return [errorResponse(id, 'FORBIDDEN', 'the connection belongs to another principal')];
  if (name === 'SERVER_BUSY') {
    const retryAfterMs = Number(known?.data?.retryAfterMs ?? 1_000);
    // Why it is busy (`store-unavailable`), so that a status bar says what happened.
    const reason = known?.data?.reason;
    const data = typeof reason === 'string' ? { retryAfterMs, reason } : { retryAfterMs };
    return [errorResponse(id, 'SERVER_BUSY', known?.message, data), retryAfterMs];
  }
  // An `A2uiError`'s message is written for clients; anything else may carry internals.
  return [errorResponse(id, name, known?.message, known?.data)];
}

function invalidParams(id: JsonRpcId, path: string, detail: string): JsonRpcResponse {
  return errorResponse(id, 'INVALID_PARAMS', `${path}: ${detail}`, { path });
}

/** A JSON-RPC error response. */
export function errorResponse(
  id: JsonRpcId,
  name: RpcErrorName,
  detail?: string,
  data?: unknown,
): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: toRpcError(name, { detail, data }) };
}
