/**
 * The agent side of A2UI (ARCHITECTURE §2 "Agent side"): an agent handles connections without
 * knowing which transport carries them.
 */
import type {
  ActionEvent,
  ClientCapabilities,
  ClientDataModel,
  ClientError,
  ClientMessageMetadata,
  ServerMessage,
} from '../protocol/messages.js';

/** Why a connection ended. */
export type DisconnectReason =
  /** The client asked to close. */
  | 'client-closed'
  /** The server (or the agent) closed it. */
  | 'server-closed'
  /** The link dropped and the client did not resume within the grace period. */
  | 'grace-expired'
  /** The session could not be resumed and was replaced by a fresh one. */
  | 'reset';

/**
 * A connection to one client, as the agent sees it. Opaque: the transport behind it is unknown.
 */
export interface Connection {
  /** Unguessable connection id (≥128 random bits). */
  readonly id: string;
  /** What the transport's `authenticate(request)` hook returned; `undefined` without auth. */
  readonly principal: unknown;
  /** The latest `a2uiClientCapabilities` the client sent (§4.1). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The latest `a2uiClientDataModel` the client sent (§4.2). */
  readonly clientDataModel: ClientDataModel | undefined;
  /** Aborts when the connection ends; pass it to long work started for this client. */
  readonly signal: AbortSignal;
  readonly closed: boolean;
  /**
   * Queues server messages for delivery, in order. Each is validated against the v0.9 envelope.
   * @throws A2uiError `CONNECTION_CLOSED` after close, `VALIDATION_FAILED` for a malformed message,
   *   `MESSAGE_TOO_LARGE` above the transport's frame limit
   */
  send(messages: ServerMessage | readonly ServerMessage[]): void;
  /** Ends the connection; the agent's `onDisconnect` runs with `server-closed`. */
  close(): void;
}

/**
 * An A2UI agent. Every hook is optional and may be async; hooks of one connection run one at a
 * time, in the order the client's messages arrived.
 *
 * @example
 * ```ts
 * const agent: A2uiAgent = {
 *   onConnect(connection) {
 *     connection.send([{ version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } }]);
 *   },
 *   onAction(connection, action) { console.log(action.name, action.context); },
 * };
 * ```
 */
export interface A2uiAgent {
  onConnect?(connection: Connection): void | Promise<void>;
  onAction?(
    connection: Connection,
    action: ActionEvent,
    metadata: ClientMessageMetadata | undefined,
  ): void | Promise<void>;
  onError?(
    connection: Connection,
    error: ClientError,
    metadata: ClientMessageMetadata | undefined,
  ): void | Promise<void>;
  onDisconnect?(connection: Connection, reason: DisconnectReason): void | Promise<void>;
}
