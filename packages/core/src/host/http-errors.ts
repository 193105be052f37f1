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
  /**
   * @param details - more members of the body's `error` beside `code` and `message` (e.g. a
   *   shutdown's `reason` and `retryAfterMs`)
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  /**
   * `error` as a refusal: itself, or the status, code, message, headers and the body's other
   * members that {@link toHttpError} gives it.
   */
  static of(error: unknown): HttpRefusal {
    if (error instanceof HttpRefusal) return error;
    const http = toHttpError(error);
    const { code, message, ...details } = http.body.error;
    return new HttpRefusal(http.status, code, message, { ...http.headers }, details);
  }
}

/**
 * The refusal of a request a server cannot serve because it shuts down (`close()` was called):
 * HTTP 503 `CONNECTION_CLOSED` with `Retry-After`, and `reason: "server-closed"` with
 * `retryAfterMs` in the body ({@link toHttpError}) — the hint its WebSocket 1012 close and SSE
 * `close` event carry — so that its client comes back, to the restarted server, after that long.
 *
 * @param retryAfterMs - the server's restart hint, in milliseconds
 *
 * @example
 * ```ts
 * if (closing) throw shutdownRefusal(1_000); // 503, Retry-After: 1, {"error":{…,"retryAfterMs":1000}}
 * ```
 */
export function shutdownRefusal(retryAfterMs: number): A2uiError {
  return new A2uiError(
    'CONNECTION_CLOSED',
    'The server is shutting down; come back after retryAfterMs.',
    { data: { httpStatus: 503, reason: 'server-closed', retryAfterMs } },
  );
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
 * `{"error": {"code", "message", "path"?, "issues"?, "reason"?, "retryAfterMs"?}}` (`reason`: why
 * a `LIMIT_EXCEEDED` refusal asks to come back later, e.g. `store-unavailable`; or `server-closed`
 * with `data.retryAfterMs` for a request refused while the server shuts down, whose body then
 * carries `retryAfterMs` too). An {@link HttpRefusal} is answered as it
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
      body: { error: { code: error.code, message: error.message, ...error.details } },
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
  // A version refusal (406) names what the server speaks, so the client can say what to upgrade.
  if (known.code === 'NOT_SUPPORTED' && Array.isArray(data.supported))
    body.error.a2uiVersions = data.supported;
  if (known.code === 'LIMIT_EXCEEDED' && typeof data.reason === 'string')
    body.error.reason = data.reason;
  // A shutdown's refusal says so, with its hint to the millisecond (as WebSocket's 1012 close
  // and SSE's `close` event do), since `Retry-After` rounds it up to whole seconds.
  if (data.reason === 'server-closed') {
    body.error.reason = data.reason;
    if (typeof data.retryAfterMs === 'number') body.error.retryAfterMs = data.retryAfterMs;
  }
  return { status, headers, body };
}
