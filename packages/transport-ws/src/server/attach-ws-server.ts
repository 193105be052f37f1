/**
 * Node glue: hands the upgrades of an HTTP server to a {@link WsServer}, and a listener of its own
 * for a server that serves only sockets.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type HttpListener, type ListenOptions, listenHttpServer } from '@a2ui-ts/core/host';
import type { WsServer } from './create-ws-server.js';

/** Anything that emits Node's `upgrade` event: `http.Server`, `https.Server`, `@hono/node-server`'s. */
export interface UpgradeEmitter {
  on(
    event: 'upgrade',
    listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ): unknown;
  off(
    event: 'upgrade',
    listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void,
  ): unknown;
  listenerCount(event: 'upgrade'): number;
}

const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Serves `a2ui` on the upgrades of `server`. An upgrade for another path is left to the server's
 * other `upgrade` listeners; when there are none, it is answered 404.
 *
 * @returns a function that detaches it again
 *
 * @example
 * ```ts
 * const server = serve({ fetch: app.fetch, port: 8787 }); // Hono routes on the same port
 * attachWsServer(server, createWsServer({ agent, basePath: '/a2ui' }));
 * ```
 */
export function attachWsServer(server: UpgradeEmitter, a2ui: WsServer): () => void {
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (a2ui.upgrade(request, socket, head)) return;
    if (server.listenerCount('upgrade') === 1) {
      socket.on('error', () => {});
      socket.end(NOT_FOUND);
    }
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
  };
}

/** Options of {@link serveWs}: `port` (0 picks a free one) and `hostname` ('127.0.0.1'). */
export type ServeWsOptions = ListenOptions;

/**
 * A listening server: `url` (`ws://<hostname>:<port>`, without a trailing slash: the client's
 * `url` is this + `basePath`), `port`, the Node HTTP `server`, and `close()`, which closes every
 * connection of `a2ui`, stops listening and ends every other socket.
 */
export type WsNodeServer = HttpListener<Server>;

/**
 * Listens with `a2ui` alone on a Node HTTP server, which answers any plain HTTP request with
 * 426 Upgrade Required.
 *
 * @example
 * ```ts
 * const { url } = await serveWs(createWsServer({ agent, basePath: '/a2ui' }), { port: 8787 });
 * connectWs({ url: `${url}/a2ui` }); // ws://127.0.0.1:8787/a2ui/ws
 * ```
 */
export async function serveWs(a2ui: WsServer, options: ServeWsOptions = {}): Promise<WsNodeServer> {
  const server = createServer((_request, response) => {
    const body = JSON.stringify({
      error: { code: 'VALIDATION_FAILED', message: `Open a WebSocket at ${a2ui.path}.` },
    });
    response.writeHead(426, { 'Content-Type': 'application/json', Upgrade: 'websocket' });
    response.end(body);
  });
  attachWsServer(server, a2ui);
  return listenHttpServer(server, {
    ...options,
    scheme: 'ws',
    beforeCloseSockets: () => a2ui.close(),
  });
}
