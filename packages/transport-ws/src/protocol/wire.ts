/**
 * The names, shapes and close codes of the WebSocket wire format (ARCHITECTURE §4 "WebSocket"),
 * shared by the server binding and the client connector. `docs/wire-formats.md` ("WebSocket")
 * shows the bytes; `docs/errors.md` ("WebSocket") the codes.
 *
 * One text frame carries one thing. Server → client: an A2UI v0.9 message as it is (its text never
 * starts with `{"type":`), or a control frame, which always starts with the bytes `{"type":"`.
 * Client → server: a client message in an envelope `{"id", "message", "metadata"}` (or a bare v0.9
 * client message), or a control frame with a `type` key.
 */

/** Path of the WebSocket endpoint, relative to the base path the server is mounted under. */
export const WS_PATH = '/ws';

/**
 * The subprotocol clients sent before versions were negotiated, and still the one of v0.9: an old
 * client offers only it, and the server selects it (a client that offers subprotocols but gets none
 * back fails the handshake).
 */
export const WS_SUBPROTOCOL = 'a2ui.v0.9';

/**
 * Prefix of the version subprotocols: a client offers `a2ui.<version>` for each A2UI version it
 * speaks (`a2ui.v0.8`, `a2ui.v0.9`, `a2ui.v0.9.1`, `a2ui.v1.0`) and the server selects the one of
 * the negotiated version, its `Sec-WebSocket-Protocol` answer. `a2ui.bearer.…` is not a version.
 */
export const WS_VERSION_SUBPROTOCOL_PREFIX = 'a2ui.v';

/**
 * The subprotocol of an A2UI version: `a2ui.v1.0` for `v1.0`.
 *
 * @example
 * ```ts
 * versionSubprotocol('v0.9.1'); // 'a2ui.v0.9.1'
 * ```
 */
export function versionSubprotocol(version: string): string {
  return `a2ui.${version}`;
}

/**
 * The A2UI versions a handshake's `Sec-WebSocket-Protocol` offers (every `a2ui.v…` value, in the
 * client's order), or `undefined` when it offers none (a bare `ws` client): such a client is
 * served as before negotiation. Other subprotocols (the bearer one) are skipped.
 */
export function offeredVersionsOf(header: string | undefined): string[] | undefined {
  const offered = (header ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.startsWith(WS_VERSION_SUBPROTOCOL_PREFIX))
    .map((value) => value.slice('a2ui.'.length));
  return offered.length > 0 ? offered : undefined;
}

/**
 * Prefix of the subprotocol that carries a bearer token (browsers cannot set headers on a
 * WebSocket): `a2ui.bearer.<base64url of the token's UTF-8>`. The server turns it into an
 * `Authorization: Bearer <token>` header of the request its `authenticate` hook sees, and never
 * echoes it.
 */
export const WS_BEARER_PROTOCOL_PREFIX = 'a2ui.bearer.';

/** Query parameters of the handshake `GET {base}/ws`. */
export const WS_QUERY = {
  /** The connection to resume. */
  connectionId: 'connectionId',
  /** Number of A2UI messages of that connection the client has applied; later ones are replayed. */
  lastSeq: 'lastSeq',
  /** A bearer token (RFC 6750 §2.3), when the server accepts tokens in the query. */
  accessToken: 'access_token',
} as const;

/** Every control frame starts with these bytes; nothing else a server sends does. */
export const CONTROL_FRAME_PREFIX = '{"type":"';

/** `type` of server → client control frames. */
export const SERVER_FRAME_TYPES = {
  /** First frame of every socket: `{connectionId, resumed, replayed, heartbeatIntervalMs}`. */
  connected: 'connected',
  /** The connection asked for could not be resumed (`{reason}`); a `connected` frame of a new one follows. */
  reset: 'reset',
  /** A client message was delivered to the agent (`{id, duplicate?}`). */
  ack: 'ack',
  /** A client frame was refused (`{id?, error: {code, message, path?, issues?, retryAfterMs?}}`). */
  error: 'error',
  /** Sent on a socket idle for a heartbeat interval: lets a browser detect a silent link. */
  heartbeat: 'heartbeat',
  /** The answer to a client `ping`. */
  pong: 'pong',
} as const;

