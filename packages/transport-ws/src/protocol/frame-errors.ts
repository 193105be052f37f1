/**
 * `error` control frames ⇄ `A2uiError`, in both directions: the server reports a refused client
 * frame with the `A2uiError` code the session host raised (`docs/errors.md`), the client turns it
 * back into the same `A2uiError`.
 */
import { A2uiError, type A2uiErrorCode } from '@a2ui-ts/core';
import type { ErrorFrameBody } from './wire.js';

/** Codes an `error` frame carries. */
export const ERROR_FRAME_CODES: readonly A2uiErrorCode[] = [
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'MESSAGE_TOO_LARGE',
  'CONNECTION_CLOSED',
  'FORBIDDEN',
  'LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
];

/** Where a frame's content sits, so that the host's JSON Pointers point into the frame itself. */
export type FrameShape =
  /** `{"id","message","metadata"}`: the message's fields are under `/message`. */
  | 'envelope'
  /** A bare v0.9 client message: the frame is the message. */
  | 'bare'
  /** A control frame, or a frame that is not one of the above. */
  | 'frame';

/**
 * The session host's paths point into `{action|error, metadata}`; this maps one into the frame.
 * `/metadata…` is the same in an envelope; everything else of the message is under `/message`.
 */
function framePath(path: string, shape: FrameShape): string {
  if (shape !== 'envelope' || path.startsWith('/metadata')) return path;
  return `/message${path}`;
}

/**
 * The body of the `error` frame for `error`, raised while handling a frame of `shape`. Anything
 * that is not an `A2uiError` is an `INTERNAL_ERROR` whose message hides the original.
 *
 * @example
 * ```ts
 * toErrorFrameBody(new A2uiError('VALIDATION_FAILED', 'required', { path: '/action/name' }), 'envelope');
 * // { code: 'VALIDATION_FAILED', message: 'required', path: '/message/action/name' }
 * ```
 */
export function toErrorFrameBody(error: unknown, shape: FrameShape): ErrorFrameBody {
  if (!A2uiError.isInstance(error))
    return { code: 'INTERNAL_ERROR', message: 'The server failed to handle the frame.' };
  const body: ErrorFrameBody = { code: error.code, message: error.message };
  const data = error.data ?? {};
  if (data.field === 'requestId') body.path = '/id';
  else if (error.path !== undefined) body.path = framePath(error.path, shape);
  if (Array.isArray(data.issues)) {
    body.issues = (data.issues as Array<{ path?: unknown }>).map((issue) =>
      typeof issue.path === 'string' ? { ...issue, path: framePath(issue.path, shape) } : issue,
    );
  }
  if (typeof data.retryAfterMs === 'number') body.retryAfterMs = data.retryAfterMs;
  if (error.code === 'LIMIT_EXCEEDED' && typeof data.reason === 'string') body.reason = data.reason;
  return body;
}

/**
 * The `A2uiError` an `error` frame reports (client side): its code (`TRANSPORT_ERROR` for a code
 * this version does not know, kept as `data.code`), `path`, and `data` with `issues` and
 * `retryAfterMs`.
 */
export function fromErrorFrameBody(body: unknown): A2uiError {
  const record =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  const code = typeof record?.code === 'string' ? record.code : 'TRANSPORT_ERROR';
  const known = (ERROR_FRAME_CODES as readonly string[]).includes(code);
  const message =
    typeof record?.message === 'string' ? record.message : 'The server refused the frame.';
  const data: Record<string, unknown> = {};
  if (!known) data.code = code;
  if (Array.isArray(record?.issues)) data.issues = record.issues;
  if (typeof record?.retryAfterMs === 'number') data.retryAfterMs = record.retryAfterMs;
  if (typeof record?.reason === 'string') data.reason = record.reason;
  return new A2uiError(known ? (code as A2uiErrorCode) : 'TRANSPORT_ERROR', message, {
    path: typeof record?.path === 'string' ? record.path : undefined,
    data,
  });
}
