/**
 * The client half of every transport the demo server mounts (see `../server/transports.ts`).
 * Adding a transport is one entry here.
 */
import type { ClientTransport } from '@a2ui-ts/core';
import { connectA2a } from '@a2ui-ts/transport-a2a';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';

/** Connects to an agent served at `url` over one transport. */
export interface ClientTransportFactory {
  /** Same id as the server transport. */
  readonly id: string;
  connect(url: string): ClientTransport;
}

/** Client transports by id. */
export const CLIENT_TRANSPORTS: readonly ClientTransportFactory[] = [
  { id: 'sse-jsonrpc', connect: (url) => connectSseJsonRpc({ url, heartbeatTimeoutMs: 45_000 }) },
  { id: 'a2a', connect: (url) => connectA2a({ url }) },
];