/** `type` of client → server control frames. */
export const CLIENT_FRAME_TYPES = {
  /** `{seq}`: the client has applied every A2UI message through `seq`; the server may forget them. */
  ack: 'ack',
  /** Asks for a `pong` at once (a liveness probe after the page woke up). */
  ping: 'ping',
} as const;

/**
 * WebSocket close codes of this binding (RFC 6455 §7.4; 4000–4999 are the application's).
 * The client reconnects (and resumes) after any code that is not marked final.
 */
export const WS_CLOSE_CODES = {
  /**
   * Final. Server → client: the connection ended (`reason` is the `DisconnectReason`, e.g.
   * `server-closed` when the agent closed it). Client → server: the client is leaving; the agent
   * sees `onDisconnect('client-closed')` at once.
   */
  normal: 1000,
  /** The peer is going away (a proxy or server that shuts down): the client reconnects. */
  goingAway: 1001,
  /** The client sent a binary frame: this wire format is text only. */
  unsupportedData: 1003,
  /** A text frame was not valid UTF-8 (sent by `ws` itself). */
  invalidPayload: 1007,
  /** A frame was larger than `maxPayloadBytes` (sent by `ws` itself). */
  messageTooBig: 1009,
  /** The server failed to handle the socket (a bug). */
  internalError: 1011,
  /**
   * Service restart: the server shuts down. `reason` is {@link RestartReason} as JSON; the client
   * reconnects after `retryAfterMs`, and starts over when the server no longer knows the connection.
   */
  serviceRestart: 1012,
  /** Final. A newer socket took over this connection (`reason`: `replaced`). */
  replaced: 4000,
  /**
   * Client → server: the client gave up on this socket (no heartbeat, no answer to a probe or to a
   * message): the connection stays, waiting for the client's resume within its grace period.
   */
  abandoned: 4001,
} as const;

/** Data of the `connected` control frame. */
export interface ConnectedFrame {
  type: 'connected';
  /** The connection's unguessable id (128 random bits, base64url). */
  connectionId: string;
  /** True when this socket continues the connection the client asked for. */
  resumed: boolean;
  /** A2UI messages replayed before live ones (0 on a new connection). */
  replayed: number;
  /** How often the server pings and, when idle, sends a `heartbeat` frame (0: never). */
  heartbeatIntervalMs: number;
}

/** The close `reason` (JSON) of {@link WS_CLOSE_CODES.serviceRestart}. */
export interface RestartReason {
  /** The agent's `DisconnectReason`: `server-closed`. */
  reason: string;
  /** Reconnect no sooner than this (the server's `restartRetryAfterMs`). */
  retryAfterMs: number;
}

/** The `reset` control frame. */
export interface ResetFrame {
  type: 'reset';
  /** `unknown-connection`, `replay-gap` or `owner-lost`. */
  reason: string;
}

/** The `ack` control frame (server → client). */
export interface AckFrame {
  type: 'ack';
  /** The envelope's `id`; absent for a bare client message. */
  id?: string;
  /** Present when the id was seen before: the message reached the agent once, earlier. */
  duplicate?: true;
}

/** What an `error` control frame says about the refusal. */
export interface ErrorFrameBody {
  /** An `A2uiErrorCode` (`docs/errors.md`). */
  code: string;
  message: string;
  /** JSON Pointer of the bad field in the client's frame. */
  path?: string;
  /** Every problem found (validation). */
  issues?: unknown[];
  /** With `LIMIT_EXCEEDED`: send the message again (same id) after this long. */
  retryAfterMs?: number;
  /** With `LIMIT_EXCEEDED`: why (`store-unavailable` while the server's session store is down). */
  reason?: string;
}

/** The `error` control frame. */
export interface ErrorFrame {
  type: 'error';
  /** The refused frame's `id`, when it had one. */
  id?: string;
  error: ErrorFrameBody;
}

/** A client message as the client sends it. */
export interface ClientEnvelope {
  /** Idempotency key: a frame sent again with the same id reaches the agent once. */
  id?: string;
  /** The connection it is for; when present it must be the socket's own. */
  connectionId?: string;
  /** The v0.9 client message: `{"version": "v0.9", "action": …}` or `{"version": "v0.9", "error": …}`. */
  message: unknown;
  /** Client capabilities and data model (spec §4), beside the message. */
  metadata?: unknown;
}
