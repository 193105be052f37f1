/**
 * `@a2ui-ts/transport-ws/server` — the Node server binding: `createWsServer` takes the WebSocket
 * upgrades of a Node HTTP server (`ws` with `noServer`), so it shares a port with Hono routes;
 * `attachWsServer` wires it to a server, `serveWs` listens with it alone.
 *
 * @module
 */

export { defaultIsSamePrincipal, defaultPrincipalKey } from '@a2ui-ts/core/host';
export type { ServeWsOptions, UpgradeEmitter, WsNodeServer } from './server/attach-ws-server.js';
export { attachWsServer, serveWs } from './server/attach-ws-server.js';
export type {
  AllowedOrigins,
  TokenLocation,
  WsServer,
  WsServerOptions,
  WsServerStats,
} from './server/create-ws-server.js';
export { createWsServer, WS_SERVER_DEFAULTS } from './server/create-ws-server.js';
