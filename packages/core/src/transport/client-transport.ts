/**
 * The client half of the transport contract (ARCHITECTURE §3): an ordered stream of inbound
 * events and a return channel for client messages with their metadata.
 */
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';

/**
 * Link state reported by a transport: `connecting` (first link), `open`, `degraded` (the link is
 * open but client messages cannot be delivered right now; they stay queued and are retried with
 * backoff), `reconnecting` (the link dropped; messages are queued), `closed` (for good).
 */
export type ConnectionStatus = 'connecting' | 'open' | 'degraded' | 'reconnecting' | 'closed';

/**
 * Why client messages wait, when the server said: `busy` (its agent has too many waiting) or
 * `store-unavailable` (its shared session store, e.g. Redis, cannot be reached).
 */
export type TroubleCause = 'busy' | 'store-unavailable';

/** One inbound event, in order. */
export type TransportEvent =
  /**
   * Server messages: one message, an array, `{messages}`, or JSON text of one of those — or a
   * session snapshot envelope (`readSessionSnapshot`), whose messages replace every surface.
   */
  | { type: 'messages'; messages: unknown }
  /**
   * The link changed state; `reason` says why (e.g. the error that dropped it), and `cause`, for
   * `degraded`, what the server said when it refused messages for now.
   */
  | {
      type: 'status';
      status: ConnectionStatus;
      reason?: string;
      attempt?: number;
      cause?: TroubleCause;
    }
  /** The server could not resume the session: every surface is gone and the agent starts over. */
  | { type: 'reset'; reason?: string };

/** Options of a single send. */
export interface SendOptions {
  signal?: AbortSignal;
}

/**
 * Versions of client messages a {@link ClientTransport} without negotiation delivers unless it
 * says otherwise: v0.9, which the servers of every binding (SSE + JSON-RPC, WebSocket, REST, A2A,
 * AG-UI, in-memory) accept. A link that negotiated a version writes that version's shape instead
 * (`clientMessageVersionOf`: v1.0's on a v1.0 link, v0.9's on an older one).
 */
export const DEFAULT_CLIENT_MESSAGE_VERSIONS: readonly string[] = ['v0.9'];

/**
 * A client transport. `events()` is called once by the client and starts the link; it yields until
 * the transport is closed. `send` delivers one client message with its metadata (§4) — beside the
 * message, never inside it — exactly once, in order.
 *
 * Call order, the same for every transport: `send` may be called at any time before `close()`,
 * also before `events()` and while the link is down; the message waits (bounded) and is
 * delivered once a connection is open. Its promise settles when the server acknowledged it (for
 * turn-based transports: once the agent's answer has been queued as events).
 */
export interface ClientTransport {
  /**
   * The A2UI versions of client messages this link delivers, by envelope name (`'v0.8'`,
   * `'v0.9'`, `'v1.0'`…), for a link that negotiates no version ({@link a2uiVersion} stays
   * `undefined`). An action or error of a surface created in another version is written in
   * v0.9's shape instead (the same event; v1.0's `userMessage` is left out). Ignored once the
   * link negotiated a version: its messages are then written in that version's shape.
   * @default {@link DEFAULT_CLIENT_MESSAGE_VERSIONS}: v0.9 only, what every binding's server
   *   accepts without negotiation
   */
  readonly clientMessageVersions?: readonly string[];
  /**
   * The A2UI version the link negotiated with the server (`"v1.0"`, `"v0.9"`, …), once the
   * connection is open; `undefined` before, and for a transport or server without negotiation
   * (named apart from a binding's own `protocolVersion`, which A2A uses for the A2A version).
   * `A2uiClient` allows v1.0 function calls (`callAgentFunction`, answering `callRendererFunction`)
   * only when it is `"v1.0"`, and writes actions and errors in v1.0's shape then (v0.9's for an
   * older version).
   */
  readonly a2uiVersion?: string | undefined;
  events(options?: { signal?: AbortSignal }): AsyncIterable<TransportEvent>;
  /** @throws A2uiError `CONNECTION_CLOSED`, `TRANSPORT_ERROR`, `ABORTED` */
  send(
    message: ClientMessage,
    metadata: ClientMessageMetadata,
    options?: SendOptions,
  ): Promise<void>;
  close(): Promise<void>;
}
