/**
 * One HTTP exchange with a REST server, as both the transport (`connectRest`) and the one-shot
 * helpers (`restTurn`, `restPoll`) make it: headers, a deadline, a bounded answer, and the
 * mapping of refusals back to `A2uiError` codes.
 */
import {
  A2uiError,
  type A2uiErrorCode,
  type ClientMessage,
  type ClientMessageMetadata,
  describeError,
  toClientMessageParts,
} from '@a2ui-ts/core';
import { HTTP_STATUS_BY_CODE, readRequestBody } from '@a2ui-ts/core/host';
import {
  type HeadersOption,
  parseRetryAfter,
  resolveHeaders,
  tryParseJson,
  withDeadline,
} from '@a2ui-ts/core/link';
import type {
  RestClientMessageRequest,
  RestConnectAnswer,
  RestErrorBody,
  RestMessagesAnswer,
  RestPollAnswer,
} from '../protocol/wire.js';
import { IDEMPOTENCY_KEY_HEADER, REST_PATHS, REST_QUERY } from '../protocol/wire.js';

export type { HeadersOption } from '@a2ui-ts/core/link';

/** Deadline of one request, by default (the transport's `requestTimeoutMs`, a call's `timeoutMs`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Largest answer accepted, by default (`maxResponseBytes`). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8_388_608;

/** How requests are made, shared by every exchange of a client. */
export interface HttpOptions {
  readonly headers?: HeadersOption;
  readonly fetch?: typeof fetch;
  readonly credentials?: RequestCredentials;
  /** Largest answer read, in bytes. */
  readonly maxResponseBytes: number;
}

/** The {@link HttpOptions} of a client's options (`maxResponseBytes` defaulted). */
export function httpOptionsOf(
  options: Omit<HttpOptions, 'maxResponseBytes'> & {
    readonly maxResponseBytes?: number;
  },
): HttpOptions {
  return {
    headers: options.headers,
    fetch: options.fetch,
    credentials: options.credentials,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
}

/** The base URL the routes are appended to (without trailing slashes). */
export function baseUrlOf(url: string | URL): string {
  return String(url).replace(/\/+$/, '');
}

/** The query (with its `?`) of `GET {base}/messages`. */
export function pollQuery(connectionId: string, after: number, waitMs: number): string {
  return `?${REST_QUERY.connectionId}=${encodeURIComponent(connectionId)}&${REST_QUERY.after}=${after}&${REST_QUERY.waitMs}=${waitMs}`;
}

/**
 * A client message as its route and request body: the route names the kind, `version` the
 * envelope version when it is not the kind's default (a v1.0 action or error; core's
 * `toClientMessageParts`).
 */
export function clientMessageRequest(
  connectionId: string,
  message: ClientMessage,
  metadata: ClientMessageMetadata | undefined,
): { readonly path: string; readonly body: RestClientMessageRequest } {
  const { kind, body, version } = toClientMessageParts(message);
  const request: RestClientMessageRequest =
    version === undefined
      ? { connectionId, [kind]: body }
      : { connectionId, version, [kind]: body };
  return { path: REST_PATHS[kind], body: metadata ? { ...request, metadata } : request };
}

/** One exchange: the server's answer, or why there was none. */
export type Exchange =
  | {
      readonly kind: 'answer';
      readonly status: number;
      /** The parsed JSON body (`undefined` when it is not JSON). */
      readonly body: unknown;
      /** How long to wait before asking again, in ms: the error body's `retryAfterMs`, else `Retry-After`. */
      readonly retryAfterMs: number | undefined;
    }
  /** No answer: network error, deadline, or an answer too large to read. */
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Makes one request: `POST` with a JSON body (and an idempotency key), or `GET`.
 *
 * @param url - the full URL
 * @param init - `body` (JSON-encoded here), `idempotencyKey`, `signal`, `timeoutMs`
 */
export async function exchange(
  url: string,
  http: HttpOptions,
  init: {
    body?: unknown;
    idempotencyKey?: string;
    signal?: AbortSignal;
    timeoutMs: number;
    /** Headers of this request only, over `http.headers` (the version offer of a connect). */
    headers?: Readonly<Record<string, string>>;
  },
): Promise<Exchange> {
  const deadline = withDeadline(init.signal, init.timeoutMs);
  try {
    const headers = await resolveHeaders(http.headers);
    for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
    if (init.body !== undefined) headers.set('Content-Type', 'application/json');
    if (init.idempotencyKey !== undefined) headers.set(IDEMPOTENCY_KEY_HEADER, init.idempotencyKey);
    const doFetch = http.fetch ?? globalThis.fetch;
    const response = await doFetch(url, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: deadline.signal,
      credentials: http.credentials,
      cache: 'no-store',
    });
    const read = await readRequestBody(response, {
      maxBytes: http.maxResponseBytes,
      timeoutMs: 0,
      signal: deadline.signal,
    });
    if (!read.ok) {
      await response.body?.cancel().catch(() => {});
      return {
        kind: 'failed',
        reason:
          read.reason === 'too-large'
            ? `The answer is larger than ${http.maxResponseBytes} bytes.`
            : `The answer could not be read (${read.reason}).`,
      };
    }
    const body = tryParseJson(read.text);
    // A shutdown's refusal has its hint to the millisecond; `Retry-After` has whole seconds.
    const hint = (body as { error?: { retryAfterMs?: unknown } } | undefined)?.error?.retryAfterMs;
    return {
      kind: 'answer',
      status: response.status,
      body,
      retryAfterMs:
        typeof hint === 'number' && hint >= 0
          ? hint
          : parseRetryAfter(response.headers.get('retry-after')),
    };
  } catch (error) {
    return { kind: 'failed', reason: describeError(error) };
  } finally {
    deadline.clear();
  }
}

