/**
 * How A2UI errors travel over A2A JSON-RPC, in one table each way (`docs/errors.md`, "A2A"). The
 * server turns an `A2uiError` into an `@a2a-js/sdk` error, which the SDK writes as a JSON-RPC error
 * (v1.0: `data: [ErrorInfo]` whose `metadata.a2uiCode` names the A2UI code; v0.3: `data.a2uiCode`);
 * the client reads either back into an `A2uiError` with the same code.
 */

import {
  A2A_ERROR_CODE,
  JsonRpcRequestMalformedError,
  JsonRpcTransportError,
  JsonRpcUnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { A2uiError, type A2uiErrorCode, isRecord } from '@a2ui-ts/core';

/** One row: the JSON-RPC code and HTTP status a refusal with an A2UI code gets. */
export interface A2aErrorRow {
  readonly rpcCode: number;
  /** 200 for a JSON-RPC error in a normal answer (A2A's convention), else the HTTP status. */
  readonly httpStatus: number;
}

/** A2UI error code → JSON-RPC code and HTTP status of the A2A server binding. */
export const A2UI_TO_A2A_ERRORS: Readonly<Partial<Record<A2uiErrorCode, A2aErrorRow>>> = {
  VALIDATION_FAILED: { rpcCode: A2A_ERROR_CODE.INVALID_PARAMS, httpStatus: 200 },
  INVALID_JSON: { rpcCode: A2A_ERROR_CODE.INVALID_PARAMS, httpStatus: 200 },
  INVALID_PATH: { rpcCode: A2A_ERROR_CODE.INVALID_PARAMS, httpStatus: 200 },
  MESSAGE_TOO_LARGE: { rpcCode: A2A_ERROR_CODE.INVALID_PARAMS, httpStatus: 200 },
  NOT_SUPPORTED: { rpcCode: A2A_ERROR_CODE.UNSUPPORTED_OPERATION, httpStatus: 200 },
  UNAUTHORIZED: { rpcCode: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 401 },
  FORBIDDEN: { rpcCode: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 403 },
  TIMEOUT: { rpcCode: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 408 },
  /** Session caps, a busy agent: come back after `Retry-After`. */
  LIMIT_EXCEEDED: { rpcCode: A2A_ERROR_CODE.INTERNAL_ERROR, httpStatus: 503 },
  /** The server is shutting down. */
  CONNECTION_CLOSED: { rpcCode: A2A_ERROR_CODE.INTERNAL_ERROR, httpStatus: 503 },
  INTERNAL_ERROR: { rpcCode: A2A_ERROR_CODE.INTERNAL_ERROR, httpStatus: 500 },
};

/**
 * The JSON-RPC code of a request core's `readJsonRequest` refused whose code A2A names itself
 * (the SDK's own answers: `ContentTypeNotSupportedError`, a parse error); the others go through
 * {@link A2UI_TO_A2A_ERRORS}. The HTTP status is always core's (`JSON_REQUEST_FAILURES`).
 */
export const A2A_CODE_OF_REFUSAL: Readonly<Record<string, number>> = {
  UNSUPPORTED_MEDIA_TYPE: A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED,
  INVALID_JSON: A2A_ERROR_CODE.PARSE_ERROR,
};

/** JSON-RPC code of an A2A answer → the A2UI code the client reports. */
export const A2A_TO_A2UI_ERRORS: Readonly<Record<number, A2uiErrorCode>> = {
  [A2A_ERROR_CODE.PARSE_ERROR]: 'TRANSPORT_ERROR',
  [A2A_ERROR_CODE.INVALID_REQUEST]: 'TRANSPORT_ERROR',
  [A2A_ERROR_CODE.METHOD_NOT_FOUND]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.INVALID_PARAMS]: 'VALIDATION_FAILED',
  [A2A_ERROR_CODE.INTERNAL_ERROR]: 'INTERNAL_ERROR',
  /** The task (and with it the session) is unknown: the client starts a new context. */
  [A2A_ERROR_CODE.TASK_NOT_FOUND]: 'CONNECTION_CLOSED',
  [A2A_ERROR_CODE.TASK_NOT_CANCELABLE]: 'CONNECTION_CLOSED',
  [A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.UNSUPPORTED_OPERATION]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.INVALID_AGENT_RESPONSE]: 'TRANSPORT_ERROR',
  [A2A_ERROR_CODE.EXTENDED_CARD_NOT_CONFIGURED]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.EXTENSION_SUPPORT_REQUIRED]: 'NOT_SUPPORTED',
  [A2A_ERROR_CODE.VERSION_NOT_SUPPORTED]: 'NOT_SUPPORTED',
};

