/**
 * The names and shapes of the SSE + JSON-RPC wire format (ARCHITECTURE §4 "SSE + JSON-RPC"),
 * shared by the server binding and the client connector. `docs/wire-formats.md` shows the bytes.
 */

/** Path of the event stream, relative to the base path the server is mounted under. */
export const SSE_PATH = '/sse';
/** Path of the JSON-RPC endpoint, relative to the base path. */
export const RPC_PATH = '/rpc';

/** SSE event names. A2UI messages carry no event name, so `EventSource.onmessage` receives them. */
export const SSE_EVENTS = {
  /** First event of every stream: `{"connectionId", "resumed", "replayed"}`. */
  connected: 'connected',
  /** The session could not be resumed; a fresh one follows on the same stream. */
  reset: 'reset',
  /** The connection ended for good (`{"reason"}`): do not reconnect. */
  close: 'close',
} as const;

/** JSON-RPC methods served at `POST {base}/rpc`. */
export const RPC_METHODS = {
  /**
   * Params `{connectionId, version?, action, metadata?}`; `action` is the inner object of the
   * envelope `version` (default `"v0.9"`; `"v1.0"` from a client that negotiated v1.0, whose
   * action may carry `userMessage`).
   */
  action: 'a2ui.action',
  /** Params `{connectionId, version?, error, metadata?}`; as `action`, with the `error` object. */
  error: 'a2ui.error',
  /**
   * Params `{connectionId, callAgentFunction, metadata?}`; `callAgentFunction` is the v1.0 inner
   * object `{surfaceId, functionCallId, callFunction}`. The agent's `agentFunctionResponse` comes
   * on the stream; a `functionCallId` sent again is not run again (its answer is sent again).
   */
  callAgentFunction: 'a2ui.callAgentFunction',
  /**
   * Params `{connectionId, rendererFunctionResponse, metadata?}`; `rendererFunctionResponse` is the
   * v1.0 inner object `{functionCallId, value | error}`. Settles the agent's waiting
   * `callRendererFunction` at once; `result.turn` is the agent's turn that it continues.
   */
  rendererFunctionResponse: 'a2ui.rendererFunctionResponse',
  /** Params `{connectionId}`: the client is leaving; the agent sees `client-closed` at once. */
  disconnect: 'a2ui.disconnect',
} as const;

/** Query parameters of `GET {base}/sse`. */
export const SSE_QUERY = {
  /** The connection to resume. */
  connectionId: 'connectionId',
  /** Stands in for the `Last-Event-ID` header, which a plain `EventSource` cannot set on a new URL. */
  lastEventId: 'lastEventId',
} as const;

/** Data of the `connected` event. */
export interface ConnectedEventData {
  /** The connection's unguessable id (128 random bits, base64url). */
  connectionId: string;
  /** True when this stream continues an existing connection. */
  resumed: boolean;
  /** Events replayed from the buffer before live events (0 on a new connection). */
  replayed: number;
  /**
   * The A2UI version the server speaks on this connection, when the client offered versions
   * (`?a2uiVersions=v1.0,v0.9` or the `A2UI-Versions` header); absent otherwise.
   */
  a2uiVersion?: string;
}

/** Data of the `reset` and `close` events. */
export interface ReasonEventData {
  reason: string;
  /**
   * `close` only, when the server shuts down: reconnect after this long (as the `retry:` field
   * before it says); the restarted server resets the client onto a new connection. Without it a
   * `close` is final.
   */
  retryAfterMs?: number;
}

/** A JSON-RPC 2.0 request id. */
export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 error object. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC 2.0 response. */
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

/** Result of a successful `a2ui.action` / `a2ui.error` call. */
export interface RpcAcceptedResult {
  accepted: true;
  /** Present when the request id was seen before: the message was delivered once, earlier. */
  duplicate?: true;
  /**
   * The agent's turn for this message (for a duplicate: the original's), when it ended within the
   * server's `turnWaitMs`: its messages are the events with `startSeq < id ≤ endSeq` on the stream.
   * Only the last message of a call that expects an answer carries it; turns follow one another,
   * so its turn ends after every earlier one of the call.
   */
  turn?: { startSeq: number; endSeq: number };
}