/**
 * The `A2uiError` a refusal stands for: the code of its JSON body when it is one of ours, else
 * the code the status stands for; `path`, `data.httpStatus` and `data.issues` carried over.
 */
export function errorOfAnswer(status: number, body: unknown, what: string): A2uiError {
  const error = (body as Partial<RestErrorBody> | undefined)?.error;
  const known = error && typeof error.code === 'string' ? toA2uiCode(error.code) : undefined;
  const code =
    known ??
    (Object.entries(HTTP_STATUS_BY_CODE).find(([, value]) => value === status)?.[0] as
      | A2uiErrorCode
      | undefined) ??
    'TRANSPORT_ERROR';
  const detail = typeof error?.message === 'string' ? `: ${error.message}` : '';
  return new A2uiError(code, `${what} answered HTTP ${status}${detail}`, {
    path: typeof error?.path === 'string' ? error.path : undefined,
    data: {
      httpStatus: status,
      ...(error?.code !== undefined ? { serverCode: error.code } : {}),
      ...(Array.isArray(error?.issues) ? { issues: error.issues } : {}),
    },
  });
}

/** The codes a server refuses HTTP requests with (`toHttpError`'s table), to tell ours from a proxy's. */
const HTTP_ERROR_CODES = new Set<string>(Object.keys(HTTP_STATUS_BY_CODE));

function toA2uiCode(code: string): A2uiErrorCode | undefined {
  if (HTTP_ERROR_CODES.has(code)) return code as A2uiErrorCode;
  // The binding's own HTTP-level codes.
  if (code === 'UNSUPPORTED_MEDIA_TYPE' || code === 'METHOD_NOT_ALLOWED') return 'TRANSPORT_ERROR';
  return undefined;
}

const isSeq = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** The answer of a turn or a poll, checked; `undefined` when it is not one. */
export function parseMessagesAnswer(body: unknown): RestPollAnswer | undefined {
  const answer = body as Partial<RestPollAnswer> | undefined;
  if (typeof answer !== 'object' || answer === null) return undefined;
  if (!Array.isArray(answer.messages) || !isSeq(answer.seq)) return undefined;
  if (answer.seq < answer.messages.length) return undefined;
  return {
    messages: answer.messages,
    seq: answer.seq,
    more: answer.more === true,
    ...(typeof answer.closed === 'string' ? { closed: answer.closed } : {}),
    ...(typeof answer.retryAfterMs === 'number' && answer.retryAfterMs >= 0
      ? { retryAfterMs: answer.retryAfterMs }
      : {}),
    ...(answer.reset === 'replay-gap' ? { reset: answer.reset } : {}),
    ...(answer.superseded === true ? { superseded: true as const } : {}),
  };
}

/** The answer of `POST {base}/connect`, checked. */
export function parseConnectAnswer(body: unknown): RestConnectAnswer | undefined {
  const answer = parseMessagesAnswer(body);
  // `body` is `undefined` when the answer was not JSON (a proxy's page): checked before reading it.
  if (!answer) return undefined;
  const connectionId = (body as Partial<RestConnectAnswer>).connectionId;
  if (typeof connectionId !== 'string' || connectionId === '') return undefined;
  const { a2uiVersion } = body as Partial<RestConnectAnswer>;
  return { connectionId, ...(typeof a2uiVersion === 'string' ? { a2uiVersion } : {}), ...answer };
}

/** Numbers the messages of an answer: `messages[i]` has `seq − messages.length + 1 + i`. */
export function firstSeqOf(answer: RestMessagesAnswer): number {
  return answer.seq - answer.messages.length + 1;
}
