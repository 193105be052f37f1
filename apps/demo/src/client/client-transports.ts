/**
 * The client half of every transport the demo server mounts (see `../server/transports.ts`).
 * Adding a transport is one entry here.
 */
import { type AgUiFrontendTool, connectAgUi } from '@a2ui-ts/agui-adapter';
import type { ClientTransport } from '@a2ui-ts/core';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { connectWs } from '@a2ui-ts/transport-ws';

/** Connects to an agent served at `url` over one transport. */
export interface ClientTransportFactory {
  /** Same id as the server transport. */
  readonly id: string;
  connect(url: string): ClientTransport;
}

/** Client transports by id. */
export const CLIENT_TRANSPORTS: readonly ClientTransportFactory[] = [
  { id: 'sse-jsonrpc', connect: (url) => connectSseJsonRpc({ url, heartbeatTimeoutMs: 45_000 }) },
  {
    id: 'ws',
    // The page's own origin, as ws: or wss:; the browser's WebSocket.
    connect: (url) => connectWs({ url: new URL(url, location.href).href.replace(/^http/, 'ws') }),
  },
  { id: 'agui-state', connect: (url) => connectAgUiDemo(url) },
  { id: 'agui-activity', connect: (url) => connectAgUiDemo(url) },
];

/**
 * Frontend tools the page offers AG-UI agents: the agent calls one, the run ends, the page runs it
 * and the next run carries the result (the time-zone agent uses it).
 */
export const DEMO_FRONTEND_TOOLS: readonly AgUiFrontendTool[] = [
  {
    name: 'getTimeZone',
    description: 'The IANA time zone of the user’s browser, e.g. "Europe/Paris".',
    parameters: { type: 'object', properties: {} },
    handler: () => Intl.DateTimeFormat().resolvedOptions().timeZone,
  },
];

/**
 * AG-UI has no server push, so the page polls with an empty run after 2 s without one: the
 * restaurant's live "tables left" updates show up as they do over SSE, a little later.
 */
function connectAgUiDemo(url: string): ClientTransport {
  return connectAgUi({ url, tools: DEMO_FRONTEND_TOOLS, pollIntervalMs: 2_000 });
}
