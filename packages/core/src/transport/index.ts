export type { ClientMessageKind, ClientMessageParts } from './client-message-version.js';
export {
  clientMessageVersionOf,
  defaultClientMessageVersion,
  fromClientMessageParts,
  toClientMessageParts,
} from './client-message-version.js';
export type {
  ClientTransport,
  ConnectionStatus,
  SendOptions,
  TransportEvent,
  TroubleCause,
} from './client-transport.js';
export { DEFAULT_CLIENT_MESSAGE_VERSIONS } from './client-transport.js';
export type { EventQueue } from './event-queue.js';
export { createEventQueue } from './event-queue.js';
export type { InMemoryTransport, InMemoryTransportOptions } from './in-memory-transport.js';
export { createInMemoryTransport } from './in-memory-transport.js';
