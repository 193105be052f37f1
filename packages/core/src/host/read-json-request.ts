/**
 * How every HTTP binding (SSE + JSON-RPC's `POST /rpc`, REST, A2A's JSON-RPC endpoint, AG-UI)
 * reads a JSON POST: media type, then authentication, then the body within a size and a deadline,
 * then JSON. Each way a request can fail has one row in {@link JSON_REQUEST_FAILURES}: the same
 * HTTP status and the same code and message on every binding, which each writes in its own error
 * shape (`docs/session-host.md`, "Reading a JSON request").
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { HttpRefusal } from './http-errors.js';
import type { AuthenticationResult } from './principal.js';
import { DEFAULT_BODY_TIMEOUT_MS, readRequestBody } from './read-request-body.js';

/** Why a JSON request body was refused; a row of {@link JSON_REQUEST_FAILURES}. */
export type JsonRequestFailure =
  | 'unsupported-media-type'
  | 'too-large'
  | 'timeout'
  | 'aborted'
  | 'invalid-utf8'
  | 'empty-body'
  | 'invalid-json';

/** One row of {@link JSON_REQUEST_FAILURES}. */
export interface JsonRequestFailureRow {
  /** HTTP status of the answer, on every binding. */
  readonly status: number;
  /** `error.code` of the answer: an `A2uiError` code, or `UNSUPPORTED_MEDIA_TYPE`. */
  readonly code:
    | 'UNSUPPORTED_MEDIA_TYPE'
    | 'MESSAGE_TOO_LARGE'
    | 'TIMEOUT'
    | 'ABORTED'
    | 'INVALID_JSON';
  /** `error.message`: fixed text (never a parser's or runtime's own), given the limits. */
  readonly message: (limits: { maxBytes: number; timeoutMs: number }) => string;
}

/**
 * The one table of refused JSON requests. A missing `Content-Type` is refused like a wrong one:
 * requiring `application/json` forces a CORS preflight, so a cross-site page cannot post (a
 * bodied `fetch` without a type needs none), and every A2A SDK client, `curl --json` and our own
 * clients send it. A client that goes away mid-body gets 499 (nobody reads it; logs tell it
 * from a client's mistake). An empty body is not JSON (RFC 8259).
 */
export const JSON_REQUEST_FAILURES: Readonly<Record<JsonRequestFailure, JsonRequestFailureRow>> = {
  'unsupported-media-type': {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: () => 'Content-Type must be application/json.',
  },
  'too-large': {
    status: 413,
    code: 'MESSAGE_TOO_LARGE',
    message: ({ maxBytes }) => `The body is larger than ${maxBytes} bytes.`,
  },
  timeout: {
    status: 408,
    code: 'TIMEOUT',
    message: ({ timeoutMs }) => `The body did not arrive within ${timeoutMs} ms.`,
  },
  aborted: {
    status: 499,
    code: 'ABORTED',
    message: () => 'The client closed the request before its body ended.',
  },
  'invalid-utf8': {
    status: 400,
    code: 'INVALID_JSON',
    message: () => 'The body is not valid UTF-8.',
  },
  'empty-body': {
    status: 400,
    code: 'INVALID_JSON',
    message: () => 'The body is empty; send JSON.',
  },
  'invalid-json': {
    status: 400,
    code: 'INVALID_JSON',
    message: () => 'The body is not valid JSON.',
  },
};

/** Limits and hooks of {@link readJsonRequest}. */
export interface JsonRequestLimits {
  /** Largest body accepted, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Deadline for the whole body, in milliseconds; 0 disables it. @default 10000 */
  readonly timeoutMs?: number;
  /**
   * Authenticates the request once its media type is right, before its body is read: the
   * session host (its `authenticate`). @default every request accepted with principal `undefined`
   */
  readonly host?: { authenticate(request: Request): Promise<AuthenticationResult> };
  /** Stops reading (the request's own signal, when the binding wants it). */
  readonly signal?: AbortSignal;
}