/** The A2UI detail a JSON-RPC error carries: `data` on v0.3, `ErrorInfo.metadata` on v1.0. */
export interface A2uiErrorDetail {
  a2uiCode: A2uiErrorCode;
  path?: string;
  retryAfterMs?: number;
  issues?: unknown[];
}

/** The HTTP status and retry hint of a refusal, for the binding's route. */
export function a2aErrorRowOf(error: A2uiError): A2aErrorRow {
  const httpStatus = error.data?.httpStatus;
  const row = A2UI_TO_A2A_ERRORS[error.code] ?? A2UI_TO_A2A_ERRORS.INTERNAL_ERROR!;
  return typeof httpStatus === 'number' ? { ...row, httpStatus } : row;
}

/** The message of an unexpected failure, the same whatever the exception said. */
export const INTERNAL_ERROR_TEXT = 'The server failed to handle the request.';

/**
 * The `@a2a-js/sdk` error a request handler throws for `error`, so the SDK answers with the code of
 * {@link A2UI_TO_A2A_ERRORS} and the A2UI detail (`a2uiCode`, `path`, `issues`, `retryAfterMs`).
 *
 * @example
 * ```ts
 * throw toA2aError(new A2uiError('VALIDATION_FAILED', 'bad action', { path: '/action/name' }));
 * ```
 */
export function toA2aError(error: unknown): Error {
  const known = A2uiError.isInstance(error)
    ? error
    : new A2uiError('INTERNAL_ERROR', INTERNAL_ERROR_TEXT);
  const detail: A2uiErrorDetail = { a2uiCode: known.code };
  if (known.path !== undefined) detail.path = known.path;
  if (typeof known.data?.retryAfterMs === 'number') detail.retryAfterMs = known.data.retryAfterMs;
  if (Array.isArray(known.data?.issues)) detail.issues = known.data.issues;
  const metadata: Record<string, string> = { a2uiCode: known.code };
  if (detail.path !== undefined) metadata.path = detail.path;
  if (detail.retryAfterMs !== undefined) metadata.retryAfterMs = String(detail.retryAfterMs);
  const { rpcCode } = a2aErrorRowOf(known);
  const data = detail as unknown as Record<string, unknown>;
  const options = { message: known.message, data, metadata, envelopeCode: rpcCode };
  if (rpcCode === A2A_ERROR_CODE.INVALID_PARAMS) return new JsonRpcRequestMalformedError(options);
  if (rpcCode === A2A_ERROR_CODE.UNSUPPORTED_OPERATION)
    return new JsonRpcUnsupportedOperationError(options);
  return new JsonRpcTransportError({
    jsonrpc: '2.0',
    id: null,
    error: { code: rpcCode, message: known.message, data },
  });
}

/** Reads the A2UI detail out of a JSON-RPC error's `data` (v0.3 object or v1.0 `ErrorInfo` list). */
export function readA2uiErrorDetail(data: unknown): Partial<A2uiErrorDetail> {
  if (isRecord(data) && typeof data.a2uiCode === 'string') return data as Partial<A2uiErrorDetail>;
  if (!Array.isArray(data)) return {};
  for (const entry of data) {
    const metadata = isRecord(entry) && isRecord(entry.metadata) ? entry.metadata : undefined;
    if (typeof metadata?.a2uiCode !== 'string') continue;
    const detail: Partial<A2uiErrorDetail> = { a2uiCode: metadata.a2uiCode as A2uiErrorCode };
    if (typeof metadata.path === 'string') detail.path = metadata.path;
    const retry = Number(metadata.retryAfterMs);
    if (Number.isFinite(retry)) detail.retryAfterMs = retry;
    return detail;
  }
  return {};
}

/**
 * The `A2uiError` for an A2A JSON-RPC error (an `@a2a-js/sdk` error thrown by its client): the A2UI
 * code the server named, else the code of {@link A2A_TO_A2UI_ERRORS}.
 */
export function fromA2aError(error: unknown): A2uiError {
  if (A2uiError.isInstance(error)) return error;
  const record = isRecord(error) ? error : {};
  const rpcCode = typeof record.envelopeCode === 'number' ? record.envelopeCode : undefined;
  const detail = readA2uiErrorDetail(record.data);
  const code =
    detail.a2uiCode ??
    (rpcCode === undefined ? 'TRANSPORT_ERROR' : A2A_TO_A2UI_ERRORS[rpcCode]) ??
    'TRANSPORT_ERROR';
  const message = error instanceof Error ? error.message : String(error);
  const data: Record<string, unknown> = {};
  if (rpcCode !== undefined) data.rpcCode = rpcCode;
  if (detail.retryAfterMs !== undefined) data.retryAfterMs = detail.retryAfterMs;
  if (detail.issues !== undefined) data.issues = detail.issues;
  return new A2uiError(code, message, { cause: error, path: detail.path, data });
}
