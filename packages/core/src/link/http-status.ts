/**
 * What a client transport makes of an HTTP status it was answered with: whether a retry can fix
 * it, and the error a refusal a retry cannot fix stands for. One rule for every client binding
 * (the SSE stream, REST, A2A, AG-UI, a WebSocket handshake as `ws` reports it).
 */
import { A2uiError } from '../errors/a2ui-error.js';

/**
 * True for the statuses a retry can fix: the server is overloaded or restarting (5xx), the
 * request timed out (408), or it asks the client to slow down (429).
 *
 * @example
 * ```ts
 * if (isRetryableStatus(response.status)) return { kind: 'dropped', reason, retryAfterMs };
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/**
 * The error of a refusal a retry cannot fix: `UNAUTHORIZED` for 401, `FORBIDDEN` for 403,
 * `NOT_SUPPORTED` for 406 (client and server share no A2UI version), `TRANSPORT_ERROR` otherwise; `data.httpStatus` is the status.
 *
 * @param status - the HTTP status
 * @param message - the error's message (say what was refused)
 *
 * @example
 * ```ts
 * return { kind: 'fatal', error: errorOfHttpStatus(401, 'GET /sse answered HTTP 401') };
 * // A2uiError { code: 'UNAUTHORIZED', data: { httpStatus: 401 } }
 * ```
 */
export function errorOfHttpStatus(status: number, message: string): A2uiError {
  const code =
    status === 401
      ? 'UNAUTHORIZED'
      : status === 403
        ? 'FORBIDDEN'
        : status === 406
          ? 'NOT_SUPPORTED'
          : 'TRANSPORT_ERROR';
  return new A2uiError(code, message, { data: { httpStatus: status } });
}
