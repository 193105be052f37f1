/**
 * The client half of the transport contract (ARCHITECTURE §3): an ordered stream of inbound
 * events and a return channel for client messages with their metadata.
 */
import type { ClientMessage, ClientMessageMetadata } from '../protocol/messages.js';

/** Link state reported by a transport. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** One inbound event, in order. */
export type TransportEvent =
  /** Server messages: one message, an array, `{messages}`, or JSON text of one of those. */
  | { type: 'messages'; messages: unknown }
  /** The link changed state; `reason` says why (e.g. the error that dropped it). */
  | { type: 'status'; status: ConnectionStatus; reason?: string; attempt?: number }
  /** The server could not resume the session: every surface is gone and the agent starts over. */
  | { type: 'reset'; reason?: string };

/** Options of a single send. */
export interface SendOptions {
  signal?: AbortSignal;
}

/**
 * A client transport. `events()` is called once by the client; it yields until the transport is
 * closed. `send` delivers one client message with its metadata (§4) — beside the message, never
 * inside it.
 */
export interface ClientTransport {
  events(options?: { signal?: AbortSignal }): AsyncIterable<TransportEvent>;
  /** @throws A2uiError `CONNECTION_CLOSED`, `TRANSPORT_ERROR`, `ABORTED` */
  send(
    message: ClientMessage,
    metadata: ClientMessageMetadata,
    options?: SendOptions,
  ): Promise<void>;
  close(): Promise<void>;
}
