/**
 * The one table that maps `A2uiError` codes to JSON-RPC error codes and HTTP statuses, in both
 * directions: the server answers with it, the client turns answers back into `A2uiError`s.
 * `docs/errors.md` ("SSE + JSON-RPC") documents it.
 */
import { A2uiError, type A2uiErrorCode } from '@a2ui-ts/core';
import type { JsonRpcErrorObject } from './wire.js';

/** Every error this binding answers with. */
export type RpcErrorName =
  | 'PARSE_ERROR'
  | 'INVALID_REQUEST'
  | 'METHOD_NOT_FOUND'
  | 'INVALID_PARAMS'
  | 'INTERNAL_ERROR'
  | 'CONNECTION_NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNAUTHORIZED'
  | 'REQUEST_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'MESSAGE_TOO_LARGE'
  | 'SERVER_BUSY'
  | 'REQUEST_TIMEOUT';

/** One row of {@link RPC_ERRORS}. */
export interface RpcErrorRow {
  /** JSON-RPC `error.code`. */
  readonly code: number;
  /** JSON-RPC `error.message` (a detail may follow after `": "`). */
  readonly message: string;
  /** HTTP status of a response whose only content is this error. */
  readonly httpStatus: number;
  /** What the client raises when it receives this error. */
  readonly a2uiCode: A2uiErrorCode;
}

/**
 * JSON-RPC errors of `POST {base}/rpc`. Errors inside a valid JSON-RPC exchange travel with
 * HTTP 200 (a batch may mix results and errors); only errors about the HTTP request as a whole
 * (authentication, body size, media type) change the status.
 */
export const RPC_ERRORS: Readonly<Record<RpcErrorName, RpcErrorRow>> = {
  /** The body is not JSON (or not UTF-8, or empty): core's `JSON_REQUEST_FAILURES`, HTTP 400. */
  PARSE_ERROR: { code: -32700, message: 'Parse error', httpStatus: 400, a2uiCode: 'INVALID_JSON' },
  INVALID_REQUEST: {
    code: -32600,
    message: 'Invalid Request',
    httpStatus: 200,
    a2uiCode: 'TRANSPORT_ERROR',
  },
  METHOD_NOT_FOUND: {
    code: -32601,
    message: 'Method not found',
    httpStatus: 200,
    a2uiCode: 'TRANSPORT_ERROR',
  },
  INVALID_PARAMS: {
    code: -32602,
    message: 'Invalid params',
    httpStatus: 200,
    a2uiCode: 'VALIDATION_FAILED',
  },
  INTERNAL_ERROR: {
    code: -32603,
    message: 'Internal error',
    httpStatus: 200,
    a2uiCode: 'INTERNAL_ERROR',
  },
  CONNECTION_NOT_FOUND: {
    code: -32001,
    message: 'Unknown or expired connection',
    httpStatus: 200,
    a2uiCode: 'CONNECTION_CLOSED',
  },
  FORBIDDEN: { code: -32002, message: 'Forbidden', httpStatus: 200, a2uiCode: 'FORBIDDEN' },
  UNAUTHORIZED: {
    code: -32003,
    message: 'Unauthorized',
    httpStatus: 401,
    a2uiCode: 'UNAUTHORIZED',
  },
  REQUEST_TOO_LARGE: {
    code: -32600,
    message: 'Request too large',
    httpStatus: 413,
    a2uiCode: 'MESSAGE_TOO_LARGE',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    code: -32600,
    message: 'Unsupported media type',
    httpStatus: 415,
    a2uiCode: 'TRANSPORT_ERROR',
  },
  /** One client message of a batch is larger than the server's `maxClientMessageBytes`. */
  MESSAGE_TOO_LARGE: {
    code: -32004,
    message: 'Message too large',
    httpStatus: 200,
    a2uiCode: 'MESSAGE_TOO_LARGE',
  },
  /**
   * The connection's agent has `maxQueuedClientMessages` waiting: come back after
   * `data.retryAfterMs`. HTTP 503 with `Retry-After` when no request of the call was accepted.
   */
  SERVER_BUSY: {
    code: -32005,
    message: 'Server busy',
    httpStatus: 503,
    a2uiCode: 'LIMIT_EXCEEDED',
  },
  /** The body did not arrive within `bodyTimeoutMs`. */
  REQUEST_TIMEOUT: {
    code: -32006,
    message: 'Request timeout',
    httpStatus: 408,
    a2uiCode: 'TIMEOUT',
  },
};

