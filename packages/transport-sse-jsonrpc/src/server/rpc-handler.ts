/**
 * The JSON-RPC 2.0 side of the binding (`POST {base}/rpc`): validates each request of a single
 * call or a batch, routes `a2ui.action` / `a2ui.error` / `a2ui.disconnect` to the connection's
 * session, and answers with the codes of {@link RPC_ERRORS}. A bad request never affects another
 * request of the same batch, nor another connection.
 */
import {
  type ClientMessage,
  type ClientMessageMetadata,
  type ConnectionRegistry,
  isConnectionId,
  type ValidationIssue,
  validateClientCapabilities,
  validateClientDataModel,
  validateClientMessage,
} from '@a2ui-ts/core';
import { type RpcErrorName, rpcErrorNameOf, toRpcError } from '../protocol/json-rpc-errors.js';
import {
  type JsonRpcId,
  type JsonRpcResponse,
  RPC_METHODS,
  type RpcAcceptedResult,
} from '../protocol/wire.js';

/** What the handler needs from the server. */
export interface RpcHandlerContext {
  readonly registry: ConnectionRegistry;
  isSamePrincipal(bound: unknown, current: unknown): boolean;
  /** Most requests in one batch. */
  readonly maxBatchLength: number;
}

type ParamsResult =
  | { ok: true; connectionId: string; message?: ClientMessage; metadata?: ClientMessageMetadata }
  | { ok: false; detail: string; path: string; issues?: ValidationIssue[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isJsonRpcId = (value: unknown): value is JsonRpcId =>
  value === null ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value));

/**
 * Answers a parsed JSON-RPC payload from a client authenticated as `principal`.
 * @returns the response body, or `undefined` when every request was a notification
 */
export function handleRpcPayload(
  payload: unknown,
  principal: unknown,
  context: RpcHandlerContext,
): JsonRpcResponse | JsonRpcResponse[] | undefined {
  if (!Array.isArray(payload)) return handleRequest(payload, principal, context);
  if (payload.length === 0) return errorResponse(null, 'INVALID_REQUEST', 'empty batch');
  if (payload.length > context.maxBatchLength) {
    return errorResponse(
      null,
      'INVALID_REQUEST',
      `a batch holds at most ${context.maxBatchLength} requests`,
      {
        maxBatchLength: context.maxBatchLength,
      },
    );
  }
  const responses: JsonRpcResponse[] = [];
  for (const request of payload) {
    const response = handleRequest(request, principal, context);
    if (response) responses.push(response);
  }
  return responses.length > 0 ? responses : undefined;
}