/**
 * A refused JSON request: an {@link HttpRefusal} (REST and AG-UI answer it as it is, through
 * `toHttpError`), with the table row it came from and the `A2uiError` it stands for (which a
 * JSON-RPC binding maps to its own error code).
 */
export class JsonRequestRefusal extends HttpRefusal {
  /**
   * The refusal as an `A2uiError` with `data.httpStatus` (the `authenticate` hook's own error for
   * `auth`); `undefined` for `unsupported-media-type`, which no `A2uiError` code names.
   */
  readonly error: A2uiError | undefined;

  /**
   * @param failure - the row of {@link JSON_REQUEST_FAILURES}, or `auth` for a refusal of the
   *   `authenticate` hook (401, 403, 500)
   */
  constructor(
    readonly failure: JsonRequestFailure | 'auth',
    refusal: HttpRefusal,
    error?: A2uiError,
  ) {
    super(refusal.status, refusal.code, refusal.message, refusal.headers, refusal.details);
    this.error = error;
  }
}

/** Outcome of {@link readJsonRequest}. */
export type JsonRequestResult =
  | {
      readonly ok: true;
      readonly principal: unknown;
      /** The parsed body. */
      readonly payload: unknown;
      /** The body's text (a JSON-RPC binding re-reads big numeric ids from it). */
      readonly text: string;
      /** The body's size in UTF-8 bytes. */
      readonly bytes: number;
    }
  | { readonly ok: false; readonly refusal: JsonRequestRefusal };

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a JSON POST: `Content-Type` must be `application/json` (parameters allowed), then
 * the host's `authenticate` runs, then the body is read within `maxBytes` and `timeoutMs` and parsed. A
 * failure is a {@link JsonRequestRefusal} with the row's status, code and message; its `details`
 * carry `maxRequestBytes` for a body too large. A body stream that breaks counts as `aborted`.
 *
 * @param request - the Web-standard request
 * @param limits - `maxBytes`, `timeoutMs` (default 10000), `host`, `signal`
 * @returns the principal, the payload, its text and size; or the refusal
 *
 * @example
 * ```ts
 * const read = await readJsonRequest(c.req.raw, { maxBytes: 1_048_576, host });
 * if (!read.ok) return c.json(toHttpError(read.refusal).body, read.refusal.status as 400);
 * ```
 */
export async function readJsonRequest(
  request: Request,
  limits: JsonRequestLimits,
): Promise<JsonRequestResult> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const refuse = (failure: JsonRequestFailure, details?: Record<string, unknown>) => {
    const { status, code, message: text } = JSON_REQUEST_FAILURES[failure];
    const message = text({ maxBytes: limits.maxBytes, timeoutMs });
    const error =
      code === 'UNSUPPORTED_MEDIA_TYPE'
        ? undefined
        : new A2uiError(code, message, { data: { ...details, httpStatus: status } });
    const http = new HttpRefusal(status, code, message, {}, details);
    return { ok: false, refusal: new JsonRequestRefusal(failure, http, error) } as const;
  };
  if (!JSON_MEDIA_TYPE.test(request.headers.get('content-type') ?? ''))
    return refuse('unsupported-media-type');
  let principal: unknown;
  if (limits.host) {
    const auth = await limits.host.authenticate(request);
    if (!auth.ok) {
      const refusal = new JsonRequestRefusal('auth', HttpRefusal.of(auth.error), auth.error);
      return { ok: false, refusal };
    }
    principal = auth.principal;
  }
  const read = await readRequestBody(request, {
    maxBytes: limits.maxBytes,
    timeoutMs,
    signal: limits.signal,
  }).catch(() => ({ ok: false, reason: 'aborted' }) as const);
  if (!read.ok)
    return read.reason === 'too-large'
      ? refuse('too-large', { maxRequestBytes: limits.maxBytes })
      : refuse(read.reason);
  if (read.text.trim() === '') return refuse('empty-body');
  try {
    return {
      ok: true,
      principal,
      payload: JSON.parse(read.text),
      text: read.text,
      bytes: read.bytes,
    };
  } catch {
    return refuse('invalid-json');
  }
}