/** Which row answers an `A2uiError` raised while handling a request. */
const FROM_A2UI_CODE: Partial<Record<A2uiErrorCode, RpcErrorName>> = {
  INVALID_JSON: 'PARSE_ERROR',
  VALIDATION_FAILED: 'INVALID_PARAMS',
  // A message of a version the connection did not negotiate (a v1.0 action or function call on a
  // v0.9 connection): the params are not valid on it.
  NOT_SUPPORTED: 'INVALID_PARAMS',
  CONNECTION_CLOSED: 'CONNECTION_NOT_FOUND',
  FORBIDDEN: 'FORBIDDEN',
  UNAUTHORIZED: 'UNAUTHORIZED',
  MESSAGE_TOO_LARGE: 'MESSAGE_TOO_LARGE',
  LIMIT_EXCEEDED: 'SERVER_BUSY',
  // The server stopped handling the request before it knew the outcome (say, a router gave up
  // on the owner): not a failure of the request, which the client retries with the same id.
  ABORTED: 'SERVER_BUSY',
  TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Which row answers a request core's `readJsonRequest` refused, by the refusal's code (its
 * status is the refusal's, from core's `JSON_REQUEST_FAILURES`).
 */
const FROM_REFUSAL_CODE: Readonly<Record<string, RpcErrorName>> = {
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  MESSAGE_TOO_LARGE: 'REQUEST_TOO_LARGE',
  TIMEOUT: 'REQUEST_TIMEOUT',
  INVALID_JSON: 'PARSE_ERROR',
  // The client left mid-body: nobody reads the answer.
  ABORTED: 'INVALID_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
};

/**
 * The row name of a request refused before it was read (`readJsonRequest`'s refusal `code`).
 *
 * @example
 * ```ts
 * rpcErrorNameOfRefusal('MESSAGE_TOO_LARGE'); // 'REQUEST_TOO_LARGE'
 * ```
 */
export function rpcErrorNameOfRefusal(code: string): RpcErrorName {
  return FROM_REFUSAL_CODE[code] ?? 'INTERNAL_ERROR';
}

/** Options of {@link toRpcError}. */
export interface ToRpcErrorOptions {
  /** Appended to the standard message after `": "`. */
  detail?: string;
  /** `error.data`, e.g. `{ path }` with the JSON Pointer of the bad field. */
  data?: unknown;
}

/**
 * The JSON-RPC error object of row `name` of {@link RPC_ERRORS}.
 *
 * @example
 * ```ts
 * toRpcError('INVALID_PARAMS', { detail: '/params/connectionId: must be a string', data: { path: '/params/connectionId' } });
 * // { code: -32602, message: 'Invalid params: /params/connectionId: must be a string', data: { path: '/params/connectionId' } }
 * ```
 */
export function toRpcError(
  name: RpcErrorName,
  options: ToRpcErrorOptions = {},
): JsonRpcErrorObject {
  const row = RPC_ERRORS[name];
  const error: JsonRpcErrorObject = {
    code: row.code,
    message: options.detail ? `${row.message}: ${options.detail}` : row.message,
  };
  if (options.data !== undefined) error.data = options.data;
  return error;
}

/**
 * The row name for an error thrown while handling a request: mapped from an `A2uiError`'s code,
 * `INTERNAL_ERROR` for anything else.
 *
 * @example
 * ```ts
 * rpcErrorNameOf(new A2uiError('CONNECTION_CLOSED', 'gone')); // 'CONNECTION_NOT_FOUND'
 * ```
 */
export function rpcErrorNameOf(error: unknown): RpcErrorName {
  return (A2uiError.isInstance(error) && FROM_A2UI_CODE[error.code]) || 'INTERNAL_ERROR';
}

/**
 * Turns a JSON-RPC error answer back into an `A2uiError` (client side). `httpStatus` tells apart
 * rows that share a JSON-RPC code; the JSON Pointer of an `Invalid params` error becomes `path`,
 * and `data` keeps the JSON-RPC code as `rpcCode` beside the error's own data.
 *
 * @param error - the `error` member of a JSON-RPC response
 * @param options - `httpStatus`: the status of the HTTP response that carried it (default 200)
 * @returns an `A2uiError` with the code of the matching {@link RPC_ERRORS} row (`TRANSPORT_ERROR` for unknown codes)
 *
 * @example
 * ```ts
 * fromRpcError({ code: -32602, message: 'Invalid params', data: { path: '/params/action/name' } });
 * // A2uiError { code: 'VALIDATION_FAILED', path: '/params/action/name', data: { rpcCode: -32602, path: … } }
 * ```
 */
export function fromRpcError(
  error: JsonRpcErrorObject,
  options: { httpStatus?: number } = {},
): A2uiError {
  const httpStatus = options.httpStatus ?? 200;
  const rows = Object.values(RPC_ERRORS);
  const row =
    rows.find(
      (candidate) => candidate.code === error.code && candidate.httpStatus === httpStatus,
    ) ?? rows.find((candidate) => candidate.code === error.code && candidate.httpStatus === 200);
  const data =
    typeof error.data === 'object' && error.data !== null
      ? (error.data as Record<string, unknown>)
      : undefined;
  const path = typeof data?.path === 'string' ? data.path : undefined;
  return new A2uiError(
    row?.a2uiCode ?? 'TRANSPORT_ERROR',
    `JSON-RPC error ${error.code}: ${error.message}`,
    {
      path,
      data: { rpcCode: error.code, ...(data ?? {}) },
    },
  );
}