function handleRequest(
  request: unknown,
  principal: unknown,
  context: RpcHandlerContext,
): JsonRpcResponse | undefined {
  if (!isRecord(request))
    return errorResponse(null, 'INVALID_REQUEST', 'a request must be an object', { path: '' });
  const id = request.id;
  const responseId = isJsonRpcId(id) ? id : null;
  if (request.jsonrpc !== '2.0')
    return errorResponse(responseId, 'INVALID_REQUEST', 'jsonrpc must be "2.0"', {
      path: '/jsonrpc',
    });
  if (id !== undefined && !isJsonRpcId(id)) {
    return errorResponse(null, 'INVALID_REQUEST', 'id must be a string, a number or null', {
      path: '/id',
    });
  }
  if (typeof request.method !== 'string')
    return errorResponse(responseId, 'INVALID_REQUEST', 'method must be a string', {
      path: '/method',
    });
  if (request.params !== undefined && !isRecord(request.params) && !Array.isArray(request.params)) {
    return errorResponse(responseId, 'INVALID_REQUEST', 'params must be an object or an array', {
      path: '/params',
    });
  }
  // A request without an id is a notification: it is processed but never answered, not even with an error.
  const answer = (response: JsonRpcResponse): JsonRpcResponse | undefined =>
    'id' in request ? response : undefined;
  const method = request.method;
  if (
    method !== RPC_METHODS.action &&
    method !== RPC_METHODS.error &&
    method !== RPC_METHODS.disconnect
  ) {
    return answer(errorResponse(responseId, 'METHOD_NOT_FOUND', JSON.stringify(method)));
  }
  const params = readParams(method, request.params);
  if (!params.ok) {
    const data: Record<string, unknown> = { path: params.path };
    if (params.issues) data.issues = params.issues;
    return answer(
      errorResponse(
        responseId,
        'INVALID_PARAMS',
        `${params.path || '/params'}: ${params.detail}`,
        data,
      ),
    );
  }
  const session = context.registry.get(params.connectionId);
  if (!session || session.closed) {
    return answer(
      errorResponse(responseId, 'CONNECTION_NOT_FOUND', undefined, {
        connectionId: params.connectionId,
      }),
    );
  }
  if (!context.isSamePrincipal(session.principal, principal)) {
    return answer(
      errorResponse(responseId, 'FORBIDDEN', 'the connection belongs to another principal'),
    );
  }
  if (!params.message) {
    session.close('client-closed');
    return answer({ jsonrpc: '2.0', id: responseId, result: { closed: true } });
  }
  try {
    // The JSON-RPC id is the idempotency key: a retried request is accepted once.
    const requestId = id === undefined ? undefined : JSON.stringify(id);
    const { accepted } = session.receive(params.message, params.metadata, { requestId });
    const result: RpcAcceptedResult = accepted
      ? { accepted: true }
      : { accepted: true, duplicate: true };
    return answer({ jsonrpc: '2.0', id: responseId, result });
  } catch (error) {
    return answer(
      errorResponse(
        responseId,
        rpcErrorNameOf(error),
        error instanceof Error ? error.message : undefined,
      ),
    );
  }
}

function readParams(method: string, params: unknown): ParamsResult {
  if (!isRecord(params))
    return { ok: false, detail: 'must be an object (params by name)', path: '/params' };
  const connectionId = params.connectionId;
  if (typeof connectionId !== 'string')
    return { ok: false, detail: 'must be a string', path: '/params/connectionId' };
  if (!isConnectionId(connectionId)) {
    return {
      ok: false,
      detail: 'must be a connection id (22 base64url characters)',
      path: '/params/connectionId',
    };
  }
  if (method === RPC_METHODS.disconnect) return { ok: true, connectionId };
  const kind = method === RPC_METHODS.action ? 'action' : 'error';
  if (!(kind in params)) return { ok: false, detail: 'is required', path: `/params/${kind}` };
  const message = { version: 'v0.9', [kind]: params[kind] };
  const issues = validateClientMessage(message);
  if (issues.length > 0) {
    const located = issues.map((issue) => ({
      ...issue,
      path: `/params${issue.path.startsWith(`/${kind}`) ? issue.path : `/${kind}`}`,
    }));
    const first = located[0]!;
    return { ok: false, detail: first.message, path: first.path, issues: located };
  }
  const metadata = params.metadata;
  if (metadata !== undefined) {
    if (!isRecord(metadata))
      return { ok: false, detail: 'must be an object', path: '/params/metadata' };
    const checks: Array<[string, (value: unknown) => ValidationIssue[]]> = [
      ['a2uiClientCapabilities', validateClientCapabilities],
      ['a2uiClientDataModel', validateClientDataModel],
    ];
    for (const [key, validate] of checks) {
      if (metadata[key] === undefined) continue;
      const found = validate(metadata[key]);
      if (found.length > 0) {
        const located = found.map((issue) => ({
          ...issue,
          path: `/params/metadata/${key}${issue.path}`,
        }));
        return { ok: false, detail: located[0]!.message, path: located[0]!.path, issues: located };
      }
    }
  }
  return {
    ok: true,
    connectionId,
    message: message as unknown as ClientMessage,
    metadata: metadata as ClientMessageMetadata | undefined,
  };
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
