/**
 * The one table from `A2uiError` codes to HTTP statuses, for every HTTP binding (SSE's stream
 * route, REST, AG-UI, A2A's mount): a refused request gets this status and a JSON body
 * `{"error": {"code", "message", …}}` whose code is documented in `docs/errors.md`.
 */
import { A2uiError, type A2uiErrorCode } from '../errors/a2ui-error.js';

/** HTTP status of a request refused with each code. */
export const HTTP_STATUS_BY_CODE: Readonly<Partial<Record<A2uiErrorCode, number>>> = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_PATH: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** An unknown or expired connection. */
  CONNECTION_CLOSED: 404,
  TIMEOUT: 408,
  MESSAGE_TOO_LARGE: 413,
  /** A cap on what the server holds (sessions, a busy agent): come back later. */
  LIMIT_EXCEEDED: 503,
  NOT_SUPPORTED: 501,
  ABORTED: 499,
  TRANSPORT_ERROR: 502,
  INTERNAL_ERROR: 500,
};

/**
 * A refusal with a status and a code of its own, beside {@link HTTP_STATUS_BY_CODE}: a binding's
 * HTTP-level refusals (`UNSUPPORTED_MEDIA_TYPE` 415, `METHOD_NOT_ALLOWED` 405 with `Allow`, a
 * WebSocket handshake's 400 with `Sec-WebSocket-Version`). {@link toHttpError} answers it as it
 * is: its status, its headers, and the body `{"error": {"code", "message"}}`.
 *
 * @example
 * ```ts
 * throw new HttpRefusal(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' });
 * ```
 */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** `error` as a refusal: itself, or the status, code, message and headers {@link toHttpError} gives it. */
  static of(error: unknown): HttpRefusal {
    if (error instanceof HttpRefusal) return error;
    const http = toHttpError(error);
    return new HttpRefusal(http.status, http.body.error.code, http.body.error.message, {
      ...http.headers,
    });
  }
}

/** A refusal ready to send: status, headers and the JSON body. */
export interface HttpErrorResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: { error: { code: string; message: string; [field: string]: unknown } };
}

/**
 * The HTTP refusal for `error`: the status of {@link HTTP_STATUS_BY_CODE} (or `data.httpStatus`
 * when the error names one), `Retry-After` in whole seconds from `data.retryAfterMs`, and the body
 * `{"error": {"code", "message", "path"?, "issues"?, "reason"?}}` (`reason`: why a
 * `LIMIT_EXCEEDED` refusal asks to come back later, e.g. `store-unavailable`). An {@link HttpRefusal} is answered as it
 * is; anything else that is not an `A2uiError` is an `INTERNAL_ERROR` whose message hides the
 * original.
 *
 * @example
 * ```ts
 * const refusal = toHttpError(new A2uiError('LIMIT_EXCEEDED', 'busy', { data: { retryAfterMs: 1000 } }));
 * // { status: 503, headers: { 'Retry-After': '1' }, body: { error: { code: 'LIMIT_EXCEEDED', … } } }
 * return c.json(refusal.body, refusal.status, refusal.headers);
 * ```
 */
export function toHttpError(error: unknown): HttpErrorResponse {
  if (error instanceof HttpRefusal)
    return {
      status: error.status,
      headers: { ...error.headers },
      body: { error: { code: error.code, message: error.message } },
    };
  const known = A2uiError.isInstance(error)
    ? error
    : new A2uiError('INTERNAL_ERROR', 'The server failed to handle the request.');
  const data = known.data ?? {};
  const status =
    typeof data.httpStatus === 'number'
      ? data.httpStatus
      : (HTTP_STATUS_BY_CODE[known.code] ?? 500);
  const headers: Record<string, string> = {};
  const body: HttpErrorResponse['body'] = { error: { code: known.code, message: known.message } };
  if (known.path !== undefined) body.error.path = known.path;
  if (typeof data.retryAfterMs === 'number')
    headers['Retry-After'] = String(Math.max(1, Math.ceil(data.retryAfterMs / 1000)));
  if (Array.isArray(data.issues)) body.error.issues = data.issues;
  if (known.code === 'LIMIT_EXCEEDED' && typeof data.reason === 'string')
    body.error.reason = data.reason;
  return { status, headers, body };
}
