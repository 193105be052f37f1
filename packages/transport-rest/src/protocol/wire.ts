/**
 * The REST wire format (ARCHITECTURE §4 "REST"; the bytes are in `docs/wire-formats.md#rest`):
 * route paths, query parameters, headers and the JSON shapes of requests and answers, shared by
 * the server binding and the client connector.
 */
import type { DisconnectReason, ServerMessage } from '@a2ui-ts/core';
import type { ResetReason } from '@a2ui-ts/core/host';

/** Route paths, relative to the base path the server is mounted at. */
export const REST_PATHS = {
  /** `POST`: opens a connection; answered with the agent's first turn. */
  connect: '/connect',
  /** `POST`: a v0.9 `action`; answered with the agent's turn. */
  action: '/action',
  /** `POST`: a v0.9 `error`; answered with the agent's turn. */
  error: '/error',
  /**
   * `POST`: a v1.0 `callAgentFunction`; answered with the agent's turn, whose messages hold the
   * `agentFunctionResponse` (a `functionCallId` sent again is not run again: its answer is).
   */
  callAgentFunction: '/callAgentFunction',
  /**
   * `POST`: a v1.0 `rendererFunctionResponse`; answered with the turn it continues (what the
   * agent sent after its `callRendererFunction` returned).
   */
  rendererFunctionResponse: '/rendererFunctionResponse',
  /** `GET`: long poll for the messages after a `seq`. */
  messages: '/messages',
  /** `POST`: the client leaves. */
  disconnect: '/disconnect',
} as const;

/** Query parameters of `GET {base}/messages`. */
export const REST_QUERY = {
  connectionId: 'connectionId',
  /** The last `seq` the client applied (and so acknowledges). */
  after: 'after',
  /** How long to wait for a message when none is there yet, in milliseconds. */
  waitMs: 'waitMs',
} as const;

/**
 * The idempotency key header (draft-ietf-httpapi-idempotency-key-header). Its value may be a bare
 * token or a structured-field string (`"…"`, the quotes are dropped).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Messages of one connection, as every answer carries them: `messages[i]` has the sequence number
 * `seq − messages.length + 1 + i`, so `seq` is the last one (or, with no messages, the `seq` the
 * client is at once it has applied this answer).
 */
export interface RestMessagesAnswer {
  /** Bare v0.9 server messages, in `seq` order. */
  messages: ServerMessage[];
  /** `seq` of the last message of `messages` (see above). */
  seq: number;
  /**
   * More may follow at once: the turn did not end within the server's `turnTimeoutMs`, or a poll
   * hit the server's `maxPollMessages`. Poll now (the rest arrives by `GET {base}/messages`).
   */
  more: boolean;
  /**
   * The connection has ended (the agent closed it, or the server shut down): do not poll it again.
   */
  closed?: DisconnectReason;
  /**
   * With `closed`, when the server shuts down: come back after this long — poll again (the
   * restarted server answers 404, and the client connects anew: it starts over). Without it a
   * `closed` answer is final.
   */
  retryAfterMs?: number;
}

/** Answer of `POST {base}/connect`: the agent's first turn. */
export interface RestConnectAnswer extends RestMessagesAnswer {
  connectionId: string;
  /**
   * The A2UI version the server speaks on this connection, when the client offered versions
   * (`POST {base}/connect?a2uiVersions=v1.0,v0.9` or the `A2UI-Versions` header); absent otherwise.
   */
  a2uiVersion?: string;
}

/** Answer of `POST {base}/action` and `POST {base}/error`: the agent's turn. */
export type RestTurnAnswer = RestMessagesAnswer;

/** Answer of `GET {base}/messages`. */
export interface RestPollAnswer extends RestMessagesAnswer {
  /**
   * The messages after `after` are no longer kept (or `after` is ahead of the connection): the
   * client must drop its surfaces and connect again (`POST {base}/connect` with `replaces`).
   */
  reset?: Extract<ResetReason, 'replay-gap'>;
  /**
   * A newer poll of the same connection arrived while this one waited: this one ends at once,
   * empty; the newer one answers.
   */
  superseded?: true;
}

/** Body of `POST {base}/connect` (every field optional; `{}` is a valid body). */
export interface RestConnectRequest {
  /**
   * The connection this one replaces after a `reset`: the server ends it (its agent sees
   * `onDisconnect('reset')`) before opening the new one, so the new one takes its place in the caps.
   */
  replaces?: string;
  /** Idempotency key, when the `Idempotency-Key` header cannot be set. */
  requestId?: string;
}

/**
 * Body of `POST {base}/action` (`action`), `POST {base}/error` (`error`), and of the v1.0
 * function calls: `POST {base}/callAgentFunction` (`callAgentFunction`) and
 * `POST {base}/rendererFunctionResponse` (`rendererFunctionResponse`).
 */
export interface RestClientMessageRequest {
  connectionId: string;
  /**
   * The envelope version of `action` / `error` when it is not `"v0.9"`: `"v1.0"` from a client
   * that negotiated v1.0 (refused with `NOT_SUPPORTED` on a connection that did not).
   * @default "v0.9" on `/action` and `/error`, "v1.0" on the function-call routes
   */
  version?: string;
  /** The `action` object (on `/action`), of `version`. */
  action?: unknown;
  /** The `error` object (on `/error`), of `version`. */
  error?: unknown;
  /** The v1.0 `callAgentFunction` object (on `/callAgentFunction`). */
  callAgentFunction?: unknown;
  /** The v1.0 `rendererFunctionResponse` object (on `/rendererFunctionResponse`). */
  rendererFunctionResponse?: unknown;
  /** `a2uiClientCapabilities`, `a2uiClientDataModel` (§4). */
  metadata?: unknown;
  /** Idempotency key, when the `Idempotency-Key` header cannot be set. */
  requestId?: string;
}

/** Body of `POST {base}/disconnect`. */
export interface RestDisconnectRequest {
  connectionId: string;
}

/** Answer of `POST {base}/disconnect`. */
export interface RestDisconnectAnswer {
  closed: true;
}

/** The body of every refusal: an `A2uiError` code (or `UNSUPPORTED_MEDIA_TYPE`, `METHOD_NOT_ALLOWED`). */
export interface RestErrorBody {
  error: {
    code: string;
    message: string;
    /** JSON Pointer of the bad field of the request body, when there is one. */
    path?: string;
    /** Every problem found, for a schema failure. */
    issues?: unknown[];
    /** The server's `maxRequestBytes`, for a body too large (413). */
    maxRequestBytes?: number;
  };
}
